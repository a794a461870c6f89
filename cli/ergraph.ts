/**
 * `ergraph`: the command line. `main` returns the exit code instead of exiting, so tests can
 * drive it in-process.
 *
 *   ergraph serve --app <module> [--port --host]  GraphQL (+ GraphiQL) per app and MCP at /mcp [--v5-compat: /graphql/v5 too]
 *   ergraph mcp --app <module> [--http]           MCP over stdio (what agents spawn) or HTTP [--operations ops.graphql]
 *   ergraph demo [--port --host]                  the demo service of examples/demo
 *   ergraph doctor [--app <module>]               checklist of the setup (exit 1 on problems)
 *   ergraph schema print --app <module> [--v5]    SDL of the v6 schema (or the v5 flat one)
 *   ergraph schema diff <old> <new> [--usage db]  breaking/dangerous/safe changes (exit 1 on breaking)
 *   ergraph compat report --database <url>        the v5 retirement verdict from the usage store
 *   ergraph compat kit --client <name>            one client's migration kit from the operation catalog
 *   ergraph er --app <module> [--format mermaid|dot|json|svg]  the ER picture of an app
 *
 * Exit codes: 0 done · 1 errors · 2 usage.
 */
import yargs from 'yargs';
import { runCommand } from '../src/cli-kit/finish.js';
import { isUsageError, reportUsageError } from '../src/cli-kit/usage.js';
import { packageVersion } from '../src/peers/version.js';
import { defaultIO, EXIT, UsageError, type CliIO } from './io.js';
import { CliError } from './load-apps.js';

export { EXIT, type CliIO } from './io.js';

const appOption = { type: 'string', demandOption: true, describe: 'module exporting `apps` = [{ name, handler, description }] (or a default export of them), or GraphQLHandlers or ErDiagrams' } as const;
const mutationsOption = { type: 'boolean', default: false, describe: 'MCP also offers graphql_mutation (agents may change data)' } as const;
const allowedHostOption = { type: 'string', array: true, describe: 'hostname MCP clients may reach the server by (Host check against DNS rebinding; loopback names always)' } as const;
const v5CompatOption = { type: 'boolean', default: false, describe: 'MCP also answers v5-shaped calls (get_query_schema({ name }), list format v5)' } as const;

/** What bin/ergraph.js runs: `main`, and the process ends once its output is written. */
export const run = (argv: readonly string[]) => runCommand(main, argv);

export async function main(argv: readonly string[], io: CliIO = defaultIO): Promise<number> {
  // Alone, as `node --version` and npm's own: the version on stdout, exit 0 (yargs would print it
  // outside `io` and then ask for a command).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return io.stdout.write(`${packageVersion(import.meta.url)}\n`), EXIT.ok;
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
          .option('v5-compat', { type: 'boolean', default: false, describe: 'serve v5 clients too: the compat endpoint (the flat v5 schema) at /graphql/v5 beside each /graphql, and v5-shaped MCP calls' })
          .option('mutations', mutationsOption)
          .option('allowed-host', allowedHostOption),
      async (a) => {
        const { serveCommand } = await import('./serve.js');
        await serveCommand({ app: a.app, host: a.host, port: a.port, v5Compat: a.v5Compat, mutations: a.mutations, allowedHosts: a.allowedHost ?? [] }, io);
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
          .option('v5-compat', v5CompatOption)
          .option('mutations', mutationsOption)
          .option('allowed-host', allowedHostOption)
          .option('operations', { type: 'string', describe: 'a .graphql document or .json persisted query list: one tool per named operation, its variables as input' })
          .option('operations-app', { type: 'string', describe: 'the app the operations run against, when the module exports several' }),
      async (a) => {
        const { mcpCommand } = await import('./mcp.js');
        const { app, http, host, port, path, v5Compat, mutations, operations, operationsApp } = a;
        await mcpCommand({ app, http, host, port, path, v5Compat, mutations, operations, operationsApp, allowedHosts: a.allowedHost ?? [] }, io);
      },
    )
    .command(
      'demo',
      'run the demo service (examples/demo: embedded database, or DATABASE_URL)',
      (y) =>
        y
          .option('port', { type: 'number', describe: 'port (default: PORT or 4000)' })
          .option('host', { type: 'string', describe: 'address to listen on (default 127.0.0.1)' }),
      async (a) => {
        const { demoCommand } = await import('./demo.js');
        code = await demoCommand({ port: a.port, host: a.host }, io);
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
    .command('schema', 'print the schema, or diff two schemas (breaking, dangerous, safe)', (y) =>
      y
        .command(
          'print',
          "print the SDL of an app's v6 schema, or with --v5 of the v5 flat schema the compat layer serves",
          (z) =>
            z
              .option('app', appOption)
              .option('name', { type: 'string', describe: 'which app, when the module exports several' })
              .option('v5', { type: 'boolean', default: false, describe: 'the v5 flat schema instead of the v6 one' }),
          async (a) => {
            const { schemaPrintCommand } = await import('./schema.js');
            code = await schemaPrintCommand({ app: a.app, name: a.name, v5: a.v5 }, io);
          },
        )
        .command(
          'diff <old> <new>',
          'classify the changes from <old> to <new> (SDL file, introspection JSON or URL) with GraphQL Inspector; exit 1 on a breaking change',
          (z) =>
            z
              .positional('old', { type: 'string', demandOption: true, describe: 'SDL file, introspection JSON file, or http(s) URL' })
              .positional('new', { type: 'string', demandOption: true, describe: 'SDL file, introspection JSON file, or http(s) URL' })
              .option('usage', { type: 'string', describe: 'usage database (postgres://…, pglite:<dir>): a breaking change on a field unused for --days becomes dangerous' })
              .option('days', { type: 'number', default: 30, describe: 'the usage window in days' })
              .option('format', { choices: ['text', 'json'] as const, default: 'text' as const })
              .option('timeout', { type: 'number', default: 10_000, describe: 'ms to wait for a URL or the usage database' }),
          async (a) => {
            const { schemaDiffCommand } = await import('./schema.js');
            code = await schemaDiffCommand({ old: a.old, new: a.new, usage: a.usage, days: a.days, format: a.format, timeout: a.timeout }, io);
          },
        )
        .demandCommand(1, 'give a schema command: print or diff'),
    )
    .command('compat', 'the v5 compat layer: its retirement report, and a migration kit per client', (y) =>
      y
        .command(
          'report',
          'every v5 field and client with last use, trend and v6 replacement, and the verdict: safe to retire, or who still calls',
          (z) =>
            z
              .option('database', { type: 'string', demandOption: true, describe: 'the usage database: postgres://…, pglite:<dir>' })
              .option('days', { type: 'number', default: 30, describe: 'the window in days' })
              .option('format', { choices: ['md', 'json'] as const, default: 'md' as const }),
          async (a) => {
            const { compatReportCommand } = await import('./compat.js');
            code = await compatReportCommand({ database: a.database, days: a.days, format: a.format }, io);
          },
        )
        .command(
          'kit',
          "one client's migration kit: each operation it sent, its v6 text, the response paths that move, the shadow verdict, the v6 id of a persisted one",
          (z) =>
            z
              .option('client', { type: 'string', demandOption: true, describe: 'the client, as it sends x-client-name (see compat report)' })
              .option('database', { type: 'string', describe: 'the usage database: postgres://…, pglite:<dir> (default: DATABASE_URL)' })
              .option('format', { choices: ['md', 'json'] as const, default: 'md' as const }),
          async (a) => {
            const { compatKitCommand } = await import('./compat.js');
            code = await compatKitCommand({ client: a.client, database: a.database, format: a.format }, io);
          },
        )
        .demandCommand(1, 'give a compat command: report or kit'),
    )
    .command(
      'er',
      "print an app's ER picture: entities, fields, relationships (fk, cardinality), root operations, use-case services, federation members",
      (y) =>
        y
          .option('app', appOption)
          .option('name', { type: 'string', describe: 'which app, when the module exports several' })
          .option('format', { choices: ['mermaid', 'dot', 'json', 'svg'] as const, default: 'mermaid' as const, describe: 'Mermaid erDiagram, Graphviz DOT, the JSON model, or the SVG drawing of the /er page' }),
      async (a) => {
        const { erCommand } = await import('./er.js');
        code = await erCommand({ app: a.app, name: a.name, format: a.format }, io);
      },
    )
    .demandCommand(1, 'give a command')
    .strict()
    .help()
    .version(packageVersion(import.meta.url))
    .alias('version', 'v')
    .exitProcess(false)
    .epilogue('Exit codes: 0 done, 1 errors (doctor: problems found), 2 usage.')
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (isUsageError(error)) return reportUsageError('ergraph', error, io.stderr);
    const message = error instanceof CliError || error instanceof Error ? error.message : String(error);
    io.stderr.write(`ergraph: ${message}\n`);
    return EXIT.errors;
  }
  return code;
}
