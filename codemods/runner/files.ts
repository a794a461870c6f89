/** Which files a run reads: the given files and directories, minus ignored globs and build output. */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';

/** Never migrated: dependencies, VCS data and build output are not the user's sources. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'coverage']);

export interface FileSelection {
  cwd: string;
  ignore: readonly string[];
  extensions: readonly string[];
}

function toPosix(p: string): string {
  return p.split(sep).join('/');
}

export function collectFiles(paths: readonly string[], { cwd, ignore, extensions }: FileSelection): string[] {
  const isIgnored = ignore.length > 0 ? picomatch([...ignore], { dot: true }) : () => false;
  const ignored = (abs: string) => {
    const rel = toPosix(relative(cwd, abs));
    return isIgnored(rel) || isIgnored(`${rel}/`);
  };
  const found = new Set<string>();
  const visit = (abs: string): void => {
    if (ignored(abs)) return;
    const stat = statSync(abs);
    if (stat.isDirectory()) {
      for (const name of readdirSync(abs).sort()) {
        if (!SKIPPED_DIRS.has(name)) visit(join(abs, name));
      }
    } else if (stat.isFile() && extensions.some((ext) => abs.endsWith(ext))) found.add(abs);
  };
  for (const p of paths) visit(resolve(cwd, p));
  return [...found];
}
