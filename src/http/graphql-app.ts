/**
 * `graphqlApp(handler)`: a Hono app serving a `GraphQLHandler` over GraphQL-over-HTTP — POST
 * with JSON bodies, GET for queries, `application/json` and `application/graphql-response+json`
 * responses — and the GraphiQL page with its assets from the installed packages.
 */
import { getOperationAST, type DocumentNode } from 'graphql';
import { Hono, type Context } from 'hono';
import type { ExecutionResponse, GraphQLHandler } from '../graphql/handler.js';
import { assetRoute } from './assets.js';

export interface GraphqlAppOptions {
  /** Where the endpoint lives (default `/graphql`); GraphiQL assets are served under `<path>/assets/`. */
  path?: string;
  /** The context handed to `handler.execute` (e.g. the decoded credential); default `{}`. */
  context?: (c: Context) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Serve GraphiQL on GET without a query (default true). */
  graphiql?: boolean;
  /** The query GraphiQL opens with (see `GraphiqlOptions.defaultQuery`); GraphiQL's welcome comment when unset. */
  defaultQuery?: string;
  /**
   * Send `"errors": null` in application/json results without errors (default true: the
   * response shape of spec 4.1). GraphQL itself says the entry must then be absent, and the
   * graphql-http audit checks that; set false to omit it. application/graphql-response+json
   * results always omit it.
   */
  nullErrors?: boolean;
}

const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';

interface GraphQLParams {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/** A request the server refuses before GraphQL sees it. */
class RequestError {
  constructor(
    readonly status: 400 | 405 | 406 | 415,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

function acceptedTypes(c: Context): string[] {
  const header = c.req.header('accept');
  if (!header) return ['*/*'];
  return header
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
    .map(([type]) => type!.trim().toLowerCase());
}

/** The response media type the client accepts, preferring the GraphQL one; undefined for none. */
function negotiate(c: Context): string | undefined {
  const types = acceptedTypes(c);
  if (types.includes(GRAPHQL_RESPONSE_TYPE)) return GRAPHQL_RESPONSE_TYPE;
  if (types.some((t) => t === JSON_TYPE || t === 'application/*' || t === '*/*')) return JSON_TYPE;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function params(raw: Record<string, unknown>, fromQueryString: boolean): GraphQLParams {
  const { query, operationName } = raw;
  let { variables } = raw;
  if (typeof query !== 'string' || !query) throw new RequestError(400, "The request needs a 'query' string");
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw new RequestError(400, "'operationName' must be a string or null");
  }
  if (fromQueryString && typeof variables === 'string') {
    try {
      variables = JSON.parse(variables);
    } catch {
      throw new RequestError(400, "'variables' is not valid JSON");
    }
  }
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) {
    throw new RequestError(400, "'variables' must be an object or null");
  }
  if (raw.extensions !== undefined && raw.extensions !== null && !isPlainObject(raw.extensions)) {
    if (!(fromQueryString && typeof raw.extensions === 'string')) throw new RequestError(400, "'extensions' must be an object or null");
  }
  return { query, variables: (variables as Record<string, unknown> | undefined) ?? null, operationName: operationName ?? null };
}

async function postParams(c: Context): Promise<GraphQLParams> {
  const contentType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== JSON_TYPE && contentType !== GRAPHQL_RESPONSE_TYPE) {
    throw new RequestError(415, `POST bodies must be ${JSON_TYPE}, got ${contentType || 'no content type'}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new RequestError(400, 'The request body is not valid JSON');
  }
  if (!isPlainObject(body)) throw new RequestError(400, 'The request body must be a JSON object');
  return params(body, false);
}

function respond(c: Context, type: string, status: number, body: unknown, headers: Record<string, string> = {}) {
  return c.body(JSON.stringify(body), status as 200, { 'content-type': `${type}; charset=utf-8`, ...headers });
}

function requestError(c: Context, type: string, error: RequestError) {
  // application/json clients get the `{ data, errors }` shape; GraphQL-over-HTTP says a request
  // that never reached execution has no `data` entry in application/graphql-response+json.
  const body = type === JSON_TYPE ? { data: null, errors: [{ message: error.message }] } : { errors: [{ message: error.message }] };
  return respond(c, type, error.status, body, error.headers);
}

async function run(
  c: Context,
  handler: GraphQLHandler,
  options: GraphqlAppOptions,
  type: string,
  p: GraphQLParams,
  method: 'GET' | 'POST',
) {
  const prepared = handler.prepare(p.query);
  if (!('document' in prepared)) return failed(c, type, prepared);
  if (method === 'GET') {
    const operation = getOperationAST(prepared.document as DocumentNode, p.operationName ?? undefined);
    if (operation && operation.operation !== 'query') {
      throw new RequestError(405, `GET requests may only run queries, not ${operation.operation}s; use POST`, { allow: 'POST' });
    }
  }
  const context = options.context ? await options.context(c) : {};
  const result = await handler.execute(prepared.document, { context, variables: p.variables, operationName: p.operationName });
  if (result.errors === null && (type === GRAPHQL_RESPONSE_TYPE || options.nullErrors === false)) {
    return respond(c, type, 200, { data: result.data });
  }
  return failed(c, type, result);
}

/** 200 for execution results; with graphql-response+json a result without data (a request error) is 400. */
function failed(c: Context, type: string, result: ExecutionResponse) {
  const status = type === GRAPHQL_RESPONSE_TYPE && result.data === null && result.errors ? 400 : 200;
  const body = type === GRAPHQL_RESPONSE_TYPE && result.data === null && result.errors ? { errors: result.errors } : result;
  return respond(c, type, status, body);
}

export function graphqlApp(handler: GraphQLHandler, options: GraphqlAppOptions = {}): Hono {
  const path = (options.path ?? '/graphql').replace(/\/$/, '') || '/';
  const app = new Hono();
  const base = path === '/' ? '' : path;

  app.get(`${base}/assets/:file`, assetRoute);

  app.post(path, async (c) => {
    const type = negotiate(c);
    if (!type) return requestError(c, JSON_TYPE, new RequestError(406, `Accept ${JSON_TYPE} or ${GRAPHQL_RESPONSE_TYPE}`));
    try {
      return await run(c, handler, options, type, await postParams(c), 'POST');
    } catch (error) {
      if (error instanceof RequestError) return requestError(c, type, error);
      throw error;
    }
  });

  app.get(path, async (c) => {
    const query = c.req.query();
    const wantsHtml = acceptedTypes(c).includes('text/html');
    if (query.query === undefined && wantsHtml && options.graphiql !== false) {
      return c.html(handler.getGraphiqlHtml({ endpoint: path, assetsPath: `${base}/assets`, defaultQuery: options.defaultQuery }));
    }
    const type = negotiate(c);
    if (!type) return requestError(c, JSON_TYPE, new RequestError(406, `Accept ${JSON_TYPE} or ${GRAPHQL_RESPONSE_TYPE}`));
    try {
      return await run(c, handler, options, type, params(query, true), 'GET');
    } catch (error) {
      if (error instanceof RequestError) return requestError(c, type, error);
      throw error;
    }
  });

  app.on(['PUT', 'PATCH', 'DELETE'], path, (c) =>
    requestError(c, JSON_TYPE, new RequestError(405, 'Use GET for queries or POST', { allow: 'GET, POST' })),
  );
  return app;
}
