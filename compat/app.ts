/**
 * `compatApp`: the v5 endpoint over HTTP, announcing its own retirement. Every GraphQL response
 * carries `Deprecation` (RFC 9745) and, when configured, `Sunset` (RFC 8594) and a `Link` to the
 * migration guide; the body's `extensions.deprecations` names the v6 replacement of each v5
 * field the request used; `GET <path>/usage` reports use per field and per client.
 *
 * Like `graphqlApp` for v6, it takes queries by POST and by GET (`?query=&variables=&operationName=`,
 * GraphQL-over-HTTP: GET runs queries only), and a browser's GET without a query gets GraphiQL —
 * the same page and locally served assets as v6, so it works offline; it introspects this
 * endpoint and so shows the *old* flat schema.
 */
import { getOperationAST, parse, type DocumentNode } from 'graphql';
import { Hono, type Context } from 'hono';
import { graphiqlHtml } from '../src/graphql/graphiql.js';
import { assetRoute } from '../src/http/assets.js';
import type { CompatHandler, Deprecation } from './handler.js';

export interface CompatAppOptions {
  /** Where the v5 endpoint is served (default `/graphql`). */
  path?: string;
  /** When the endpoint was deprecated (default: when the app was created). */
  deprecatedSince?: Date;
  /** When the endpoint goes away; sent as the `Sunset` header. */
  sunset?: Date;
  /** A migration guide, sent as `Link: <url>; rel="deprecation"`. */
  link?: string;
  /** The request header naming the client, for the usage counters (default `x-client-name`). */
  clientHeader?: string;
  /** Where usage is served as JSON (default `<path>/usage`); `false` to not serve it. */
  usagePath?: string | false;
  /** The per-request context given to v6 methods. */
  context?: (c: Context) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Serve GraphiQL for the v5 schema on a browser's GET without a query (default true); assets under `<path>/assets/`. */
  graphiql?: boolean;
}

interface GraphQLRequestBody {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body's fields checked one by one, so a bad request gets an error naming the field. */
function readBody(body: unknown): GraphQLRequestBody | string {
  if (!isRecord(body)) return 'the request body must be a JSON object with a "query" string';
  const { query, variables, operationName } = body;
  if (typeof query !== 'string' || query.trim() === '') return 'missing "query": the request body must carry the GraphQL document as a string';
  if (variables != null && !isRecord(variables)) return '"variables" must be a JSON object';
  if (operationName != null && typeof operationName !== 'string') return '"operationName" must be a string';
  return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/** `?variables=` arrives as text: JSON-decoded here so `readBody` checks it like a POST body's. */
function readQueryString(params: Record<string, string>): GraphQLRequestBody | string {
  let variables: unknown = params.variables;
  if (typeof variables === 'string' && variables !== '') {
    try {
      variables = JSON.parse(variables);
    } catch (error) {
      return `"variables" is not valid JSON: ${(error as Error).message}`;
    }
  }
  return readBody({ query: params.query, variables: variables === '' ? undefined : variables, operationName: params.operationName || undefined });
}

/**
 * The kind of operation a GET would run, or undefined when the document does not parse or names
 * no single operation: execution then answers with the proper GraphQL error, as for POST.
 */
function operationKind(query: string, operationName: string | undefined): string | undefined {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return undefined;
  }
  return getOperationAST(document, operationName)?.operation;
}

const wantsHtml = (c: Context) => (c.req.header('accept') ?? '').toLowerCase().includes('text/html');

export function compatApp(compat: CompatHandler, options: CompatAppOptions = {}): Hono {
  const path = options.path ?? '/graphql';
  const base = path.replace(/\/$/, '');
  const clientHeader = options.clientHeader ?? 'x-client-name';
  const usagePath = options.usagePath === undefined ? `${base}/usage` : options.usagePath;
  const since = options.deprecatedSince ?? new Date();
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(since.getTime() / 1000)}` };
  if (options.sunset) headers.Sunset = options.sunset.toUTCString();
  if (options.link) headers.Link = `<${options.link}>; rel="deprecation"`;

  const app = new Hono();
  const badRequest = (c: Context, message: string) => c.json({ data: null, errors: [{ message }] }, 400, headers);

  const execute = async (c: Context, body: GraphQLRequestBody) => {
    const client = c.req.header(clientHeader)?.trim().slice(0, 100) || undefined;
    const { response, deprecations } = await compat.executeWithDeprecations(body.query, {
      variables: body.variables,
      operationName: body.operationName,
      context: options.context ? await options.context(c) : undefined,
      client,
    });
    const payload: { data: unknown; errors: unknown; extensions?: { deprecations: Deprecation[] } } = { ...response };
    if (deprecations.length > 0) payload.extensions = { deprecations };
    return c.json(payload, 200, headers);
  };

  app.post(path, async (c) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch (error) {
      return badRequest(c, `malformed JSON body: ${(error as Error).message}`);
    }
    const body = readBody(raw);
    if (typeof body === 'string') return badRequest(c, body);
    return execute(c, body);
  });

  // The page's scripts and styles, read from the installed packages exactly as for v6.
  if (options.graphiql !== false) app.get(`${base}/assets/:file`, assetRoute);

  app.get(path, async (c) => {
    const params = c.req.query();
    if (params.query === undefined && options.graphiql !== false && wantsHtml(c)) {
      const page = graphiqlHtml({ endpoint: path, assetsPath: `${base}/assets`, title: 'ergraph v5 compat GraphiQL (deprecated)' });
      return c.html(page, 200, headers);
    }
    const body = readQueryString(params);
    if (typeof body === 'string') return badRequest(c, body);
    // GraphQL-over-HTTP: GET must not change anything, so mutations are refused before execution.
    const kind = operationKind(body.query, body.operationName);
    if (kind !== undefined && kind !== 'query')
      return c.json({ data: null, errors: [{ message: `GET requests may only run queries, not ${kind}s; use POST` }] }, 405, { ...headers, Allow: 'POST' });
    return execute(c, body);
  });

  if (usagePath !== false) app.get(usagePath, (c) => c.json(compat.usage()));
  return app;
}
