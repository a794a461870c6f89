/**
 * `ergraph`: the command line. `main` returns the exit code instead of exiting, so tests can
 * drive it in-process.
 *
 *   ergraph mcp --app <module>                 MCP over stdio (what agents spawn)
 *   ergraph mcp --app <module> --http [--port]  MCP over Streamable HTTP
 *   ergraph mcp ... --v5-compat                 also answer v5-shaped MCP calls
 *
 * Exit codes: 0 done · 1 errors · 2 usage.
 */
import yargs from 'yargs';
import { CliError, loadApps } from './load-apps.js';

export const EXIT = { ok: 0, errors: 1, usage: 2 } as const;

export interface CliIO {
  cwd: string;
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

const defaultIO: CliIO = { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };

class UsageError extends Error {}

interface McpArgs {
  app: string;
  http: boolean;
  host: string;
  port: number;
  path: string;
  v5Compat: boolean;
}

/** Resolves when the process is asked to stop. */
const stopSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

async function mcpCommand(args: McpArgs, io: CliIO): Promise<void> {
  const apps = await loadApps(args.app, io.cwd);
  const { createMcpServer, mcpApp, serveStdio } = await import('../mcp/index.js');
  const server = createMcpServer({ apps, v5Compat: args.v5Compat });
  if (!args.http) {
    // Stdout is the protocol channel now; anything the app logs goes to stderr.
    console.log = console.info = console.debug = console.error;
    await serveStdio(server);
    return;
  }
  const { serve } = await import('@hono/node-server');
  const app = mcpApp(server, { path: args.path });
  const listening = serve({ fetch: app.fetch, hostname: args.host, port: args.port }, (info) => {
    io.stderr.write(`ergraph mcp: ${apps.map((a) => a.name).join(', ')} at http://${args.host}:${info.port}${args.path}\n`);
  });
  await stopSignal();
  await new Promise<void>((resolve) => listening.close(() => resolve()));
}

export async function main(argv: readonly string[], io: CliIO = defaultIO): Promise<number> {
  const parser = yargs([...argv])
    .scriptName('ergraph')
    .command(
      'mcp',
      'serve MCP tools over the GraphQL apps a module exports',
      (y) =>
        y
          .option('app', { type: 'string', demandOption: true, describe: 'module exporting `apps` (or a default export of them)' })
          .option('http', { type: 'boolean', default: false, describe: 'serve Streamable HTTP instead of stdio' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'HTTP host' })
          .option('port', { type: 'number', default: 8765, describe: 'HTTP port (0 picks a free one)' })
          .option('path', { type: 'string', default: '/mcp', describe: 'HTTP path of the endpoint' })
          .option('v5-compat', { type: 'boolean', default: false, describe: 'also answer v5-shaped calls (get_query_schema({ name }), list format v5)' }),
      (a) => mcpCommand({ app: a.app, http: a.http, host: a.host, port: a.port, path: a.path, v5Compat: a.v5Compat }, io),
    )
    .demandCommand(1, 'give a command')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && error.name === 'YError')) {
      io.stderr.write(`ergraph: ${error.message}\nRun ergraph --help for usage.\n`);
      return EXIT.usage;
    }
    const message = error instanceof CliError || error instanceof Error ? error.message : String(error);
    io.stderr.write(`ergraph: ${message}\n`);
    return EXIT.errors;
  }
  return EXIT.ok;
}
