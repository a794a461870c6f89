/**
 * `ergraph serve --app <module>`: every app of a module over HTTP — its GraphQL endpoint and
 * GraphiQL (`/graphql` for one app, `/<name>/graphql` for several) — and MCP over Streamable HTTP
 * at `/mcp`, in one Hono app on one port.
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

export interface ServeAppOptions {
  v5Compat?: V5Compat;
  mutations?: boolean;
  allowedHosts?: readonly string[];
  /** Use-case services drawn on each app's `/er` page (the module's `services` export). */
  services?: PictureServices;
}

export function buildServeApp(apps: readonly McpApp[], options: ServeAppOptions = {}): { app: Hono; served: ServedApp[] } {
  const served = graphqlPaths(apps);
  const root = new Hono();
  apps.forEach((app, i) => {
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
  const v5Compat = args.v5Compat ? (await import('../compat/mcp.js')).v5McpCompat() : undefined;
  const { app, served } = buildServeApp(apps, { v5Compat, mutations: args.mutations, allowedHosts: args.allowedHosts, services });
  const listening = await serveApp(app, { ...limits, hostname: args.host, port: args.port });
  const base = `http://${args.host}:${listening.port}`;
  for (const s of served) io.stdout.write(`ergraph serve: ${s.name} GraphQL at ${base}${s.graphql} · ER picture at ${base}${s.er}\n`);
  io.stdout.write(`ergraph serve: MCP at ${base}/mcp\n`);
  return listening;
}

export async function serveCommand(args: ServeArgs, io: CliIO, options: RunOptions = {}): Promise<void> {
  const listening = await startServe(args, io, options.limits);
  await (options.stopped ?? stopSignal)(listening);
  // Bounded: idle keep-alive connections close at once, requests in flight get shutdownTimeoutMs.
  await listening.close();
}
