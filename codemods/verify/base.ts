/**
 * `verify --base <ref>`: a migration already committed on a branch, checked before it is merged.
 * The v5 documents are read from `<ref>` (the commit before the migration, e.g. `origin/main`),
 * the migrated ones from the work tree, and paired file by file, in order: what runs through v6
 * is the document the PR really contains, not one migrated again in memory. Manifests are read
 * from the work tree, through the `.v6-map.json` the migration wrote.
 */
import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { UsageError } from '../../src/cli-kit/usage.js';
import { toPosix } from '../runner/files.js';
import { DOCUMENT_EXTENSIONS, documentsOf, type Found, type FoundDocument } from './find.js';
import { DocumentModules } from './imports.js';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
}

/** `<ref>`'s documents under `paths` (names relative to cwd, as the work tree's are). */
function documentsAt(ref: string, paths: readonly string[], cwd: string, ignore: readonly string[]): Found {
  try {
    git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`--base ${ref}: not a commit of the git repository at ${cwd}`);
  }
  const isIgnored = ignore.length > 0 ? picomatch([...ignore], { dot: true }) : () => false;
  const listed = git(cwd, ['ls-tree', '-r', '--name-only', '-z', ref, '--', ...paths]).split('\0').filter(Boolean);
  const found: Found = { documents: [], mapping: {}, skipped: [] };
  // Fragments a document imports are read at the same commit.
  const modules = new DocumentModules((abs) => {
    try {
      return git(cwd, ['show', `${ref}:./${toPosix(relative(cwd, abs))}`]);
    } catch {
      return undefined;
    }
  });
  for (const file of listed) {
    if (isIgnored(file) || !DOCUMENT_EXTENSIONS.some((e) => file.toLowerCase().endsWith(e)) || file.toLowerCase().endsWith('.json')) continue;
    if (file.split('/').some((part) => part === 'node_modules' || part === 'dist' || part === 'build')) continue;
    documentsOf(resolve(cwd, file), file, git(cwd, ['show', `${ref}:./${file}`]), found, modules, false);
  }
  return found;
}

function byFile(documents: readonly FoundDocument[]): Map<string, FoundDocument[]> {
  const map = new Map<string, FoundDocument[]>();
  for (const d of documents) map.set(d.file, [...(map.get(d.file) ?? []), d]);
  return map;
}

/** The base's documents, each paired with the work tree's document at its place; the work tree's manifests as they are. */
export function pairWithBase(ref: string, paths: readonly string[], cwd: string, ignore: readonly string[], current: Found): Found {
  const base = documentsAt(ref, paths, cwd, ignore);
  const now = byFile(current.documents.filter((d) => !d.file.toLowerCase().endsWith('.json')));
  const documents: FoundDocument[] = [];
  for (const [file, before] of byFile(base.documents)) {
    const after = now.get(file);
    if (!after || after.length !== before.length) {
      const reason = !after
        ? `its file has no documents in the work tree (moved or deleted since ${ref}?): nothing to pair it with`
        : `${file} has ${before.length} documents at ${ref} and ${after.length} in the work tree: verify pairs them in order only when the counts agree`;
      for (const d of before) documents.push({ ...d, notRun: { cause: 'unpaired', reason } });
      continue;
    }
    before.forEach((d, i) => documents.push({ ...d, line: after[i]!.line, v6: after[i]!.text, ...(after[i]!.notRun ? { notRun: after[i]!.notRun } : {}) }));
  }
  documents.push(...current.documents.filter((d) => d.file.toLowerCase().endsWith('.json')));
  return { documents, mapping: current.mapping, skipped: [...base.skipped, ...current.skipped] };
}
