/**
 * `compatApp`: the v5 endpoint over HTTP, announcing its own retirement. Every GraphQL response
 * carries `Deprecation` (RFC 9745) and, when configured, `Sunset` (RFC 8594) and a `Link` to the
 * migration guide; the body's `extensions.deprecations` names the v6 replacement of each v5
 * field the request used; `GET <path>/usage` reports use per field and per client.
 */
import { Hono, type Context } from 'hono';
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

export function compatApp(compat: CompatHandler, options: CompatAppOptions = {}): Hono {
  const path = options.path ?? '/graphql';
  const clientHeader = options.clientHeader ?? 'x-client-name';
  const usagePath = options.usagePath === undefined ? `${path.replace(/\/$/, '')}/usage` : options.usagePath;
  const since = options.deprecatedSince ?? new Date();
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(since.getTime() / 1000)}` };
  if (options.sunset) headers.Sunset = options.sunset.toUTCString();
  if (options.link) headers.Link = `<${options.link}>; rel="deprecation"`;

  const app = new Hono();
  const badRequest = (c: Context, message: string) => c.json({ data: null, errors: [{ message }] }, 400, headers);

  app.post(path, async (c) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch (error) {
      return badRequest(c, `malformed JSON body: ${(error as Error).message}`);
    }
    const body = readBody(raw);
    if (typeof body === 'string') return badRequest(c, body);
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
  });

  if (usagePath !== false) app.get(usagePath, (c) => c.json(compat.usage()));
  return app;
}
