/**
 * `runMigration`: read the files, run each transform in turn (scan every file, then apply), and
 * write the results unless it is a dry run. Files that fail in any step are left byte-identical.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import { applyFile, assertParses, handles, scanFile, type FileOutcome } from '../apply.js';
import { findTransform, MissingOptionError, missingOptions } from '../registry.js';
import type { ManualItem, Transform, TransformOptions } from '../types.js';
import { collectFiles } from './files.js';
import { createPool, type Pool } from './pool.js';
import { cloneableOptions, reviveError, type Reply } from './protocol.js';

export interface MigrationOptions {
  /** Transforms (or their registered names) in the order to run them. */
  transforms: readonly (Transform | string)[];
  paths: readonly string[];
  cwd?: string;
  dryRun?: boolean;
  ignore?: readonly string[];
  /** Worker threads; `0` runs in this thread. Default: parallel only for large trees. */
  workers?: number;
  options?: TransformOptions;
  onProgress?: (done: number, total: number, step: string) => void;
}

export interface FileReport {
  /** Path relative to `cwd`, with `/` separators. */
  file: string;
  changed: boolean;
  transforms: string[];
  manual: (ManualItem & { transform: string })[];
  notes: string[];
  error?: string;
  before: string;
  after: string;
}

export interface MigrationReport {
  transforms: string[];
  dryRun: boolean;
  files: FileReport[];
  summary: { files: number; changed: number; manual: number; errors: number; seconds: number };
}

/** Below this many files, starting threads costs more than it saves. */
export const PARALLEL_THRESHOLD = 400;

function resolveTransforms(list: MigrationOptions['transforms']): Transform[] {
  return list.map((t) => {
    if (typeof t !== 'string') return t;
    const found = findTransform(t);
    if (!found) throw new RangeError(`unknown transform: ${t}`);
    return found;
  });
}

/** One thread per spare core, and none when there is at most one spare: a lone worker only adds copying. */
function defaultWorkers(files: number): number {
  const spare = Math.min(8, availableParallelism() - 1);
  return files < PARALLEL_THRESHOLD || spare < 2 ? 0 : spare;
}

async function runStep(
  transform: Transform,
  files: string[],
  texts: Map<string, string>,
  options: TransformOptions,
  pool: Pool | undefined,
  progress: () => void,
): Promise<Map<string, FileOutcome>> {
  const outcomes = new Map<string, FileOutcome>();
  const facts: unknown[] = [];
  if (transform.scan) {
    if (pool) {
      const replies = await pool.run(files.map((file) => ({ op: 'scan', transform: transform.name, file, source: texts.get(file)! })));
      replies.forEach((reply, i) => {
        if ('facts' in reply) facts.push(...reply.facts);
        else if ('error' in reply) outcomes.set(files[i], { file: files[i], source: texts.get(files[i])!, error: reviveError(reply.error) });
      });
    } else
      for (const file of files) {
        try {
          facts.push(...scanFile(transform, texts.get(file)!, file));
        } catch (error) {
          outcomes.set(file, { file, source: texts.get(file)!, error: error as Error });
        }
      }
  }
  const pending = files.filter((f) => !outcomes.has(f));
  if (pool) {
    pool.broadcast({ op: 'facts', transform: transform.name, facts, options: cloneableOptions(options) });
    const replies: Reply[] = await pool.run(
      pending.map((file) => ({ op: 'apply', transform: transform.name, file, source: texts.get(file)! })),
      progress,
    );
    replies.forEach((reply, i) => {
      const file = pending[i];
      const source = texts.get(file)!;
      if ('result' in reply) outcomes.set(file, { file, source, result: reply.result });
      else if ('error' in reply) outcomes.set(file, { file, source, error: reviveError(reply.error) });
    });
  } else
    for (const file of pending) {
      outcomes.set(file, applyFile(transform, texts.get(file)!, file, facts, options, false));
      progress();
    }
  return outcomes;
}

export async function runMigration(opts: MigrationOptions): Promise<MigrationReport> {
  const started = performance.now();
  const cwd = resolve(opts.cwd ?? process.cwd());
  const steps = resolveTransforms(opts.transforms);
  // Refused before any file is read: without it every file would fail the same way.
  const missing = missingOptions(steps, opts.options ?? {});
  if (missing.length > 0) throw new MissingOptionError(missing);
  const extensions = [...new Set(steps.flatMap((t) => t.extensions))];
  const files = collectFiles(opts.paths, { cwd, ignore: opts.ignore ?? [], extensions });
  const rel = (abs: string) => relative(cwd, abs).split('\\').join('/');
  const reports = new Map<string, FileReport>();
  const texts = new Map<string, string>();
  for (const abs of files) {
    const text = readFileSync(abs, 'utf8');
    texts.set(abs, text);
    reports.set(abs, { file: rel(abs), changed: false, transforms: [], manual: [], notes: [], before: text, after: text });
  }
  const workers = opts.workers ?? defaultWorkers(files.length);
  const poolable = steps.every((t) => findTransform(t.name) === t);
  const pool = workers > 0 && poolable ? createPool(workers) : undefined;
  try {
    for (const transform of steps) {
      const mine = files.filter((f) => handles(transform, f) && !reports.get(f)!.error);
      let done = 0;
      const progress = () => opts.onProgress?.(++done, mine.length, transform.name);
      const outcomes = await runStep(transform, mine, texts, opts.options ?? {}, pool, progress);
      for (const [file, outcome] of outcomes) {
        const report = reports.get(file)!;
        if (outcome.error) {
          const after = report.transforms.length > 0 ? ` (in the output of ${report.transforms.join(', ')})` : '';
          report.error = `${outcome.error.message}${after}`;
          continue;
        }
        const result = outcome.result!;
        report.manual.push(...result.manual.map((m) => ({ ...m, transform: transform.name })));
        report.notes.push(...result.notes.map((n) => `${transform.name}: ${n.replace(/^.*?:(\d+): /, `${report.file}:$1: `)}`));
        if (result.output !== texts.get(file)) {
          report.transforms.push(transform.name);
          texts.set(file, result.output);
        }
      }
    }
  } finally {
    await pool?.close();
  }
  for (const [abs, report] of reports) {
    const text = texts.get(abs)!;
    if (!report.error && text !== report.before) {
      try {
        assertParses(text, abs);
      } catch (error) {
        report.error = `${(error as Error).message} (after ${report.transforms.join(', ')})`;
      }
    }
    // Any error leaves the file exactly as it was, even if an earlier step had changed it.
    report.after = report.error ? report.before : texts.get(abs)!;
    report.changed = report.after !== report.before;
    if (report.error) report.transforms = [];
    if (report.changed && !opts.dryRun) writeFileSync(abs, report.after);
  }
  const list = [...reports.values()];
  return {
    transforms: steps.map((t) => t.name),
    dryRun: opts.dryRun ?? false,
    files: list,
    summary: {
      files: list.length,
      changed: list.filter((r) => r.changed).length,
      manual: list.reduce((n, r) => n + r.manual.length, 0),
      errors: list.filter((r) => r.error).length,
      seconds: (performance.now() - started) / 1000,
    },
  };
}
