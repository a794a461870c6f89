/**
 * `ergraph-migrate`: the command line over `runMigration`. `main` returns the exit code instead
 * of exiting so tests (and other tools) can drive it in-process.
 *
 * Exit codes: 0 done · 1 errors (unparsable files, dirty git tree, I/O) · 2 usage ·
 * 3 manual work left and `--fail-on-manual` given.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import yargs from 'yargs';
import { findTransform, MissingOptionError, missingOptions, transforms, upgradePath } from './registry.js';
import { dirtyWorkTrees } from './runner/git.js';
import { summaryLine, toJson, toMarkdown, unifiedDiffs } from './runner/report.js';
import { runMigration, type MigrationReport } from './runner/run.js';
import type { Transform, TransformOptions } from './types.js';
import { loadSchema } from './v5-to-v6/schema.js';

export const EXIT = { ok: 0, errors: 1, usage: 2, manual: 3 } as const;

export interface CliIO {
  cwd: string;
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown };
}

interface RunArgs {
  paths: string[];
  dryRun: boolean;
  report?: string;
  force: boolean;
  ignore: string[];
  workers?: number;
  failOnManual: boolean;
  schema?: string;
  keepResponseKeys: boolean;
}

class UsageError extends Error {}

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

const isUrl = (spec: string) => /^https?:\/\//i.test(spec);

async function transformOptions(args: RunArgs, io: CliIO): Promise<TransformOptions> {
  const options: TransformOptions = {};
  // A URL must reach loadSchema as written: resolving it against cwd would turn it into a path.
  if (args.schema) options.schema = await loadSchema(isUrl(args.schema) ? args.schema : resolve(io.cwd, args.schema));
  // Only the non-default is passed, so transforms see exactly what the user asked for.
  if (!args.keepResponseKeys) options.keepResponseKeys = false;
  return options;
}

async function execute(steps: Transform[], args: RunArgs, io: CliIO): Promise<number> {
  if (args.paths.length === 0) throw new UsageError('no paths given');
  if (args.report && !/\.(json|md)$/.test(args.report)) throw new UsageError(`--report must end in .json or .md: ${args.report}`);
  // Checked on what was asked for, before loading it, checking git or reading any file.
  const missing = missingOptions(steps, { schema: args.schema });
  if (missing.length > 0) throw new UsageError(new MissingOptionError(missing).message);
  if (!args.dryRun && !args.force) {
    const dirty = dirtyWorkTrees(args.paths, io.cwd);
    if (dirty.length > 0) {
      io.stderr.write(
        `ergraph-migrate: refusing to write into a git work tree with uncommitted changes (commit or stash them, or pass --force):\n` +
          dirty.map((d) => `${d.root}\n${d.status}\n`).join(''),
      );
      return EXIT.errors;
    }
  }
  const options = await transformOptions(args, io);
  const report = await runMigration({
    transforms: steps,
    paths: args.paths,
    cwd: io.cwd,
    dryRun: args.dryRun,
    ignore: args.ignore,
    workers: args.workers,
    options,
    onProgress: progressBar(io),
  });
  if (args.dryRun) io.stdout.write(unifiedDiffs(report));
  for (const f of report.files) {
    if (f.error) io.stderr.write(`error: ${f.error} (left unchanged)\n`);
    for (const m of f.manual) io.stdout.write(`manual: ${f.file}:${m.line}:${m.column} [${m.transform}] ${m.reason}\n`);
  }
  io.stdout.write(`${summaryLine(report)}\n`);
  if (args.report) writeReport(args.report, report, io);
  if (report.summary.errors > 0) return EXIT.errors;
  if (args.failOnManual && report.summary.manual > 0) return EXIT.manual;
  return EXIT.ok;
}

function listing(): string {
  const width = Math.max(...transforms.map((t) => t.name.length));
  return transforms.map((t) => `${t.name.padEnd(width)}  ${t.from} → ${t.to}  ${t.description}\n`).join('');
}

export async function main(argv: readonly string[], io: CliIO = { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let code: number = EXIT.ok;
  const run = async (steps: Transform[], a: Record<string, unknown>) => {
    code = await execute(steps, {
      paths: ((a.paths as (string | number)[] | undefined) ?? []).map(String),
      dryRun: Boolean(a.dryRun),
      report: a.report as string | undefined,
      force: Boolean(a.force),
      ignore: ((a.ignore as (string | number)[] | undefined) ?? []).map(String),
      workers: a.workers as number | undefined,
      failOnManual: Boolean(a.failOnManual),
      schema: a.schema as string | undefined,
      keepResponseKeys: a.keepResponseKeys !== false,
    }, io);
  };
  const parser = yargs([...argv])
    .scriptName('ergraph-migrate')
    .usage('$0 <transform> <paths...>\n$0 upgrade --from <version> --to <version> <paths...>\n$0 list')
    .option('dry-run', { type: 'boolean', default: false, describe: 'write nothing; print a unified diff per file and a summary' })
    .option('report', { type: 'string', describe: 'write a report to <file.json|file.md>' })
    .option('force', { type: 'boolean', default: false, describe: 'write even if the git work tree has uncommitted changes' })
    .option('ignore', { type: 'string', array: true, default: [], describe: 'glob of paths to skip (picomatch), repeatable' })
    .option('workers', { type: 'number', describe: `worker threads (default: parallel for large trees, 0 = none)` })
    .option('fail-on-manual', { type: 'boolean', default: false, describe: 'exit 3 when manual work is left' })
    .option('schema', { type: 'string', describe: 'v6 schema, required by v5-to-v6 (also within upgrade): SDL file, introspection JSON or URL' })
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
          .option('from', { type: 'string', demandOption: true, describe: 'version the code is at (3, 4, 5, 5.4, 5.5)' })
          .option('to', { type: 'string', demandOption: true, describe: 'version to reach (4, 5, 5.5, 6)' }),
      async (a) => {
        let steps: Transform[];
        try {
          steps = upgradePath(String(a.from), String(a.to));
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        if (steps.length === 0) throw new UsageError(`no transform between ${a.from} and ${a.to}`);
        await run(steps, a);
      },
    );
  for (const t of transforms)
    parser.command(`${t.name} <paths..>`, `${t.from} → ${t.to}: ${t.description}`, {}, async (a) => run([findTransform(t.name)!], a));
  parser
    .demandCommand(1, 'give a transform, upgrade or list')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .epilogue('Exit codes: 0 done, 1 errors, 2 usage, 3 manual work left (--fail-on-manual).')
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError || !(error instanceof Error) || error.name === 'YError') {
      io.stderr.write(`ergraph-migrate: ${(error as Error).message}\nRun ergraph-migrate --help for usage.\n`);
      return EXIT.usage;
    }
    io.stderr.write(`ergraph-migrate: ${error.message}\n`);
    return EXIT.errors;
  }
  return code;
}
