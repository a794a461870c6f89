/** `ergraph mcp --app <module> [--http] [--v5-compat] [--operations <file>]`: MCP tools over a module's apps. */
import { resolve } from 'node:path';
import { loadApps } from './load-apps.js';
import { stopSignal, type CliIO } from './io.js';

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

export async function mcpCommand(args: McpArgs, io: CliIO): Promise<void> {
  const apps = await loadApps(args.app, io.cwd);
  const { createMcpServer, mcpApp, serveStdio, LOOPBACK_HOSTS } = await import('../mcp/index.js');
  // The v5 knowledge is compat's: loaded only when asked for (the v6 engine never imports it).
  const v5Compat = args.v5Compat ? (await import('../../compat/mcp.js')).v5McpCompat() : undefined;
  const operations = args.operations === undefined ? undefined : resolve(io.cwd, args.operations);
  const server = createMcpServer({ apps, v5Compat, mutations: args.mutations, operations, operationsApp: args.operationsApp });
  if (!args.http) {
    // Stdout is the protocol channel now; anything the app logs goes to stderr.
    console.log = console.info = console.debug = console.error;
    await serveStdio(server);
    return;
  }
  const { serveApp } = await import('../http/serve.js');
  const app = mcpApp(server, { path: args.path, allowedHosts: [...LOOPBACK_HOSTS, ...args.allowedHosts] });
  const listening = await serveApp(app, { hostname: args.host, port: args.port });
  io.stderr.write(`ergraph mcp: ${apps.map((a) => a.name).join(', ')} at http://${args.host}:${listening.port}${args.path}\n`);
  await stopSignal();
  await listening.close();
}
