/**
 * The files a run reads: those under its paths that a step handles (a JSON file only when a step
 * claims it), less what git ignores; each with its text and an empty report.
 */
import { handles } from '../apply.js';
import type { Transform } from '../types.js';
import { collectFiles, type SkippedEntry } from './files.js';
import { ignoredByGit } from './git.js';
import { errorCode, readListed, type FileId } from './same-file.js';
import type { FileReport, MigrationOptions } from './types.js';

/**
 * Why a file is left alone when its bytes are not UTF-8: decoded the lenient way, every invalid
 * byte would become U+FFFD and be written back in lines no step meant to change.
 */
export const NOT_UTF8 = 'not valid UTF-8 (another encoding?): not read, left byte-identical; convert it to UTF-8 to migrate it';

/**
 * The file's text, or undefined when it is not UTF-8. `ignoreBOM` keeps a byte-order mark in the
 * text, so it is written back as it was.
 */
function decoded(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export interface Listing {
  /** Each file's text by absolute path: its text as read, then as the steps leave it. */
  texts: Map<string, string>;
  reports: Map<string, FileReport>;
  skipped: SkippedEntry[];
  ignored: ReadonlySet<string>;
  /** Files with more than one hard link when listed (`Collected.linked`). */
  linked: ReadonlyMap<string, number>;
  /** The file each text was read from: a write goes to that file only (`same-file.ts`). */
  ids: Map<string, FileId>;
}

/** Why a listed file could not be read: a link or a special file put at its name since it was listed is said as such. */
function unreadable(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ELOOP' || code === 'EMLINK') return 'became a symbolic link while the run listed it: not followed';
  if (code === 'ENOTREG') return 'is no longer a regular file (replaced while the run listed it): not read';
  return `cannot read: ${code}`;
}

export function listFiles(steps: readonly Transform[], opts: MigrationOptions, cwd: string, rel: (abs: string) => string): Listing {
  const extensions = [...new Set(steps.flatMap((t) => t.extensions))];
  const collected = collectFiles(opts.paths, { cwd, ignore: opts.ignore ?? [], extensions });
  const ignored = opts.gitignore === false ? new Set<string>() : ignoredByGit(collected.files);
  const skipped = [...collected.skipped];
  const reports = new Map<string, FileReport>();
  const texts = new Map<string, string>();
  const ids = new Map<string, FileId>();
  for (const abs of collected.files) {
    if (ignored.has(abs)) continue;
    let bytes: Buffer;
    try {
      const read = readListed(abs);
      bytes = read.bytes;
      ids.set(abs, read.id);
    } catch (error) {
      skipped.push({ file: rel(abs), reason: unreadable(error) });
      continue;
    }
    const text = decoded(bytes);
    if (text === undefined) {
      skipped.push({ file: rel(abs), reason: NOT_UTF8 });
      continue;
    }
    // JSON files are read by content: only the manifests a step claims are part of the run.
    if (!steps.some((t) => handles(t, abs) && (!t.claims || t.claims(text, abs)))) continue;
    texts.set(abs, text);
    reports.set(abs, { file: rel(abs), changed: false, transforms: [], manual: [], notes: [], pending: [], notForThisApi: [], before: text, after: text });
  }
  return { texts, reports, skipped, ignored, linked: collected.linked, ids };
}
