/**
 * `ergraph-migrate`: the command line over `runMigration`. `main` returns the exit code instead
 * of exiting so tests (and other tools) can drive it in-process.
 *
 * Exit codes: 0 done · 1 errors (unparsable files, dirty git tree, I/O) · 2 usage ·
 * 3 manual work left and `--fail-on-manual` given, or v5 documents left because no v6 schema was found.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import yargs from 'yargs';
import { EXIT as COMMON_EXIT, processIO, type CommandIO } from '../src/cli-kit/io.js';
import { isUsageError, reportUsageError, UsageError } from '../src/cli-kit/usage.js';
import { detectVersion } from './detect.js';
import { nothingToDo, planUpgrade, readScripts, tooOld, type UpgradePlan } from './plan.js';
import { findTransform, KNOWN_VERSIONS, knownVersion, transforms } from './registry.js';
import { changedSince, commitFiles, dirtyWorkTrees, outsideGit } from './runner/git.js';
import { manifestLine, summaryLine, toJson, toMarkdown, unifiedDiffs } from './runner/report.js';
import { runMigration, type MigrationReport } from './runner/run.js';
import type { Transform, TransformOptions } from './types.js';
import { SchemaLoadError } from './v5-to-v6/schema.js';
import { findV6Schema } from './v5-to-v6/sources.js';

export const EXIT = { ...COMMON_EXIT, manual: 3 } as const;

export type CliIO = CommandIO;

interface RunArgs {
  paths: string[];
  dryRun: boolean;
  report?: string;
  force: boolean;
  ignore: string[];
  workers?: number;
  failOnManual: boolean;
  schema?: string;
  app?: string;
  since?: string;
  keepResponseKeys: boolean;
  commitPerStep: boolean;
}

function progressBar(io: CliIO): ((done: number, total: number, step: string) => void) | undefined {
  if (!io.stdout.isTTY) return undefined;
  return (done, total, step) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    io.stdout.write(`\r${step.padEnd(18)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
    if (done === total) io.stdout.write('\n');
  };
}

function writeReport(path: string, report: MigrationReport, io: CliIO): void {
  const abs = resolve(io.cwd, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, abs.endsWith('.json') ? toJson(report) : toMarkdown(report));
}

function transformOptions(args: RunArgs): TransformOptions {
  const options: TransformOptions = {};
  // Only the non-default is passed, so transforms see exactly what the user asked for.
  if (!args.keepResponseKeys) options.keepResponseKeys = false;
  return options;
}

/** Refuses a writing run the user could not review and revert with git, unless --force. */
function guard(args: RunArgs, io: CliIO, clean = false): number | undefined {
  if (args.dryRun || (args.force && !clean)) return undefined;
  const outside = outsideGit(args.paths, io.cwd);
  if (outside.length > 0) {
    io.stderr.write(`ergraph-migrate: refusing to write outside a git repository (${outside.join(', ')}): nothing would let you review or revert the changes; run git init, or pass --force\n`);
    return EXIT.errors;
  }
  const dirty = dirtyWorkTrees(args.paths, io.cwd);
  if (dirty.length > 0) {
    io.stderr.write(
      `ergraph-migrate: refusing to write into a git work tree with uncommitted changes (commit or stash them${clean ? '' : ', or pass --force'}):\n` +
        dirty.map((d) => `${d.root}\n${d.status}\n`).join(''),
    );
    return EXIT.errors;
  }
  return undefined;
}

function print(report: MigrationReport, args: RunArgs, io: CliIO): void {
  if (args.dryRun) io.stdout.write(unifiedDiffs(report));
  for (const s of report.skipped) io.stderr.write(`skipped: ${s.file}: ${s.reason}\n`);
  for (const f of report.files) {
    if (f.error) io.stderr.write(`error: ${f.error} (left unchanged)\n`);
    const manifest = manifestLine(f, args.dryRun);
    if (manifest) io.stdout.write(`manifest: ${manifest}\n`);
    for (const m of f.manual) io.stdout.write(`manual: ${f.file}:${m.line}:${m.column} [${m.transform}] ${m.reason}\n`);
    for (const m of f.pending) io.stdout.write(`pending: ${f.file}:${m.line}:${m.column} [${m.transform}] ${m.reason}\n`);
    for (const m of f.notForThisApi) io.stdout.write(`not for this API: ${f.file}:${m.line}:${m.column} (left alone)\n`);
  }
  io.stdout.write(`${summaryLine(report)}\n`);
}

async function execute(steps: Transform[], args: RunArgs, io: CliIO): Promise<number> {
  if (args.paths.length === 0) throw new UsageError('no paths given');
  if (args.report && !/\.(json|md)$/.test(args.report)) throw new UsageError(`--report must end in .json or .md: ${args.report}`);
  const only = args.since ? guarded(() => changedSince(args.since!, args.paths, io.cwd)) : undefined;
  const refused = guard(args, io, args.commitPerStep);
  if (refused !== undefined) return refused;
  const options = transformOptions(args);
  const v5ToV6 = steps.some((t) => t.name === 'v5-to-v6');
  // An explicit --schema is loaded before any file is read: a bad one stops the run at once.
  if (v5ToV6 && args.schema) {
    const found = await findV6Schema({ schema: args.schema, cwd: io.cwd }, new Map(), false);
    options.schemas = found!.schemas;
    io.stdout.write(`v6 schema: ${found!.source}\n`);
  }
  const resolveSchema = async (texts: ReadonlyMap<string, string>) => {
    const changed = [...texts].some(([f, t]) => readFileSync(f, 'utf8') !== t);
    const found = await findV6Schema({ app: args.app, cwd: io.cwd }, texts, changed, (line) => io.stderr.write(`note: ${line}\n`));
    io.stdout.write(found ? `v6 schema: ${found.source}\n` : 'v6 schema: none found (no --schema, GraphQL Config, --app or ER graph in the given paths); documents needing it are listed as pending\n');
    return found;
  };
  const run = (list: Transform[]) =>
    runMigration({
      transforms: list,
      paths: args.paths,
      cwd: io.cwd,
      dryRun: args.dryRun,
      ignore: args.ignore,
      workers: args.workers,
      options,
      only,
      onProgress: progressBar(io),
      resolveSchema: v5ToV6 && !args.schema ? resolveSchema : undefined,
    });
  const reports: MigrationReport[] = [];
  if (args.commitPerStep) {
    for (const step of steps) {
      const report = await run([step]);
      print(report, args, io);
      reports.push(report);
      if (report.summary.errors > 0) break;
      const changed = report.files.filter((f) => f.changed).map((f) => resolve(io.cwd, f.file));
      if (changed.length > 0) {
        const hashes = commitFiles(changed, `ergraph-migrate: ${step.name} (${step.from} → ${step.to})\n\n${step.description}`);
        io.stdout.write(`committed ${step.name}: ${hashes.join(', ')} (${changed.length} files)\n`);
      }
    }
  } else {
    const report = await run(steps);
    print(report, args, io);
    reports.push(report);
  }
  const last = reports[reports.length - 1]!;
  const idle = reports.every((r) => r.summary.changed === 0 && r.summary.companions === 0 && r.summary.errors === 0 && r.summary.pending === 0);
  if (idle) {
    const scripts = new Map(last.files.filter((f) => !f.companionOf).map((f) => [resolve(io.cwd, f.file), f.after]));
    const marked = Math.max(...reports.map((r) => r.summary.manual));
    io.stdout.write(`${nothingToDo(scripts, io.cwd, steps[steps.length - 1]!.to, marked)}\n`);
  }
  if (args.report) writeReport(args.report, last, io);
  if (reports.some((r) => r.summary.errors > 0)) return EXIT.errors;
  if (reports.some((r) => r.summary.pending > 0)) return EXIT.manual;
  if (args.failOnManual && reports.some((r) => r.summary.manual > 0)) return EXIT.manual;
  return EXIT.ok;
}

function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isUsageError(error)) throw new UsageError((error as Error).message);
    throw error;
  }
}

function listing(): string {
  const width = Math.max(...transforms.map((t) => t.name.length));
  return transforms.map((t) => `${t.name.padEnd(width)}  ${t.from} → ${t.to}  ${t.description}\n`).join('');
}

export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  let code: number = EXIT.ok;
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
  });
  const parser = yargs([...argv])
    .scriptName('ergraph-migrate')
    .usage('$0 <transform> <paths...>\n$0 upgrade [--from <version>] --to <version> <paths...>\n$0 list')
    .option('dry-run', { type: 'boolean', default: false, describe: 'write nothing; print a unified diff per file and a summary' })
    .option('report', { type: 'string', describe: 'write a report to <file.json|file.md>' })
    .option('force', { type: 'boolean', default: false, describe: 'write even if the git work tree has uncommitted changes, or outside a git repository' })
    .option('ignore', { type: 'string', array: true, default: [], describe: 'glob of paths to skip (picomatch), repeatable; .gitignore\'d files are always skipped' })
    .option('since', { type: 'string', describe: 'migrate only files changed since this git ref (all files are still read for cross-file facts)' })
    .option('workers', { type: 'number', describe: `worker threads (default: only for large trees on machines with 10+ cores; 0 = none)` })
    .option('fail-on-manual', { type: 'boolean', default: false, describe: 'exit 3 when manual work is left' })
    .option('schema', { type: 'string', describe: 'v5-to-v6: the v6 schema (SDL file, introspection JSON or URL); else GraphQL Config, --app, or the ER graph in the paths' })
    .option('app', { type: 'string', describe: 'v5-to-v6: module exporting your ER diagram, baseEntity() family or GraphQLHandler' })
    .option('keep-response-keys', {
      type: 'boolean',
      default: true,
      describe: 'v5-to-v6: alias each moved field with its v5 response key (--no-keep-response-keys: the key becomes the method name)',
    })
    .command('list', 'list the transforms', {}, () => {
      io.stdout.write(listing());
    })
    .command(
      'upgrade [paths..]',
      'run every transform between two versions, in order',
      (y) =>
        y
          .option('from', { type: 'string', describe: `version the code is at (${KNOWN_VERSIONS.slice(0, -1).join(', ')}); default: detected from the code and the installed package` })
          .option('to', { type: 'string', demandOption: true, describe: `version to reach (${KNOWN_VERSIONS.slice(1).join(', ')})` })
          .option('commit-per-step', { type: 'boolean', default: false, describe: 'one git commit per step (needs a clean work tree)' }),
      async (a) => {
        const args = argsOf(a);
        const to = String(a.to);
        if (!knownVersion(to)) throw new UsageError(`unknown version ${to}: known versions are ${KNOWN_VERSIONS.join(', ')}`);
        if (a.from !== undefined && !knownVersion(String(a.from)))
          throw new UsageError(`unknown version ${a.from}: known versions are ${KNOWN_VERSIONS.join(', ')}`);
        if (args.paths.length === 0) throw new UsageError('no paths given');
        let plan: UpgradePlan;
        try {
          const from = a.from === undefined ? undefined : knownVersion(String(a.from))!;
          plan = planUpgrade(knownVersion(to)!, from, () => detectVersion(readScripts(args.paths, io.cwd, args.ignore), io.cwd));
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        io.stdout.write(`${plan.line}\nsteps: ${plan.steps.map((t) => t.name).join(' → ')}\n`);
        code = await execute(plan.steps, args, io);
      },
    );
  for (const t of transforms)
    parser.command(`${t.name} <paths..>`, `${t.from} → ${t.to}: ${t.description}`, {}, async (a) => {
      const args = argsOf(a);
      const refused = tooOld(t, readScripts(args.paths, io.cwd, args.ignore), io.cwd, args.paths);
      if (refused) {
        io.stderr.write(`ergraph-migrate: ${refused}\n`);
        code = EXIT.usage;
        return;
      }
      code = await execute([findTransform(t.name)!], args, io);
    });
  parser
    .demandCommand(1, 'give a transform, upgrade or list')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .epilogue('Exit codes: 0 done, 1 errors, 2 usage, 3 manual work left (--fail-on-manual) or v5 documents pending a v6 schema.')
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (isUsageError(error)) return reportUsageError('ergraph-migrate', error, io.stderr);
    if (!(error instanceof Error)) return reportUsageError('ergraph-migrate', new UsageError(String(error)), io.stderr);
    // Bad input (a schema that does not load, an --app module that throws): one line, nothing written.
    io.stderr.write(`ergraph-migrate: ${error instanceof SchemaLoadError ? error.message : error.message.split('\n')[0]}\n`);
    return EXIT.errors;
  }
  return code;
}
