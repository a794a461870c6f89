/**
 * The files a run reads: those under its paths that a step handles (a JSON file only when a step
 * claims it), less what git ignores; each with its text and an empty report.
 */
import { readFileSync } from 'node:fs';
import { handles } from '../apply.js';
import type { Transform } from '../types.js';
import { collectFiles, type SkippedEntry } from './files.js';
import { ignoredByGit } from './git.js';
import type { FileReport, MigrationOptions } from './types.js';

export interface Listing {
  /** Each file's text by absolute path: its text as read, then as the steps leave it. */
  texts: Map<string, string>;
  reports: Map<string, FileReport>;
  skipped: SkippedEntry[];
  ignored: ReadonlySet<string>;
}

export function listFiles(steps: readonly Transform[], opts: MigrationOptions, cwd: string, rel: (abs: string) => string): Listing {
  const extensions = [...new Set(steps.flatMap((t) => t.extensions))];
  const collected = collectFiles(opts.paths, { cwd, ignore: opts.ignore ?? [], extensions });
  const ignored = opts.gitignore === false ? new Set<string>() : ignoredByGit(collected.files);
  const skipped = [...collected.skipped];
  const reports = new Map<string, FileReport>();
  const texts = new Map<string, string>();
  for (const abs of collected.files) {
    if (ignored.has(abs)) continue;
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch (error) {
      skipped.push({ file: rel(abs), reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
      continue;
    }
    // JSON files are read by content: only the manifests a step claims are part of the run.
    if (!steps.some((t) => handles(t, abs) && (!t.claims || t.claims(text, abs)))) continue;
    texts.set(abs, text);
    reports.set(abs, { file: rel(abs), changed: false, transforms: [], manual: [], notes: [], pending: [], notForThisApi: [], before: text, after: text });
  }
  return { texts, reports, skipped, ignored };
}
