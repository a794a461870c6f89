/**
 * What `ergraph-migrate` does once a command has to touch files: loaded by `cli.ts` with
 * `import()` only then, so that `--help`, `list`, `--version` and usage errors never load the
 * runner, the steps or TypeScript's parser.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommandIO } from '../src/cli-kit/io.js';
import { isUsageError, UsageError } from '../src/cli-kit/usage.js';
import type { CatalogEntry } from './catalog.js';
import { detectVersion } from './detect.js';
import { EXIT } from './exit.js';
import { nothingToDo, planUpgrade, readScripts, tooOld } from './plan.js';
import { changedSince, commitFiles, dirtyWorkTrees, outsideGit } from './runner/git.js';
import { errorLine, manifestLine, summaryLine, toJson, toMarkdown, unifiedDiffs } from './runner/report.js';
import { runMigration, type MigrationReport } from './runner/run.js';
import type { Transform, TransformOptions } from './types.js';
import { findV6Schema } from './v5-to-v6/sources.js';

type CliIO = CommandIO;

export interface RunArgs {
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
  followHardlinks?: boolean;
  /** A dry run loads the project's code to find the v6 schema only when this is given. */
  loadApp?: boolean;
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
    if (f.error) io.stderr.write(`error: ${errorLine(f)} (left unchanged)\n`);
    const manifest = manifestLine(f, args.dryRun);
    if (manifest) io.stdout.write(`manifest: ${manifest}\n`);
    for (const m of f.manual) io.stdout.write(`manual: ${f.file}:${m.line}:${m.column} [${m.transform}] ${m.reason}\n`);
    for (const m of f.pending) io.stdout.write(`pending: ${f.file}:${m.line}:${m.column} [${m.transform}] ${m.reason}\n`);
    for (const m of f.notForThisApi) io.stdout.write(`not for this API: ${f.file}:${m.line}:${m.column} (left alone)\n`);
  }
  io.stdout.write(`${summaryLine(report)}\n`);
}

/** Loads the chosen steps and runs them: the exit code. */
export async function execute(chosen: readonly CatalogEntry[], args: RunArgs, io: CliIO): Promise<number> {
  if (args.paths.length === 0) throw new UsageError('no paths given');
  if (args.report && !/\.(json|md)$/.test(args.report)) throw new UsageError(`--report must end in .json or .md: ${args.report}`);
  const only = args.since ? guarded(() => changedSince(args.since!, args.paths, io.cwd)) : undefined;
  const refused = guard(args, io, args.commitPerStep);
  if (refused !== undefined) return refused;
  const steps: Transform[] = await Promise.all(chosen.map((entry) => entry.load()));
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
    const loadCode = !args.dryRun || !!args.loadApp;
    const found = await findV6Schema({ app: args.app, cwd: io.cwd, loadCode }, texts, changed, (line) => io.stderr.write(`note: ${line}\n`));
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
      followHardlinks: args.followHardlinks,
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

/** `upgrade`'s steps (plan.ts), printed with where they start. */
export function upgradeSteps(to: string, from: string | undefined, args: RunArgs, io: CliIO, all: readonly CatalogEntry[]): CatalogEntry[] {
  const plan = planUpgrade(to, from, () => detectVersion(readScripts(args.paths, io.cwd, args.ignore), io.cwd), all);
  io.stdout.write(`${plan.line}\n`);
  return plan.steps;
}

/** One step's command: refused, with the command to run instead, on code older than it expects. */
export async function executeOne(step: CatalogEntry, args: RunArgs, io: CliIO, all: readonly CatalogEntry[]): Promise<number> {
  const refused = tooOld(step, readScripts(args.paths, io.cwd, args.ignore), io.cwd, args.paths, all);
  if (refused) {
    io.stderr.write(`ergraph-migrate: ${refused}\n`);
    return EXIT.usage;
  }
  return execute([step], args, io);
}
