/**
 * `runMigration`: read the files, run the transforms, and write the results unless it is a dry
 * run (or `beforeWrite` refuses the whole run). Files that fail in any step are left byte-identical.
 *
 * Steps run over one parse per file: every script is parsed once, every step scans that tree,
 * then every step adds its edits to one change set per file, applied at once (a chain of five
 * steps costs about one parse and one check, not ten parses). When two steps claim the same text,
 * that file falls back to running the steps one after another on text. Worker threads run the
 * steps one at a time instead, at about 8x the CPU per file; they only pay off with more spare
 * cores than that (see `defaultWorkers`).
 *
 * The parts, in the order a run takes them: `listing.ts` (the files and their texts),
 * `parses.ts` (one parse per script, the trees held), `segments.ts` (the chain cut where the v6
 * schema must be looked up), `shared.ts` / `pooled.ts` (the steps over the files), `write.ts`.
 */
import { relative, resolve } from 'node:path';
import { handles } from '../apply.js';
import { findTransform, MissingOptionError, missingOptions } from '../registry.js';
import { forRun } from '../script-steps.js';
import type { CompanionFile, Transform, TransformOptions } from '../types.js';
import { settleFailures } from './failures.js';
import { reportLeftovers } from './leftovers.js';
import { listFiles } from './listing.js';
import { runParses } from './parses.js';
import { createPool } from './pool.js';
import { defaultWorkers, runPooled } from './pooled.js';
import { recordOutcomes, segmentsOf } from './segments.js';
import { runShared } from './shared.js';
import type { MigrationOptions, MigrationReport } from './types.js';
import type { FileReport } from './types.js';
import { applyWrites, leaveUnwritten, writeResults, type NotWritten } from './write.js';

export type { FileReport, MigrationOptions, MigrationReport, ResolvedSchema } from './types.js';

function resolveTransforms(list: MigrationOptions['transforms']): Transform[] {
  return list.map((t) => {
    if (typeof t !== 'string') return t;
    const found = findTransform(t);
    if (!found) throw new RangeError(`unknown transform: ${t}`);
    return found;
  });
}

export async function runMigration(opts: MigrationOptions): Promise<MigrationReport> {
  const started = performance.now();
  const cwd = resolve(opts.cwd ?? process.cwd());
  const steps = resolveTransforms(opts.transforms);
  let options: TransformOptions = { ...(opts.options ?? {}) };
  // Refused before any file is read: without it every file would fail the same way.
  const missing = missingOptions(steps, options);
  if (missing.length > 0) throw new MissingOptionError(missing);
  const rel = (abs: string) => relative(cwd, abs).split('\\').join('/');
  const { texts, reports, skipped, ignored, linked, ids } = listFiles(steps, opts, cwd, rel);
  const files = [...texts.keys()];
  const only = opts.only;
  const workers = opts.workers ?? defaultWorkers(files.length);
  const poolable = steps.every((t) => findTransform(t.name) === t);
  const pool = workers > 0 && poolable ? createPool(workers) : undefined;
  const parses = runParses(files, texts, reports, pool !== undefined);

  // v5-to-v6 without a schema: find it from the project, as migrated so far.
  const needsSchema = (t: Transform) => t.name === 'v5-to-v6' && !options.schema && !(options.schemas && options.schemas.length > 0);
  const segments = segmentsOf(steps, (step) => needsSchema(step) && !!opts.resolveSchema);
  let schemaSource: string | undefined;
  const companions = new Map<string, CompanionFile[]>();
  try {
    for (const [i, segment] of segments.entries()) {
      if (needsSchema(segment[0]!) && opts.resolveSchema) {
        const found = await opts.resolveSchema(texts);
        if (found) {
          options = { ...options, schemas: found.schemas };
          schemaSource = found.source;
        } else schemaSource = 'none found';
      }
      // Kept only for steps that have not read these trees yet (their caches on a tree are their own).
      const later = segments.slice(i + 1).flat();
      const keep = later.length > 0 && !later.some((t) => segments.slice(0, i + 1).flat().includes(t));
      // Text tests narrowed by what the segment's texts say as a whole (a worker sees one file).
      const narrowed = pool ? segment : segment.map((step) => forRun(step, texts.values()));
      const project = parses.parseAll(narrowed, keep ? later : undefined);
      options = { ...options, project, ...(only ? { writing: only } : {}) };
      const mine = files.filter((f) => segment.some((t) => handles(t, f)) && !reports.get(f)!.error);
      let done = 0;
      const label = segment.map((t) => t.name).join(' → ');
      const progress = () => opts.onProgress?.(++done, mine.length, label);
      const { trees, quiet, unheld } = parses;
      const outcomes = pool
        ? await runPooled(segment, mine, texts, options, pool, progress)
        : runShared(narrowed, mine, texts, options, trees, quiet, unheld, progress);
      recordOutcomes(outcomes, reports, texts, companions, cwd, rel);
      parses.forgetChanged();
    }
  } finally {
    await pool?.close();
  }
  reportLeftovers(reports, texts, steps, options.alone);
  const { written, writes } = writeResults(reports, texts, companions, parses.verified, opts, cwd, rel, skipped, linked, ids);
  settleFailures(reports);
  const list = [...reports.values()].filter((r) => !only || only.has(resolve(cwd, r.file))).concat(written);
  const report: MigrationReport = {
    transforms: steps.map((t) => t.name),
    dryRun: opts.dryRun ?? false,
    files: list,
    skipped,
    schemaSource,
    summary: summarize(list, skipped.length, ignored.size, started),
  };
  if (!report.dryRun) {
    await opts.beforeWrite?.(report);
    const notWritten = await applyWrites(writes, opts, rel);
    if (notWritten.length > 0) settleNotWritten(report, notWritten, rel, opts.signal);
    report.summary = summarize(report.files, report.skipped.length, ignored.size, started);
  }
  return report;
}

function summarize(list: readonly FileReport[], skipped: number, ignored: number, started: number): MigrationReport['summary'] {
  return {
    files: list.filter((r) => !r.companionOf).length,
    changed: list.filter((r) => r.changed && !r.companionOf).length,
    companions: list.filter((r) => r.changed && r.companionOf).length,
    manual: list.reduce((n, r) => n + r.manual.length, 0),
    errors: list.filter((r) => r.error).length,
    pending: list.reduce((n, r) => n + r.pending.length, 0),
    notForThisApi: list.reduce((n, r) => n + r.notForThisApi.length, 0),
    skipped,
    ignored,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The report after the writes says what was written: a file not written is reported as left
 * alone, with its reason — an error when the name no longer held the file read, a skipped entry
 * when it gained a hard link or the run was stopped before it.
 */
function settleNotWritten(report: MigrationReport, notWritten: readonly NotWritten[], rel: (abs: string) => string, signal: AbortSignal | undefined): void {
  const byFile = new Map(report.files.map((f) => [f.file, f]));
  for (const { abs, reason, skip } of notWritten) {
    const file = byFile.get(rel(abs));
    if (file) leaveUnwritten(file);
    if (skip) report.skipped.push({ file: rel(abs), reason });
    else if (file) file.error = reason;
  }
  if (notWritten.some((n) => n.stopped)) report.stopped = String(signal?.reason);
}
