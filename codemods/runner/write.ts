/**
 * The end of a run: each changed file's final text checked to parse, and the writes planned; any
 * error leaves a file byte-identical. Companion files (a manifest's mapping) are merged into what
 * is on disk and written after their file. Nothing is written until every file is settled, so
 * the caller can look at the whole run first (`MigrationOptions.beforeWrite`).
 *
 * A write goes to the file the run read and to no other (`same-file.ts`): the name is opened
 * without following a link, and the open file must be the one read (device and inode) and still
 * have a single name, or nothing of its group (a file and its mapping) is written.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { assertParses } from '../apply.js';
import type { CompanionFile } from '../types.js';
import { mergeCompanion } from './companion.js';
import type { SkippedEntry } from './files.js';
import { errorCode, idOf, openNoFollow, readListed, sameFile, whyNotOpened, type FileId } from './same-file.js';
import type { FileReport, MigrationOptions } from './types.js';

/** How many names the file has (0 when it does not exist yet); a link at the name counts as one. */
function linksOf(abs: string): number {
  try {
    return lstatSync(abs).nlink;
  } catch {
    return 0;
  }
}

export function hardLinkReason(links: number): string {
  return `has ${links} hard links: not rewritten in place, since its other names (maybe outside the tree) would change too; left unmigrated, so its manual work is listed once it is migrated; --follow-hardlinks writes the migrated text as a new file here, breaking the link`;
}

/**
 * A file with other hard links gets a new inode: the text goes to a fresh file beside it, renamed
 * over this name, so the other names keep the old text. `wx` creates the temporary name afresh
 * (O_EXCL never follows a link), and a rename replaces the name itself, never a link's target.
 */
function writeAsCopy(abs: string, text: string, mode: number): void {
  const temp = join(dirname(abs), `.${basename(abs)}.ergraph-migrate-${process.pid}`);
  writeFileSync(temp, text, { mode, flag: 'wx' });
  renameSync(temp, abs);
}

/** One file's new text, written by `applyWrites` once the run is settled. */
export interface PlannedWrite {
  abs: string;
  text: string;
  /** The file the run read (`Listing.ids`, or the mapping read when planned); `undefined`: a file the run creates. */
  id: FileId | undefined;
}

/** How the skipped entry of a file a stopped run did not reach begins. */
export const NOT_REACHED = 'not written: the run was stopped';

/** A file and what is written with it (a manifest's mapping): all of it, or none. */
export type WriteGroup = PlannedWrite[];

/** A planned write that did not happen; `skip` when it is no error (a hard link, a stopped run). */
export interface NotWritten {
  abs: string;
  reason: string;
  skip: boolean;
  /** Not reached: the run was stopped (`MigrationOptions.signal`). */
  stopped?: boolean;
}

export interface WriteOptions {
  followHardlinks?: boolean;
  signal?: AbortSignal;
  onWritten?: (abs: string) => void | Promise<void>;
}

/** A descriptor of the planned file, checked to be the one read, with its mode and names; or why not. */
type Opened = { fd: number; mode: number; links: number } | { reason: string; skip: boolean };

function openPlanned(w: PlannedWrite, followHardlinks: boolean): Opened {
  let fd: number;
  try {
    // A file the run creates (a mapping): O_EXCL, so one put at the name since is not written over.
    fd = w.id ? openNoFollow(w.abs, constants.O_WRONLY) : openNoFollow(w.abs, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
  } catch (error) {
    if (!w.id && errorCode(error) === 'EEXIST') return { reason: 'a file appeared at this name after the run looked: not written over', skip: false };
    return { reason: whyNotOpened(w.abs, error), skip: false };
  }
  const stat = fstatSync(fd, { bigint: true });
  const links = Number(stat.nlink);
  const refuse = (reason: string, skip = false): Opened => {
    closeSync(fd);
    return { reason, skip };
  };
  if (w.id && !sameFile(idOf(stat), w.id)) return refuse('it was replaced by another file since the run read it: not written over');
  if (!stat.isFile()) return refuse('it is no longer a regular file');
  if (w.id && links > 1 && !followHardlinks) return refuse(hardLinkReason(links), true);
  return { fd, mode: Number(stat.mode) & 0o7777, links };
}

/** Writes a group once each of its files opened as the file planned; the reason per file when not. */
function writeGroup(group: WriteGroup, followHardlinks: boolean, rel: (abs: string) => string): NotWritten[] {
  const opened: { w: PlannedWrite; fd: number; mode: number; links: number }[] = [];
  for (const w of group) {
    const o = openPlanned(w, followHardlinks);
    if ('fd' in o) {
      opened.push({ w, ...o });
      continue;
    }
    for (const { fd } of opened) closeSync(fd);
    return group.map((other) => ({
      abs: other.abs,
      skip: o.skip,
      reason: other === w ? `not written: ${o.reason}` : `not written: it goes with ${rel(w.abs)}, which was not written (${o.reason})`,
    }));
  }
  const failed: NotWritten[] = [];
  for (const { w, fd, mode, links } of opened) {
    try {
      if (links > 1) writeAsCopy(w.abs, w.text, mode);
      else {
        // In place, through the descriptor checked above: the file keeps its inode, owner and mode.
        const bytes = Buffer.from(w.text);
        writeSync(fd, bytes, 0, bytes.length, 0);
        ftruncateSync(fd, bytes.length);
      }
    } catch (error) {
      failed.push({ abs: w.abs, skip: false, reason: `writing it failed (${errorCode(error)}): it may hold part of the new text; git checkout gives the old one back` });
    } finally {
      closeSync(fd);
    }
  }
  return failed;
}

/**
 * Writes each group, in order, each to the file the run read. Between groups the event loop turns,
 * so a signal handler can abort `signal`: the group being written is finished, the rest are
 * reported as not written and left as they are.
 */
export async function applyWrites(groups: readonly WriteGroup[], opts: WriteOptions, rel: (abs: string) => string): Promise<NotWritten[]> {
  const notWritten: NotWritten[] = [];
  for (const group of groups) {
    if (opts.signal?.aborted) {
      const reason = `${NOT_REACHED} (${String(opts.signal.reason)}) before it reached this file; run the command again to migrate it`;
      for (const w of group) notWritten.push({ abs: w.abs, reason, skip: true, stopped: true });
      continue;
    }
    const failed = writeGroup(group, opts.followHardlinks ?? false, rel);
    notWritten.push(...failed);
    if (failed.length < group.length) await opts.onWritten?.(group[0]!.abs);
    await turn();
  }
  return notWritten;
}

/**
 * A changed file the run does not write (held back, refused at the write, not reached): reported
 * as left alone, without the manual items and notes of the text it would have had (their lines
 * are in no file), so nothing reads as done or as waiting at a line that is not there.
 */
export function leaveUnwritten(report: FileReport): void {
  Object.assign(report, { after: report.before, changed: false, transforms: [], manual: [], notes: [], pending: [], notForThisApi: [] });
  delete report.manifest;
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
  /** The file each listed text was read from (`Listing.ids`). */
  ids: ReadonlyMap<string, FileId> = new Map(),
): { written: FileReport[]; writes: WriteGroup[] } {
  const only = opts.only;
  // A dry run reports the links the listing saw (its lstat of each file): asking the file system
  // again for each changed file was 1.5% of a dry run over 2,000 files. A write asks at the time
  // it writes, so a link made since the listing is still seen.
  const links = (abs: string) => (opts.dryRun && listed && texts.has(abs) ? (listed.get(abs) ?? 1) : linksOf(abs));
  // Companion files (a manifest's mapping): merged into what is on disk, written after their file.
  const written: FileReport[] = [];
  const writes: WriteGroup[] = [];
  const companionTexts = (list: readonly CompanionFile[], report: FileReport) => {
    const out: { abs: string; before: string; after: string; id: FileId | undefined }[] = [];
    for (const c of list) {
      const target = resolve(cwd, c.file);
      try {
        // Read as it is written: never through a link at the name (`same-file.ts`).
        const read = linksOf(target) > 0 ? readListed(target) : undefined;
        const before = read ? read.bytes.toString('utf8') : '';
        out.push({ abs: target, before, after: mergeCompanion(before, c.json, rel(target)), id: read?.id });
      } catch (error) {
        // Without its mapping the old ids are lost: the file itself is not written either.
        const code = errorCode(error);
        report.error =
          code === 'ELOOP' || code === 'EMLINK' || code === 'ENOTREG'
            ? `its mapping file ${rel(target)} is ${code === 'ENOTREG' ? 'not a regular file' : 'a symbolic link'}: not read or written through, so this file is not written either`
            : (error as Error).message;
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
      leaveUnwritten(report);
      continue;
    }
    for (const [f, n] of linked)
      report.notes.push(`${rel(f)}: had ${n} hard links: ${opts.dryRun ? 'would be written' : 'written'} as a new file (--follow-hardlinks); its other names keep the old text`);
    const group: WriteGroup = report.changed ? [{ abs, text: report.after, id: ids.get(abs) }] : [];
    if (group.length > 0 && !opts.dryRun) writes.push(group);
    for (const c of report.error ? [] : beside) {
      group.push({ abs: c.abs, text: c.after, id: c.id });
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
