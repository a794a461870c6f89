/**
 * `ergraph`: the command line. `main` returns the exit code instead of exiting, so tests can
 * drive it in-process.
 *
 *   ergraph serve --app <module> [--port --host]  GraphQL (+ GraphiQL) per app and MCP at /mcp
 *   ergraph mcp --app <module> [--http]           MCP over stdio (what agents spawn) or HTTP
 *   ergraph demo [--port]                         the demo service of examples/demo
 *   ergraph doctor [--app <module>]               checklist of the setup (exit 1 on problems)
 *
 * Exit codes: 0 done · 1 errors · 2 usage.
 */
import yargs from 'yargs';
import { defaultIO, EXIT, UsageError, type CliIO } from './io.js';
import { CliError } from './load-apps.js';

export { EXIT, type CliIO } from './io.js';

const appOption = { type: 'string', demandOption: true, describe: 'module exporting `apps` = [{ name, handler, description }] (or a default export of them)' } as const;
const v5CompatOption = { type: 'boolean', default: false, describe: 'MCP also answers v5-shaped calls (get_query_schema({ name }), list format v5)' } as const;

export async function main(argv: readonly string[], io: CliIO = defaultIO): Promise<number> {
  let code: number = EXIT.ok;
  const parser = yargs([...argv])
    .scriptName('ergraph')
    .usage('$0 <command> [options]')
    .command(
      'serve',
      "serve a module's apps over HTTP: GraphQL and GraphiQL at /graphql (or /<name>/graphql), MCP at /mcp",
      (y) =>
        y
          .option('app', appOption)
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'host to listen on' })
          .option('port', { type: 'number', default: 4000, describe: 'port (0 picks a free one)' })
          .option('v5-compat', v5CompatOption),
      async (a) => {
        const { serveCommand } = await import('./serve.js');
        await serveCommand({ app: a.app, host: a.host, port: a.port, v5Compat: a.v5Compat }, io);
      },
    )
    .command(
      'mcp',
      'serve MCP tools over the GraphQL apps a module exports (stdio, or Streamable HTTP with --http)',
      (y) =>
        y
          .option('app', appOption)
          .option('http', { type: 'boolean', default: false, describe: 'serve Streamable HTTP instead of stdio' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'HTTP host' })
          .option('port', { type: 'number', default: 8765, describe: 'HTTP port (0 picks a free one)' })
          .option('path', { type: 'string', default: '/mcp', describe: 'HTTP path of the endpoint' })
          .option('v5-compat', v5CompatOption),
      async (a) => {
        const { mcpCommand } = await import('./mcp.js');
        await mcpCommand({ app: a.app, http: a.http, host: a.host, port: a.port, path: a.path, v5Compat: a.v5Compat }, io);
      },
    )
    .command(
      'demo',
      'run the demo service (examples/demo: embedded database, or DATABASE_URL)',
      (y) => y.option('port', { type: 'number', describe: 'port (default: PORT or 4000)' }),
      async (a) => {
        const { demoCommand } = await import('./demo.js');
        code = await demoCommand({ port: a.port }, io);
      },
    )
    .command(
      'doctor',
      'check Node, dependencies, a single graphql copy, PostgreSQL, and optionally an app module',
      (y) =>
        y
          .option('app', { type: 'string', describe: 'also check this module’s apps: schema builds and validates, ER diagram validates' })
          .option('timeout', { type: 'number', default: 2000, describe: 'PostgreSQL connect timeout in ms' }),
      async (a) => {
        const { doctorCommand } = await import('./doctor.js');
        code = await doctorCommand({ app: a.app, timeout: a.timeout }, io);
      },
    )
    .demandCommand(1, 'give a command')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .epilogue('Exit codes: 0 done, 1 errors (doctor: problems found), 2 usage.')
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
  return code;
}
