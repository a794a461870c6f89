/**
 * `compatApp`: the v5 endpoint over HTTP, announcing its own retirement. Every GraphQL response
 * carries `Deprecation` (RFC 9745) and, when configured, `Sunset` (RFC 8594) and a `Link` to the
 * migration guide; the body's `extensions.deprecations` names the v6 replacement of each v5
 * field the request used; `GET <path>/usage` reports use per field and per client.
 *
 * The HTTP side is v6's own layer (`src/http/over-http.ts`): POST and GET, content negotiation
 * (`application/graphql-response+json` with 4xx for request errors, `application/json`), the
 * body limit, the error texts, and GraphiQL with locally served assets — it introspects this
 * endpoint and so shows the *old* flat schema. Only how a request runs is compat's.
 */
import { Hono, type Context } from 'hono';
import { graphiqlHtml } from '../src/graphql/graphiql.js';
import { mountGraphQL, RequestError, type GraphQLEndpoint, type GraphQLHttpOptions } from '../src/http/over-http.js';
import type { CompatHandler } from './handler.js';
import { sunsetGate, type SunsetOptions } from './sunset.js';
import { usageRoute, type UsageAccess } from './usage-route.js';

export interface CompatAppOptions extends SunsetOptions, Partial<Omit<GraphQLHttpOptions, 'path' | 'headers'>> {
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
  /** Where the retirement report is served, JSON or a page for browsers (default `<path>/usage`); `false` to not serve it. */
  usagePath?: string | false;
  /**
   * Who may read the retirement report: an operator's page, so by default only a client on this
   * machine (a loopback peer on Node, with no proxy header). Give a function of the request (a
   * token, your auth) to open it to others.
   */
  usageAccess?: UsageAccess;
  /** The per-request context given to v6 methods. */
  context?: (c: Context) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Serve GraphiQL for the v5 schema on a browser's GET without a query (default true); assets under `<path>/assets/`. */
  graphiql?: boolean;
  /** The query GraphiQL opens with when the browser has none stored (a v5 example for newcomers). */
  defaultQuery?: string;
  /** The app's name on the GraphiQL page, beside "v5 compat schema"; the page's saved state is its own either way. */
  name?: string;
}

/**
 * Settles when the HTTP response has been handed to the network: on Node (`@hono/node-server`)
 * when it finished or its connection closed. Elsewhere the response is not observable from here:
 * the turn after the handler returns, when the runtime has the complete response in hand.
 */
function responseSent(c: Context): Promise<void> {
  const outgoing = (c.env as { outgoing?: { once?: (event: string, listener: () => void) => unknown } } | undefined)?.outgoing;
  return new Promise((resolve) => {
    if (typeof outgoing?.once !== 'function') return void (globalThis.setImmediate ?? setTimeout)(() => resolve());
    outgoing.once('finish', resolve);
    outgoing.once('close', resolve);
  });
}

/** The v5 endpoint: compat's handler runs the flat document and names what replaces it. */
export function compatEndpoint(compat: CompatHandler, options: CompatAppOptions = {}): GraphQLEndpoint {
  const clientHeader = options.clientHeader ?? 'x-client-name';
  const queryOf = (query: string | undefined) => {
    if (query === undefined) throw new RequestError(400, "The request needs a 'query' string");
    return query;
  };
  return {
    // The same cached parse (and limits) as execution: a document it cannot read never runs.
    operationKind(params) {
      const resolution = compat.persisted.resolve(params.query, params.extensions, params.documentId);
      // A persisted-query error is answered by `execute`, with its own status.
      return resolution.kind === 'error' ? undefined : compat.operationKind(queryOf(resolution.query), params.operationName);
    },
    async execute(params, c) {
      const context = options.context ? await options.context(c) : undefined;
      // Checked here for the HTTP status, and again by the handler without an await between.
      const resolution = compat.persisted.resolve(params.query, params.extensions, params.documentId);
      if (resolution.kind === 'error') {
        const error = { message: resolution.message, extensions: { code: resolution.code } };
        // A hash that does not match its document is a bad request; "not found" and "not
        // supported" are how Apollo clients learn to send the document: 200, as Apollo Server answers.
        if (resolution.code === 'BAD_USER_INPUT') throw new RequestError(400, resolution.message, {}, error.extensions);
        return { errors: [error], requestError: false };
      }
      queryOf(resolution.query);
      const { response, deprecations } = await compat.executeWithDeprecations(params.query, {
        variables: params.variables ?? undefined,
        operationName: params.operationName,
        context,
        client: c.req.header(clientHeader)?.trim().slice(0, 100) || undefined,
        extensions: params.extensions,
        documentId: params.documentId,
        signal: c.req.raw.signal,
        responded: compat.shadow.enabled ? () => responseSent(c) : undefined,
      });
      return deprecations.length > 0 ? { ...response, extensions: { deprecations } } : response;
    },
    graphiql:
      options.graphiql === false
        ? undefined
        : (urls) =>
            graphiqlHtml({ ...urls, title: 'ergraph v5 compat GraphiQL (deprecated)', defaultQuery: options.defaultQuery, schema: 'v5', app: options.name }),
  };
}

export function compatApp(compat: CompatHandler, options: CompatAppOptions = {}): Hono {
  const path = options.path ?? '/graphql';
  const base = path.replace(/\/$/, '');
  const usagePath = options.usagePath === undefined ? `${base}/usage` : options.usagePath;
  const since = options.deprecatedSince ?? new Date();
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(since.getTime() / 1000)}` };
  if (options.sunset) headers.Sunset = options.sunset.toUTCString();
  if (options.link) headers.Link = `<${options.link}>; rel="deprecation"`;

  const app = new Hono();
  // Registered first: `<path>/usage` must not be taken for a GraphQL route.
  if (usagePath !== false) app.get(usagePath, usageRoute(compat, options.usageAccess ? { access: options.usageAccess } : {}));
  const { nullErrors, bodyLimit } = options;
  // Sunset, brownouts and 410 run before the endpoint, through the shared layer's middleware hook.
  const use = [sunsetGate(compat, options, headers), ...(options.use ?? [])];
  return mountGraphQL(app, compatEndpoint(compat, options), { path, headers, nullErrors, bodyLimit, use });
}
