/** The dirty-tree guard: a migration should be easy to review and revert with git. */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** Work trees holding any of the paths that have uncommitted changes, with their status lines. */
export function dirtyWorkTrees(paths: readonly string[], cwd: string): { root: string; status: string }[] {
  const roots = new Set<string>();
  for (const p of paths) {
    const abs = resolve(cwd, p);
    const dir = existsSync(abs) && statSync(abs).isDirectory() ? abs : dirname(abs);
    const root = git(dir, ['rev-parse', '--show-toplevel'])?.trim();
    if (root) roots.add(root);
  }
  const dirty: { root: string; status: string }[] = [];
  for (const root of roots) {
    const status = git(root, ['status', '--porcelain']);
    if (status && status.trim() !== '') dirty.push({ root, status: status.trimEnd() });
  }
  return dirty;
}
