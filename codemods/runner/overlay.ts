/**
 * A temporary copy of the project where the run's files hold their migrated text and everything
 * else (node_modules, package.json, assets) is a symbolic link to the original: `upgrade --to 6`
 * loads the user's ER graph from code that is only migrated in memory so far.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

export interface Overlay {
  dir: string;
  /** Where an original file is in the copy; undefined outside the copied root. */
  map(file: string): string | undefined;
  dispose(): void;
}

export function createOverlay(root: string, texts: ReadonlyMap<string, string>): Overlay {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-migrate-overlay-'));
  const inside = (file: string) => {
    const rel = relative(root, file);
    return rel && !rel.startsWith('..') && !rel.startsWith(sep) ? rel : undefined;
  };
  // Directories that hold a migrated file are real in the copy; every other entry is a link.
  const realDirs = new Set<string>(['']);
  for (const file of texts.keys()) {
    const rel = inside(file);
    if (!rel) continue;
    for (let d = dirname(rel); d !== '.' && !realDirs.has(d); d = dirname(d)) realDirs.add(d);
  }
  for (const d of realDirs) {
    mkdirSync(join(dir, d), { recursive: true });
    for (const name of readdirSync(join(root, d))) {
      const rel = d ? join(d, name) : name;
      if (realDirs.has(rel)) continue;
      const original = join(root, rel);
      if (texts.has(original)) writeFileSync(join(dir, rel), texts.get(original)!);
      else {
        const stat = lstatSync(original);
        symlinkSync(original, join(dir, rel), stat.isDirectory() ? 'dir' : 'file');
      }
    }
  }
  return {
    dir,
    map: (file) => {
      const rel = inside(file);
      return rel ? join(dir, rel) : undefined;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
