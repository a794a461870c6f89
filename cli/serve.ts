/**
 * `ergraph serve --app <module>`: every app of a module over HTTP — its GraphQL endpoint and
 * GraphiQL (`/graphql` for one app, `/<name>/graphql` for several) — and MCP over Streamable HTTP
 * at `/mcp`, in one Hono app on one port. `--v5-compat` serves v5 clients too: the compat
 * endpoint beside each one (`/graphql/v5`, as the docs mount it) and v5-shaped MCP calls.
 */
import { Hono, type Context } from 'hono';
import type { GraphQLHandler } from '../src/graphql/handler.js';
import { graphqlApp, serveApp, type ServedApp as ListeningApp, type ServerLimits } from '../src/http/index.js';
import { erPathFor } from '../src/http/graphql-app.js';
import type { PictureServices } from '../src/picture/index.js';
import type { McpApp } from '../src/mcp/apps.js';
import { createMcpServer, LOOPBACK_HOSTS, mcpApp, type V5Compat } from '../src/mcp/index.js';
import { CliError, loadAppModule, servicesIn } from './load-apps.js';
import { guardExportedPools } from './pools.js';
import { serveIndex } from './serve-index.js';
import { stopSignal, type CliIO, type RunOptions } from './io.js';
import type { CompatHandler } from '../compat/handler.js';

export interface ServeArgs {
  app: string;
  host: string;
  port: number;
  v5Compat: boolean;
  mutations: boolean;
  /** Hostnames besides the loopback ones that MCP clients may use (the Host check against DNS rebinding). */
  allowedHosts: readonly string[];
}

export interface ServedApp {
  name: string;
  graphql: string;
  /** The v5 compat endpoint (`<graphql>/v5`), with `--v5-compat`. */
  v5?: string;
  /** The ER picture page beside the endpoint. */
  er: string;
}

// A name becomes a path segment; anything else would be silently re-encoded by clients.
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * graphqlApp needs the full `GraphQLHandler` (it prepares documents and renders GraphiQL); the
 * MCP tools only need `{ schema, execute }`, so an app module can hold handlers that serve MCP
 * but not HTTP. Say which one instead of failing on the first request.
 */
function httpHandlerOf(app: McpApp): GraphQLHandler {
  const handler = app.handler as Partial<GraphQLHandler>;
  if (typeof handler.prepare !== 'function' || typeof handler.getGraphiqlHtml !== 'function') {
    throw new CliError(`app ${app.name}: serve needs a GraphQLHandler from 'ergraph' (its handler has no prepare/getGraphiqlHtml)`);
  }
  return handler as GraphQLHandler;
}

/** Where each app's endpoint goes: `/graphql` alone, `/<name>/graphql` beside others. */
export function graphqlPaths(apps: readonly McpApp[]): ServedApp[] {
  if (apps.length === 1) return [{ name: apps[0]!.name, graphql: '/graphql', er: erPathFor('/graphql') }];
  return apps.map((app) => {
    if (!SEGMENT.test(app.name)) {
      throw new CliError(`app ${JSON.stringify(app.name)}: with several apps each name is a URL segment, so use letters, digits, . _ ~ -`);
    }
    return { name: app.name, graphql: `/${app.name}/graphql`, er: erPathFor(`/${app.name}/graphql`) };
  });
}

/** The compat endpoint over one app's handler at `path` (from `ergraph/compat`, loaded only for `--v5-compat`). */
export type V5Endpoint = (handler: GraphQLHandler, path: string) => Hono;

export interface ServeAppOptions {
  v5Compat?: V5Compat;
  v5Endpoint?: V5Endpoint;
  mutations?: boolean;
  allowedHosts?: readonly string[];
  /** Use-case services drawn on each app's `/er` page (the module's `services` export). */
  services?: PictureServices;
}

export function buildServeApp(apps: readonly McpApp[], options: ServeAppOptions = {}): { app: Hono; served: ServedApp[] } {
  const served = graphqlPaths(apps).map((s) => (options.v5Endpoint ? { ...s, v5: `${s.graphql}/v5` } : s));
  const root = new Hono();
  apps.forEach((app, i) => {
    // Mounted before the v6 endpoint, whose routes (GraphiQL's assets) live under the same path.
    if (options.v5Endpoint) root.route('/', options.v5Endpoint(httpHandlerOf(app), served[i]!.v5!));
    const makeContext = app.context;
    // One context function for both surfaces: it sees the HTTP request either way.
    const context = makeContext && ((c: Context) => makeContext({ transport: 'http', headers: c.req.raw.headers, url: new URL(c.req.url) }));
    const http = { path: served[i]!.graphql, name: app.name, er: { services: options.services }, ...(context ? { context } : {}) };
    root.route('/', graphqlApp(httpHandlerOf(app), http));
  });
  const mcp = createMcpServer({ apps, v5Compat: options.v5Compat, mutations: options.mutations });
  root.route('/', mcpApp(mcp, { path: '/mcp', allowedHosts: [...LOOPBACK_HOSTS, ...(options.allowedHosts ?? [])] }));
  // Where things are: a page of links for a browser, JSON for `curl http://host:port/`.
  root.get('/', (c) => serveIndex(c, served, '/mcp'));
  return { app: root, served };
}

/**
 * Loads the module and listens with the package's server limits (`limits` only for tests: the
 * command itself runs with the documented defaults). A listen error such as EADDRINUSE rejects,
 * reported as the command's error.
 */
export async function startServe(args: ServeArgs, io: CliIO, limits: ServerLimits = {}): Promise<ListeningApp> {
  const { apps, exports } = await loadAppModule(args.app, io.cwd);
  // A lost idle database connection must not end the server (see pools.ts).
  guardExportedPools(exports, (line) => io.stderr.write(line));
  const services = servicesIn(exports.services, args.app);
  // The v5 knowledge is compat's: loaded only when asked for (the v6 engine never imports it).
  const compat = args.v5Compat ? await import('../compat/index.js') : undefined;
  const v5Compat = compat?.v5McpCompat();
  const handlers: CompatHandler[] = [];
  const v5Endpoint: V5Endpoint | undefined =
    compat && ((handler, path) => compat.compatApp(handlers[handlers.push(compat.createCompatHandler(handler)) - 1]!, { path }));
  const { app, served } = buildServeApp(apps, { v5Compat, v5Endpoint, mutations: args.mutations, allowedHosts: args.allowedHosts, services });
  const listening = await serveApp(app, { ...limits, hostname: args.host, port: args.port });
  const base = `http://${args.host}:${listening.port}`;
  for (const s of served) {
    io.stdout.write(`ergraph serve: ${s.name} GraphQL at ${base}${s.graphql} · ER picture at ${base}${s.er}\n`);
    if (s.v5) io.stdout.write(`ergraph serve: ${s.name} v5 GraphQL (compat) at ${base}${s.v5}\n`);
  }
  io.stdout.write(`ergraph serve: MCP at ${base}/mcp\n`);
  if (handlers.length === 0) return listening;
  // The compat handlers' usage recorders flush on a timer: closed with the server (once, as it is).
  let closing: Promise<void> | undefined;
  const close = async () => {
    await listening.close();
    await Promise.all(handlers.map((h) => h.usage.close()));
  };
  return { ...listening, close: () => (closing ??= close()) };
}

export async function serveCommand(args: ServeArgs, io: CliIO, options: RunOptions = {}): Promise<void> {
  const listening = await startServe(args, io, options.limits);
  await (options.stopped ?? stopSignal)(listening);
  // Bounded: idle keep-alive connections close at once, requests in flight get shutdownTimeoutMs.
  await listening.close();
}
