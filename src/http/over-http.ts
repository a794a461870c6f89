/**
 * GraphQL over HTTP, once: the one layer behind `graphqlApp` (v6) and `compatApp` (v5). It owns
 * what the GraphQL-over-HTTP specification says — reading POST bodies and GET query strings,
 * content negotiation between `application/graphql-response+json` and `application/json`, the
 * status of each kind of failure, the error texts — plus the body size limit and the GraphiQL
 * page with its locally served assets. Each endpoint only says how a request runs.
 */
import type { GraphQLFormattedError, OperationTypeNode } from 'graphql';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { assetRoute } from './assets.js';

export const JSON_TYPE = 'application/json';
export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';
/** 1 MB: every HTTP surface refuses larger bodies with 413 unless configured otherwise. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** One GraphQL request as the client sent it. */
export interface GraphQLRequestParams {
  /** The document; absent only when `extensions` may stand for it (persisted queries). */
  query: string | undefined;
  variables: Record<string, unknown> | null;
  operationName: string | null;
  /** The request's `extensions` (e.g. `persistedQuery`), passed through to the endpoint. */
  extensions: Record<string, unknown> | null;
  /**
   * A persisted document's id: `documentId` (GraphQL over HTTP's persisted documents) or `doc_id`
   * (what Relay clients send). The layer only reads it; an endpoint that knows no ids refuses
   * the request for lack of a query.
   */
  documentId: string | null;
}

/** What an endpoint answers for one request. */
export interface GraphQLHttpResult {
  data?: unknown;
  errors?: readonly GraphQLFormattedError[] | null;
  extensions?: Record<string, unknown>;
  /**
   * Whether the request failed before execution (parse, validation, limits, variables): a 4xx
   * for `application/graphql-response+json`. When unset, a result without data whose errors
   * name no field path counts as one.
   */
  requestError?: boolean;
}

/** A request refused before GraphQL runs, with its HTTP status. Endpoints may throw it too. */
export class RequestError extends Error {
  constructor(
    readonly status: 400 | 404 | 405 | 406 | 410 | 413 | 415,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The error's `extensions` in the response body (e.g. `{ code: 'BAD_USER_INPUT' }`). */
    readonly extensions?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** How one endpoint runs requests; the layer does the HTTP around it. */
export interface GraphQLEndpoint {
  /**
   * The kind of operation a GET would run, so mutations are refused before anything runs;
   * undefined when the document does not say (execution then answers with the proper error).
   */
  operationKind(params: GraphQLRequestParams): OperationTypeNode | undefined;
  execute(params: GraphQLRequestParams, c: Context): Promise<GraphQLHttpResult>;
  /** The GraphiQL page for a browser's GET without a query; none when undefined. */
  graphiql?: (urls: { endpoint: string; assetsPath: string }) => string;
}

export interface GraphQLHttpOptions {
  /** Where the endpoint lives; GraphiQL assets are served under `<path>/assets/`. */
  path: string;
  /**
   * Send `"errors": null` in application/json results without errors (default true: the
   * response shape of spec 4.1). GraphQL itself says the entry must then be absent, and the
   * graphql-http audit checks that; set false to omit it. application/graphql-response+json
   * results always omit it.
   */
  nullErrors?: boolean;
  /** Largest request body in bytes (default 1 MB); larger ones get 413. */
  bodyLimit?: number;
  /** Headers on every response of the endpoint (the compat layer's `Deprecation`, ...). */
  headers?: Record<string, string> | ((c: Context) => Record<string, string>);
  /**
   * Middleware run before the endpoint's routes (GraphQL and GraphiQL): the hook for things
   * such as brownouts or a 410 after a sunset. It may answer itself or call `next()`.
   */
  use?: readonly MiddlewareHandler[];
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

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function jsonParameter(name: string, value: unknown, fromQueryString: boolean): Record<string, unknown> | null {
  if (fromQueryString && typeof value === 'string') {
    if (value === '') return null;
    try {
      value = JSON.parse(value);
    } catch {
      throw new RequestError(400, `'${name}' is not valid JSON`);
    }
  }
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new RequestError(400, `'${name}' must be an object or null`);
  return value;
}

/** The GraphQL parameters of a JSON body or a query string, each checked with an error naming it. */
export function readParams(raw: Record<string, unknown>, fromQueryString: boolean): GraphQLRequestParams {
  const { query, operationName } = raw;
  const extensions = jsonParameter('extensions', raw.extensions, fromQueryString);
  const documentId = raw.documentId ?? raw.doc_id;
  if (documentId !== undefined && documentId !== null && (typeof documentId !== 'string' || documentId === '')) {
    throw new RequestError(400, `'${raw.documentId !== undefined ? 'documentId' : 'doc_id'}' must be a non-empty string`);
  }
  if (query !== undefined && query !== null && typeof query !== 'string') throw new RequestError(400, "The request needs a 'query' string");
  if ((typeof query !== 'string' || query.trim() === '') && !extensions && typeof documentId !== 'string') {
    throw new RequestError(400, "The request needs a 'query' string");
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw new RequestError(400, "'operationName' must be a string or null");
  }
  return {
    query: typeof query === 'string' && query.trim() !== '' ? query : undefined,
    variables: jsonParameter('variables', raw.variables, fromQueryString),
    operationName: operationName || null,
    extensions,
    documentId: typeof documentId === 'string' ? documentId : null,
  };
}

async function postParams(c: Context): Promise<GraphQLRequestParams> {
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
  return readParams(body, false);
}

/** A result without data whose errors point at no field failed before execution. */
const failedBeforeExecution = (result: GraphQLHttpResult) =>
  result.requestError ?? ((result.data === undefined || result.data === null) && !!result.errors?.length && result.errors.every((e) => !e.path));

/** Mount one GraphQL endpoint (POST, GET, GraphiQL and its assets) on `app`. */
export function mountGraphQL(app: Hono, endpoint: GraphQLEndpoint, options: GraphQLHttpOptions): Hono {
  const path = options.path.replace(/\/$/, '') || '/';
  const base = path === '/' ? '' : path;
  const extraHeaders = options.headers;
  const headersOf = (c: Context) => (typeof extraHeaders === 'function' ? extraHeaders(c) : (extraHeaders ?? {}));
  const maxSize = options.bodyLimit ?? DEFAULT_BODY_LIMIT;

  const respond = (c: Context, type: string, status: number, body: unknown, headers: Record<string, string> = {}) =>
    c.body(JSON.stringify(body), status as 200, { ...headersOf(c), 'content-type': `${type}; charset=utf-8`, ...headers });

  const refuse = (c: Context, type: string, error: RequestError) => {
    const errors = [error.extensions ? { message: error.message, extensions: error.extensions } : { message: error.message }];
    // application/json clients get the `{ data, errors }` shape; GraphQL-over-HTTP says a request
    // that never reached execution has no `data` entry in application/graphql-response+json.
    return respond(c, type, error.status, type === JSON_TYPE ? { data: null, errors } : { errors }, error.headers);
  };

  const answer = (c: Context, type: string, result: GraphQLHttpResult) => {
    const { requestError: _, ...body } = result;
    if (type === GRAPHQL_RESPONSE_TYPE) {
      if (failedBeforeExecution(result)) return respond(c, type, 400, { errors: body.errors, ...(body.extensions ? { extensions: body.extensions } : {}) });
      const { errors, ...rest } = body;
      return respond(c, type, 200, errors?.length ? body : rest);
    }
    const out: Record<string, unknown> = { data: body.data ?? null };
    if (body.errors?.length) out.errors = body.errors;
    else if (options.nullErrors !== false) out.errors = null;
    if (body.extensions) out.extensions = body.extensions;
    return respond(c, type, 200, out);
  };

  const run = async (c: Context, method: 'GET' | 'POST', read: () => Promise<GraphQLRequestParams> | GraphQLRequestParams) => {
    const type = negotiate(c);
    if (!type) return refuse(c, JSON_TYPE, new RequestError(406, `Accept ${JSON_TYPE} or ${GRAPHQL_RESPONSE_TYPE}`));
    try {
      const params = await read();
      if (method === 'GET') {
        const kind = endpoint.operationKind(params);
        if (kind !== undefined && kind !== 'query') {
          throw new RequestError(405, `GET requests may only run queries, not ${kind}s; use POST`, { allow: 'POST' });
        }
      }
      return answer(c, type, await endpoint.execute(params, c));
    } catch (error) {
      if (error instanceof RequestError) return refuse(c, type, error);
      throw error;
    }
  };

  for (const middleware of options.use ?? []) app.use(path, middleware);
  if (endpoint.graphiql) app.get(`${base}/assets/:file`, assetRoute);

  app.post(
    path,
    bodyLimit({
      maxSize,
      onError: (c) => refuse(c, negotiate(c) ?? JSON_TYPE, new RequestError(413, `The request body is larger than ${maxSize} bytes`)),
    }),
    (c) => run(c, 'POST', () => postParams(c)),
  );

  app.get(path, (c) => {
    const query = c.req.query();
    if (query.query === undefined && query.extensions === undefined && endpoint.graphiql && acceptedTypes(c).includes('text/html')) {
      return c.html(endpoint.graphiql({ endpoint: path, assetsPath: `${base}/assets` }), 200, headersOf(c));
    }
    return run(c, 'GET', () => readParams(query, true));
  });

  app.on(['PUT', 'PATCH', 'DELETE'], path, (c) =>
    refuse(c, JSON_TYPE, new RequestError(405, 'Use GET for queries or POST', { allow: 'GET, POST' })),
  );
  return app;
}
