/**
 * What `ergraph-migrate` does once a command has to touch files: loaded by `cli.ts` with
 * `import()` only then, so that `--help`, `list`, `--version` and usage errors never load the
 * runner, the steps or TypeScript's parser.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { CommandIO } from '../src/cli-kit/io.js';
import { isUsageError, UsageError } from '../src/cli-kit/usage.js';
import type { CatalogEntry } from './catalog.js';
import { detectVersion } from './detect.js';
import { EXIT } from './exit.js';
import { nothingToDo, planUpgrade, readScripts, tooOld } from './plan.js';
import { changedSince, commitFiles, unrevertable } from './runner/git.js';
import { errorLine, manifestLine, printable, summaryLine, toJson, toMarkdown, unifiedDiffs } from './runner/report.js';
import { runMigration, type MigrationReport } from './runner/run.js';
import { NOT_REACHED } from './runner/write.js';
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

function reportText(abs: string, report: MigrationReport): string {
  return abs.endsWith('.json') ? toJson(report) : toMarkdown(report);
}

/**
 * Whether the report at `abs` already says what `text` says (the JSON report's run time aside):
 * then it is left untouched, mtime and all, so a rerun with nothing to do leaves the tree clean
 * and the run after it is not refused.
 */
function sameReport(abs: string, text: string): boolean {
  let old: string;
  try {
    old = readFileSync(abs, 'utf8');
  } catch {
    return false;
  }
  if (old === text || !abs.endsWith('.json')) return old === text;
  const timeless = (t: string) => {
    const parsed = JSON.parse(t) as { summary?: Record<string, unknown> };
    return JSON.stringify({ ...parsed, summary: { ...parsed.summary, seconds: 0 } });
  };
  try {
    return timeless(old) === timeless(text);
  } catch {
    return false;
  }
}

function writeReport(abs: string, report: MigrationReport): void {
  const text = reportText(abs, report);
  if (sameReport(abs, text)) return;
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

function transformOptions(args: RunArgs): TransformOptions {
  const options: TransformOptions = {};
  // Only the non-default is passed, so transforms see exactly what the user asked for.
  if (!args.keepResponseKeys) options.keepResponseKeys = false;
  return options;
}

/** A run stopped before it wrote anything. */
class Refused extends Error {}

/**
 * SIGINT and SIGTERM once a run writes (issue 45.6): the file being written is finished, the rest
 * are left as they are, the report says what was written, and the exit code is the signal's
 * (128 + its number: 130, 143). Before the writes the signals keep their default, since a run
 * killed then has written nothing and waiting for its analysis to end would only delay the stop.
 */
function stopOnSignal() {
  const controller = new AbortController();
  const names = ['SIGINT', 'SIGTERM'] as const;
  const stop = (name: NodeJS.Signals) => controller.abort(name);
  let armed = false;
  return {
    signal: controller.signal,
    arm(): void {
      if (armed) return;
      armed = true;
      for (const name of names) process.on(name, stop);
    },
    disarm(): void {
      for (const name of names) process.off(name, stop);
    },
    /** The signal that came, if one did. */
    get by(): NodeJS.Signals | undefined {
      return controller.signal.aborted ? (controller.signal.reason as NodeJS.Signals) : undefined;
    },
  };
}

/**
 * A seam for tests of a stopped or tampered run (never set by users): with
 * ERGRAPH_MIGRATE_TEST_PAUSE=1 the run prints `paused after writing <file>` once, after its first
 * file, and goes on when a line arrives on stdin or a signal stops it; the test acts in between,
 * with no timing involved.
 */
function pauseAfterFirstWrite(io: CliIO, signal: AbortSignal): ((abs: string) => Promise<void>) | undefined {
  if (process.env.ERGRAPH_MIGRATE_TEST_PAUSE !== '1') return undefined;
  let paused = false;
  return async (abs) => {
    if (paused) return;
    paused = true;
    io.stderr.write(`paused after writing ${printable(relative(io.cwd, abs))}\n`);
    await new Promise<void>((resolve) => {
      const go = () => {
        process.stdin.off('data', go);
        signal.removeEventListener('abort', go);
        process.stdin.pause();
        resolve();
      };
      process.stdin.on('data', go);
      signal.addEventListener('abort', go);
    });
  };
}

/** The last line of a run a signal stopped. */
function stoppedLine(by: NodeJS.Signals, reports: readonly MigrationReport[], args: RunArgs): string {
  const last = reports[reports.length - 1]!;
  const left = last.skipped.filter((s) => s.reason.startsWith(NOT_REACHED)).length;
  // The stopped run's own files (under --commit-per-step the earlier steps are committed).
  const written = last.summary.changed + last.summary.companions;
  const where = args.report ? `; the report (${args.report}) lists what was written` : '';
  const rest = left > 0 ? `, ${left} not reached and left as they were (skipped above)${where}; run the same command again to migrate the rest` : `${where}`;
  const commit = args.commitPerStep && left > 0 ? '; the stopped step is not committed' : '';
  return `ergraph-migrate: stopped by ${by}: ${written} file${written === 1 ? '' : 's'} written in full${rest}${commit}`;
}

/**
 * The git guard, asked once a run is settled and before it writes: refuses when a file it is
 * about to write — or its report, when the report would change — has uncommitted changes or lies
 * in no repository, since then git could not give back what it had. Files the run only reads (a
 * `--schema` file, an untracked file beside the tree) are never asked about. `--force` passes,
 * except under `--commit-per-step`, whose commits would take in the user's own changes.
 */
function guard(args: RunArgs, io: CliIO, writesReport: (report: MigrationReport) => boolean): (report: MigrationReport) => void {
  return (report) => {
    if (args.force && !args.commitPerStep) return;
    const files = report.files.filter((f) => f.changed).map((f) => resolve(io.cwd, f.file));
    if (args.report && writesReport(report)) {
      const abs = resolve(io.cwd, args.report);
      if (!sameReport(abs, reportText(abs, report))) files.push(abs);
    }
    const { outside, dirty } = unrevertable(files);
    const names = (list: string[]) => list.map((f) => relative(io.cwd, f) || '.').join(', ');
    if (outside.length > 0)
      throw new Refused(`refusing to write outside a git repository (${names(outside)}): nothing would let you review or revert the changes; run git init, or pass --force`);
    if (dirty.length > 0)
      throw new Refused(
        `refusing to write over uncommitted changes in ${names(dirty)} (commit or stash them${args.commitPerStep ? '' : ', or pass --force'}): git could not give back what they hold`,
      );
  };
}

/** Each line as printed: names and reasons with control characters escaped (`printable`). */
function print(report: MigrationReport, args: RunArgs, io: CliIO): void {
  const p = printable;
  if (args.dryRun) io.stdout.write(unifiedDiffs(report));
  for (const s of report.skipped) io.stderr.write(`skipped: ${p(s.file)}: ${p(s.reason)}\n`);
  for (const f of report.files) {
    if (f.error) io.stderr.write(`error: ${p(errorLine(f))} (left unchanged)\n`);
    const manifest = manifestLine(f, args.dryRun);
    if (manifest) io.stdout.write(`manifest: ${p(manifest)}\n`);
    for (const m of f.manual) io.stdout.write(`manual: ${p(f.file)}:${m.line}:${m.column} [${m.transform}] ${p(m.reason)}\n`);
    for (const m of f.pending) io.stdout.write(`pending: ${p(f.file)}:${m.line}:${m.column} [${m.transform}] ${p(m.reason)}\n`);
    for (const m of f.notForThisApi) io.stdout.write(`not for this API: ${p(f.file)}:${m.line}:${m.column} (left alone)\n`);
  }
  io.stdout.write(`${summaryLine(report)}\n`);
}

type RunSteps = (list: Transform[], writesReport: (report: MigrationReport) => boolean) => Promise<MigrationReport>;

/** `--commit-per-step`: each step run and committed on its own; the chain stops at a step with errors. */
async function commitEachStep(steps: readonly Transform[], run: RunSteps, args: RunArgs, io: CliIO, stopped: () => boolean): Promise<MigrationReport[]> {
  const reports: MigrationReport[] = [];
  for (const [i, step] of steps.entries()) {
    // The report written is the last step's, or that of the step whose errors stop the chain.
    const report = await run([step], (r) => i === steps.length - 1 || r.summary.errors > 0);
    print(report, args, io);
    reports.push(report);
    // A stopped step is left uncommitted: the user asked to stop, and the step is half done.
    if (report.summary.errors > 0 || stopped()) break;
    const changed = report.files.filter((f) => f.changed).map((f) => resolve(io.cwd, f.file));
    if (changed.length > 0) {
      const hashes = commitFiles(changed, `ergraph-migrate: ${step.name} (${step.from} → ${step.to})\n\n${step.description}`);
      io.stdout.write(`committed ${step.name}: ${hashes.join(', ')} (${changed.length} files)\n`);
    }
  }
  return reports;
}

/** Loads the chosen steps and runs them: the exit code. */
export async function execute(chosen: readonly CatalogEntry[], args: RunArgs, io: CliIO): Promise<number> {
  if (args.paths.length === 0) throw new UsageError('no paths given');
  if (args.report && !/\.(json|md)$/.test(args.report)) throw new UsageError(`--report must end in .json or .md: ${args.report}`);
  const only = args.since ? guarded(() => changedSince(args.since!, args.paths, io.cwd)) : undefined;
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
  const stop = stopOnSignal();
  const run: RunSteps = (list, writesReport) => {
    const approve = guard(args, io, writesReport);
    return runMigration({
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
      beforeWrite: (report) => {
        approve(report);
        stop.arm();
      },
      signal: stop.signal,
      onWritten: pauseAfterFirstWrite(io, stop.signal),
    });
  };
  try {
    let reports: MigrationReport[];
    try {
      reports = args.commitPerStep ? await commitEachStep(steps, run, args, io, () => stop.by !== undefined) : [await run(steps, () => true)];
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      io.stderr.write(`ergraph-migrate: ${error.message}\n`);
      return EXIT.errors;
    }
    if (!args.commitPerStep) print(reports[0]!, args, io);
    const last = reports[reports.length - 1]!;
    const idle = reports.every((r) => r.summary.changed === 0 && r.summary.companions === 0 && r.summary.errors === 0 && r.summary.pending === 0);
    if (idle && !stop.by) {
      const scripts = new Map(last.files.filter((f) => !f.companionOf).map((f) => [resolve(io.cwd, f.file), f.after]));
      const marked = Math.max(...reports.map((r) => r.summary.manual));
      // Documents the run found to be for another API are no evidence of v5, however their root fields are spelled.
      const foreign = new Set(last.files.flatMap((f) => f.notForThisApi.map((n) => `${resolve(io.cwd, f.file)}:${n.line}`)));
      io.stdout.write(`${nothingToDo(scripts, io.cwd, steps[steps.length - 1]!.to, marked, foreign)}\n`);
    }
    if (args.report) writeReport(resolve(io.cwd, args.report), last);
    const by = stop.by;
    if (by) {
      io.stderr.write(`${stoppedLine(by, reports, args)}\n`);
      return by === 'SIGINT' ? EXIT.interrupted : EXIT.terminated;
    }
    return exitCode(reports, args);
  } finally {
    stop.disarm();
  }
}

function exitCode(reports: readonly MigrationReport[], args: RunArgs): number {
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
