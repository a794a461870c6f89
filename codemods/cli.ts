/**
 * `ergraph-migrate`: the command line over `runMigration`. `main` returns the exit code instead
 * of exiting so tests (and other tools) can drive it in-process.
 *
 * Exit codes: 0 done · 1 errors (unparsable files, a write the git guard refuses, I/O) · 2 usage ·
 * 3 manual work left and `--fail-on-manual` given, or v5 documents left because no v6 schema was found ·
 * 4 `verify` found an operation whose v6 answer differs from its v5 one · 5 `verify` did not run
 * every operation it found, or found none · 130/143 stopped by SIGINT/SIGTERM while writing
 * (docs/migration.md lists every option and code).
 *
 * `--help`, `list` and `--version` (`-v`) given alone answer from the steps' metadata and the table below,
 * without yargs (its help layout measures every word: cli-help.ts); everything else, usage errors
 * included, is parsed by yargs, loaded then, and none of it loads TypeScript's parser (issue 31.3;
 * test/codemods/cli-start.test.ts). Commands that touch files load cli-run.ts, and through it the
 * steps they run.
 */
import type { Argv } from 'yargs';
import { runCommand } from '../src/cli-kit/finish.js';
import { processIO, type CommandIO } from '../src/cli-kit/io.js';
import { isUsageError, reportUsageError, UsageError } from '../src/cli-kit/usage.js';
import { packageVersion } from '../src/peers/version.js';
import { catalog, type CatalogEntry } from './catalog.js';
import { renderHelp, type HelpOption, type HelpSpec } from './cli-help.js';
import type { RunArgs } from './cli-run.js';
import { EXIT } from './exit.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './verify/endpoint.js';
import { KNOWN_VERSIONS, knownVersion } from './versions.js';

export { EXIT } from './exit.js';

export type CliIO = CommandIO;

const runner = () => import('./cli-run.js');

const SCRIPT = 'ergraph-migrate';

/** The options every command takes: declared to yargs, and what `--help` lists. */
const OPTIONS = {
  'dry-run': { type: 'boolean', default: false, describe: 'write nothing; print a unified diff per file and a summary' },
  report: { type: 'string', describe: 'write a report to <file.json|file.md>' },
  force: { type: 'boolean', default: false, describe: 'write even over files with uncommitted changes, or outside a git repository' },
  ignore: { type: 'string', array: true, default: [], describe: "glob of paths to skip (picomatch), repeatable; .gitignore'd files are always skipped" },
  'follow-hardlinks': { type: 'boolean', default: false, describe: 'write a file with other hard links as a new file (breaking the link); without it such files are reported, not written' },
  since: { type: 'string', describe: 'migrate only files changed since this git ref (all files are still read for cross-file facts)' },
  workers: { type: 'number', describe: 'worker threads (default: only for large trees on machines with 10+ cores; 0 = none)' },
  'fail-on-manual': { type: 'boolean', default: false, describe: 'exit 3 when manual work is left' },
  schema: { type: 'string', describe: 'v5-to-v6: the v6 schema (SDL file, introspection JSON or URL); else GraphQL Config, --app, or the ER graph in the paths' },
  app: { type: 'string', describe: 'v5-to-v6: module exporting your ER diagram, baseEntity() family or GraphQLHandler' },
  'load-app': {
    type: 'boolean',
    default: false,
    describe: "v5-to-v6 --dry-run: load the project's code (GraphQL Config as code, --app, the ER graph) to find the v6 schema; a dry run runs none of it otherwise",
  },
  'keep-response-keys': {
    type: 'boolean',
    default: true,
    describe: 'v5-to-v6: alias each moved field with its v5 response key (--no-keep-response-keys: the key becomes the method name)',
  },
} as const satisfies Record<string, HelpOption>;

const VERIFY_OPTIONS = {
  url: { type: 'string', describe: 'a running server: v5 at <url>/graphql/v5, v6 at <url>/graphql (instead of --app)' },
  mutations: { type: 'boolean', default: false, describe: 'run mutations too (twice each), only with --target-env' },
  'target-env': { type: 'string', describe: 'the non-production environment --mutations may change (a --url host that does not look like a test host must be named here)' },
  variables: { type: 'string', describe: 'JSON file of operation name → variables, for operations with required variables' },
  base: { type: 'string', describe: "on a migrated tree: the git ref before the migration; its v5 documents are paired with the work tree's migrated ones" },
  'max-response-bytes': { type: 'number', describe: `--url: the largest answer read, in bytes (default ${DEFAULT_MAX_RESPONSE_BYTES}, ${DEFAULT_MAX_RESPONSE_BYTES / 2 ** 20} MiB); a larger one is not read and its operation is not run` },
} as const satisfies Record<string, HelpOption>;

const UPGRADE_OPTIONS = {
  from: { type: 'string', describe: `version the code is at (${KNOWN_VERSIONS.slice(0, -1).join(', ')}); default: detected from the code and the installed package` },
  to: { type: 'string', demandOption: true, describe: `version to reach (${KNOWN_VERSIONS.slice(1).join(', ')})` },
  'commit-per-step': { type: 'boolean', default: false, describe: 'one git commit per step (the files each step writes must have no uncommitted changes)' },
} as const satisfies Record<string, HelpOption>;

/** The top level as `--help` shows it; yargs is given the same usage, commands and options. */
const HELP: HelpSpec = {
  usage: '$0 <transform> <paths...>\n$0 upgrade [--from <version>] --to <version> <paths...>\n$0 verify (--app <module> | --url <base>) <paths...>\n$0 list',
  commands: [
    { command: 'list', describe: 'list the transforms' },
    { command: 'verify [paths..]', describe: 'run each v5 document through compat and its migrated form through v6, and compare the answers' },
    { command: 'upgrade [paths..]', describe: 'run every transform between two versions, in order' },
    ...catalog.map((t) => ({ command: `${t.name} <paths..>`, describe: `${t.from} → ${t.to}: ${t.description}` })),
  ],
  options: OPTIONS,
  epilogue: 'Exit codes: 0 done, 1 errors, 2 usage, 3 manual work left (--fail-on-manual) or v5 documents pending a v6 schema, 4 verify: an operation differs, 5 verify: an operation was not run (or none was), 130/143 stopped by SIGINT/SIGTERM while writing (the file being written finished, the report written).',
};
const describeOf = (command: string) => HELP.commands.find((c) => c.command === command)!.describe;

/** `--help` without yargs, as wide as yargs would make it: the terminal's width, at most 80. */
export function helpText(io: CliIO = processIO()): string {
  const columns = (io.stdout as { columns?: number }).columns;
  return renderHelp(HELP, SCRIPT, columns ? Math.min(80, columns) : 80);
}

function listing(): string {
  const width = Math.max(...catalog.map((t) => t.name.length));
  return catalog.map((t) => `${t.name.padEnd(width)}  ${t.from} → ${t.to}  ${t.description}\n`).join('');
}

/**
 * The help yargs itself gives for the declarations main parses with, one row a line (unwrapped):
 * what `helpText` must say, word for word (test/codemods/cli-start.test.ts).
 */
export async function yargsHelp(): Promise<string> {
  return (await parserFor([], processIO(), () => {})).wrap(null).getHelp();
}

/** What bin/ergraph-migrate.js runs: `main`, and the process ends once its output is written. */
export const run = (argv: readonly string[]) => runCommand(main, argv);

export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  // The commands of issue 31.3 that need no parser: exactly these words, nothing else given.
  if (argv.length === 1 && argv[0] === '--help') return io.stdout.write(`${helpText(io)}\n`), EXIT.ok;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return io.stdout.write(`${packageVersion(import.meta.url)}\n`), EXIT.ok;
  if (argv.length === 1 && argv[0] === 'list') return io.stdout.write(listing()), EXIT.ok;
  let code: number = EXIT.ok;
  const parser = await parserFor(argv, io, (c) => (code = c));
  try {
    await parser.parseAsync();
  } catch (error) {
    if (isUsageError(error)) return reportUsageError(SCRIPT, error, io.stderr);
    if (!(error instanceof Error)) return reportUsageError(SCRIPT, new UsageError(String(error)), io.stderr);
    // Bad input (a schema that does not load, an --app module that throws): one line, nothing written.
    io.stderr.write(`${SCRIPT}: ${error.name === 'SchemaLoadError' ? error.message : error.message.split('\n')[0]}\n`);
    return EXIT.errors;
  }
  return code;
}

async function parserFor(argv: readonly string[], io: CliIO, setCode: (code: number) => void): Promise<Argv> {
  const { default: yargs } = await import('yargs');
  const argsOf = (a: Record<string, unknown>): RunArgs => ({
    paths: ((a.paths as (string | number)[] | undefined) ?? []).map(String),
    dryRun: Boolean(a.dryRun),
    report: a.report as string | undefined,
    force: Boolean(a.force),
    ignore: ((a.ignore as (string | number)[] | undefined) ?? []).map(String),
    workers: a.workers as number | undefined,
    failOnManual: Boolean(a.failOnManual),
    schema: a.schema as string | undefined,
    app: a.app as string | undefined,
    since: a.since as string | undefined,
    keepResponseKeys: a.keepResponseKeys !== false,
    commitPerStep: Boolean(a.commitPerStep),
    followHardlinks: Boolean(a.followHardlinks),
    loadApp: Boolean(a.loadApp),
  });
  const parser = yargs([...argv])
    .scriptName(SCRIPT)
    .usage(HELP.usage)
    .options(OPTIONS)
    .command('list', describeOf('list'), {}, () => {
      io.stdout.write(listing());
    })
    .command(
      'verify [paths..]',
      describeOf('verify [paths..]'),
      (y) => y.options(VERIFY_OPTIONS),
      async (a) => {
        // Options of the migration that mean nothing to a run that writes nothing and loads the
        // app it is given: refused, not ignored, so nobody believes e.g. --schema was used.
        const given = { schema: a.schema !== undefined, 'dry-run': a.dryRun === true, force: a.force === true, 'follow-hardlinks': a.followHardlinks === true, since: a.since !== undefined, workers: a.workers !== undefined, 'fail-on-manual': a.failOnManual === true, 'load-app': a.loadApp === true };
        const stray = Object.entries(given).filter(([, on]) => on).map(([name]) => `--${name}`);
        if (stray.length) throw new UsageError(`verify writes nothing and loads only --app or --url: ${stray.join(', ')} ${stray.length === 1 ? 'does' : 'do'} not apply`);
        const { verify } = await import('./verify/index.js');
        setCode(await verify(
          {
            paths: ((a.paths as (string | number)[] | undefined) ?? []).map(String),
            ignore: ((a.ignore as (string | number)[] | undefined) ?? []).map(String),
            app: a.app as string | undefined,
            url: a.url as string | undefined,
            mutations: Boolean(a.mutations),
            targetEnv: a.targetEnv as string | undefined,
            variables: a.variables as string | undefined,
            report: a.report as string | undefined,
            base: a.base as string | undefined,
            keepResponseKeys: a.keepResponseKeys !== false,
            maxResponseBytes: a.maxResponseBytes as number | undefined,
          },
          io,
        ));
      },
    )
    .command(
      'upgrade [paths..]',
      describeOf('upgrade [paths..]'),
      (y) => y.options(UPGRADE_OPTIONS),
      async (a) => {
        const args = argsOf(a);
        const to = String(a.to);
        if (!knownVersion(to)) throw new UsageError(`unknown version ${to}: known versions are ${KNOWN_VERSIONS.join(', ')}`);
        if (a.from !== undefined && !knownVersion(String(a.from)))
          throw new UsageError(`unknown version ${a.from}: known versions are ${KNOWN_VERSIONS.join(', ')}`);
        if (args.paths.length === 0) throw new UsageError('no paths given');
        const run = await runner();
        let steps: CatalogEntry[];
        try {
          steps = run.upgradeSteps(knownVersion(to)!, a.from === undefined ? undefined : knownVersion(String(a.from))!, args, io, catalog);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        if (steps.length === 0) throw new UsageError(`no transform between ${a.from ?? 'the detected version'} and ${to}`);
        io.stdout.write(`steps: ${steps.map((t) => t.name).join(' → ')}\n`);
        setCode(await run.execute(steps, args, io));
      },
    );
  for (const t of catalog)
    parser.command(`${t.name} <paths..>`, describeOf(`${t.name} <paths..>`), {}, async (a) => {
      setCode(await (await runner()).executeOne(t, argsOf(a), io, catalog));
    });
  return parser
    .demandCommand(1, 'give a transform, upgrade or list')
    .strict()
    .help()
    .version(packageVersion(import.meta.url))
    .alias('version', 'v')
    .exitProcess(false)
    .epilogue(HELP.epilogue)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
}
