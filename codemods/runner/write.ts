/**
 * The end of a run: each changed file's final text checked to parse, then written unless it is a
 * dry run; any error leaves a file byte-identical. Companion files (a manifest's mapping) are
 * merged into what is on disk and written after their file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertParses } from '../apply.js';
import type { CompanionFile } from '../types.js';
import { mergeCompanion } from './companion.js';
import type { FileReport, MigrationOptions } from './types.js';

/** Settles every report and writes the files; answers the reports of the companion files written. */
export function writeResults(
  reports: ReadonlyMap<string, FileReport>,
  texts: ReadonlyMap<string, string>,
  companions: ReadonlyMap<string, CompanionFile[]>,
  verified: ReadonlyMap<string, string>,
  opts: Pick<MigrationOptions, 'only' | 'dryRun'>,
  cwd: string,
  rel: (abs: string) => string,
): FileReport[] {
  const only = opts.only;
  // Companion files (a manifest's mapping): merged into what is on disk, written after their file.
  const written: FileReport[] = [];
  const companionTexts = (list: readonly CompanionFile[], report: FileReport) => {
    const out: { abs: string; before: string; after: string }[] = [];
    for (const c of list) {
      const target = resolve(cwd, c.file);
      try {
        const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
        out.push({ abs: target, before, after: mergeCompanion(before, c.json, rel(target)) });
      } catch (error) {
        // Without its mapping the old ids are lost: the file itself is not written either.
        report.error = (error as Error).message;
        return [];
      }
    }
    return out;
  };
  for (const [abs, report] of reports) {
    const text = texts.get(abs)!;
    if (only && !only.has(abs)) {
      // Read for facts only (`--since`): reported as unchanged, never written.
      Object.assign(report, { manual: [], notes: [], pending: [], notForThisApi: [], transforms: [], error: undefined, after: report.before, changed: false });
      continue;
    }
    if (!report.error && text !== report.before && verified.get(abs) !== text) {
      try {
        assertParses(text, abs);
      } catch (error) {
        report.error = `${(error as Error).message} (after ${report.transforms.join(', ')})`;
      }
    }
    // Any error leaves the file exactly as it was, even if an earlier step had changed it.
    report.after = report.error ? report.before : text;
    report.changed = report.after !== report.before;
    const beside = report.changed ? companionTexts(companions.get(abs) ?? [], report) : [];
    if (report.error) {
      report.after = report.before;
      report.changed = false;
      report.transforms = [];
      delete report.manifest;
    }
    if (report.changed && !opts.dryRun) writeFileSync(abs, report.after);
    for (const c of report.error ? [] : beside) {
      if (!opts.dryRun) writeFileSync(c.abs, c.after);
      written.push({
        file: rel(c.abs),
        changed: c.after !== c.before,
        transforms: report.transforms.slice(-1),
        manual: [],
        notes: [],
        pending: [],
        notForThisApi: [],
        before: c.before,
        after: c.after,
        companionOf: report.file,
      });
    }
  }
  return written;
}
