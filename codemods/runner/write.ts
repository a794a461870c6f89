/**
 * The end of a run: each changed file's final text checked to parse, and the writes planned; any
 * error leaves a file byte-identical. Companion files (a manifest's mapping) are merged into what
 * is on disk and written after their file. Nothing is written until every file is settled, so
 * the caller can look at the whole run first (`MigrationOptions.beforeWrite`).
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { assertParses } from '../apply.js';
import type { CompanionFile } from '../types.js';
import { mergeCompanion } from './companion.js';
import type { SkippedEntry } from './files.js';
import type { FileReport, MigrationOptions } from './types.js';

/** How many names the file has (0 when it does not exist yet). */
function linksOf(abs: string): number {
  try {
    return statSync(abs).nlink;
  } catch {
    return 0;
  }
}

export function hardLinkReason(links: number): string {
  return `has ${links} hard links: not rewritten in place, since its other names (maybe outside the tree) would change too; --follow-hardlinks writes the migrated text as a new file here, breaking the link`;
}

/**
 * A file with other hard links gets a new inode: the text goes to a fresh file beside it, renamed
 * over this name, so the other names keep the old text.
 */
function writeAsCopy(abs: string, text: string): void {
  const temp = join(dirname(abs), `.${basename(abs)}.ergraph-migrate-${process.pid}`);
  writeFileSync(temp, text, { mode: statSync(abs).mode, flag: 'wx' });
  renameSync(temp, abs);
}

function write(abs: string, text: string, links: number): void {
  if (links > 1) writeAsCopy(abs, text);
  else writeFileSync(abs, text);
}

/** One file's new text, written by `applyWrites` once the run is settled. */
export interface PlannedWrite {
  abs: string;
  text: string;
  /** Its hard links when settled: more than one writes it as a new file (`--follow-hardlinks`). */
  links: number;
}

export function applyWrites(writes: readonly PlannedWrite[]): void {
  for (const w of writes) write(w.abs, w.text, w.links);
}

/** Settles every report and plans the writes (none on a dry run); answers the companion files' reports too. */
export function writeResults(
  reports: ReadonlyMap<string, FileReport>,
  texts: ReadonlyMap<string, string>,
  companions: ReadonlyMap<string, CompanionFile[]>,
  verified: ReadonlyMap<string, string>,
  opts: Pick<MigrationOptions, 'only' | 'dryRun' | 'followHardlinks'>,
  cwd: string,
  rel: (abs: string) => string,
  /** Files that would change but are held back (hard links) are added here. */
  skipped: SkippedEntry[] = [],
  /** The listed files' hard links as the listing saw them (`Collected.linked`: those with more than one). */
  listed?: ReadonlyMap<string, number>,
): { written: FileReport[]; writes: PlannedWrite[] } {
  const only = opts.only;
  // A dry run reports the links the listing saw (its lstat of each file): asking the file system
  // again for each changed file was 1.5% of a dry run over 2,000 files. A write asks at the time
  // it writes, so a link made since the listing is still seen.
  const links = (abs: string) => (opts.dryRun && listed && texts.has(abs) ? (listed.get(abs) ?? 1) : linksOf(abs));
  // Companion files (a manifest's mapping): merged into what is on disk, written after their file.
  const written: FileReport[] = [];
  const writes: PlannedWrite[] = [];
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
    // Hard links: written in place, the change would reach names the user never asked to migrate.
    const counts = new Map(report.changed ? [abs, ...beside.map((c) => c.abs)].map((f) => [f, links(f)] as const) : []);
    const linked = [...counts].filter(([, n]) => n > 1);
    if (linked.length > 0 && !opts.followHardlinks) {
      for (const [f, n] of linked) skipped.push({ file: rel(f), reason: hardLinkReason(n) });
      Object.assign(report, { after: report.before, changed: false, transforms: [] });
      delete report.manifest;
      continue;
    }
    for (const [f, n] of linked)
      report.notes.push(`${rel(f)}: had ${n} hard links: ${opts.dryRun ? 'would be written' : 'written'} as a new file (--follow-hardlinks); its other names keep the old text`);
    if (report.changed && !opts.dryRun) writes.push({ abs, text: report.after, links: counts.get(abs) ?? 1 });
    for (const c of report.error ? [] : beside) {
      if (!opts.dryRun) writes.push({ abs: c.abs, text: c.after, links: counts.get(c.abs) ?? 1 });
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
  return { written, writes };
}
