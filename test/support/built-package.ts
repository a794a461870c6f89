/**
 * The built package (`npm run build` → dist), as a user's project resolves `ergraph`: tests that
 * type-check migrated code or load a user's ER graph link it as `node_modules/ergraph`. CI builds
 * before testing; a checkout without dist gets one clear failure, not a skip.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export function builtPackage(): string {
  if (!existsSync(join(REPO, 'dist', 'src', 'index.js')) || !existsSync(join(REPO, 'dist', 'src', 'index.d.ts')))
    throw new Error('the built package is missing: run `npm run build` first (CI does)');
  return REPO;
}

/** `dir/node_modules/ergraph` → the built package, plus the packages it needs (zod, graphql, …) through the repository's node_modules. */
export function linkErgraph(dir: string): void {
  builtPackage();
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  symlinkSync(REPO, join(modules, 'ergraph'), 'dir');
  for (const dep of ['zod', 'graphql', 'dataloader', 'tsx', '@types']) symlinkSync(join(REPO, 'node_modules', dep), join(modules, dep), 'dir');
}
