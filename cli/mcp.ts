/** `ergraph mcp --app <module> [--http] [--v5-compat] [--operations <file>]`: MCP tools over a module's apps. */
import { resolve } from 'node:path';
import { loadApps } from './load-apps.js';
import { stopSignal, type CliIO, type RunOptions } from './io.js';
import type { ServedApp, ServerLimits } from '../src/http/serve.js';

export interface McpArgs {
  app: string;
  http: boolean;
  host: string;
  port: number;
  path: string;
  v5Compat: boolean;
  mutations: boolean;
  /** A `.graphql` document or `.json` persisted list: one tool per operation (paths relative to the cwd). */
  operations?: string;
  /** The app the operations run against, when the module has several. */
  operationsApp?: string;
  /** Hostnames besides the loopback ones that clients may use (the Host check against DNS rebinding). */
  allowedHosts: readonly string[];
}

async function mcpServer(args: McpArgs, io: CliIO) {
  const apps = await loadApps(args.app, io.cwd);
  const mcp = await import('../src/mcp/index.js');
  // The v5 knowledge is compat's: loaded only when asked for (the v6 engine never imports it).
  const v5Compat = args.v5Compat ? (await import('../compat/mcp.js')).v5McpCompat() : undefined;
  const operations = args.operations === undefined ? undefined : resolve(io.cwd, args.operations);
  const server = mcp.createMcpServer({ apps, v5Compat, mutations: args.mutations, operations, operationsApp: args.operationsApp });
  return { apps, server, mcp };
}

/** `--http`: listens with the package's server limits (`limits` only for tests; the command runs with the defaults). */
export async function startMcpHttp(args: McpArgs, io: CliIO, limits: ServerLimits = {}): Promise<ServedApp> {
  const { apps, server, mcp } = await mcpServer(args, io);
  const { serveApp } = await import('../src/http/serve.js');
  const app = mcp.mcpApp(server, { path: args.path, allowedHosts: [...mcp.LOOPBACK_HOSTS, ...args.allowedHosts] });
  const listening = await serveApp(app, { ...limits, hostname: args.host, port: args.port });
  io.stderr.write(`ergraph mcp: ${apps.map((a) => a.name).join(', ')} at http://${args.host}:${listening.port}${args.path}\n`);
  return listening;
}

export async function mcpCommand(args: McpArgs, io: CliIO, options: RunOptions = {}): Promise<void> {
  if (!args.http) {
    const { server, mcp } = await mcpServer(args, io);
    // Stdout is the protocol channel now; anything the app logs goes to stderr.
    console.log = console.info = console.debug = console.error;
    await mcp.serveStdio(server);
    return;
  }
  const listening = await startMcpHttp(args, io, options.limits);
  await (options.stopped ?? stopSignal)(listening);
  // Bounded: idle keep-alive connections close at once, requests in flight get shutdownTimeoutMs.
  await listening.close();
}
