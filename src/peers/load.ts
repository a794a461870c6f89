/**
 * Loading an optional peer from library code (issue 28.5). A static `import 'drizzle-orm'` in
 * `ergraph/orm` made Node resolve it before any of ergraph ran, so a project without it got only
 * `Cannot find package 'drizzle-orm'`. Loaded here instead, synchronously, on first use: a
 * missing package becomes the same one-line `MissingPeerError` the commands print, and entries
 * stay loadable by `require()` (a top-level `await import()` would make them async modules, which
 * CommonJS projects cannot `require`).
 *
 * The file loaded is the one `import` resolves to (a package's ES module build), required through
 * Node's require(esm): Node keeps one instance per file, so ergraph and the user's own
 * `import { pgTable } from 'drizzle-orm/pg-core'` share drizzle's classes. `require('drizzle-orm')`
 * would pick drizzle's CommonJS build, a second copy beside the user's.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { missingPeerError } from './peers.js';

/** The file `import(specifier)` would load from ergraph; throws Node's not-found error when the package is missing. */
export type Resolve = (specifier: string) => string;

const nodeRequire = createRequire(import.meta.url);

/**
 * `import.meta.resolve` applies the `import` condition of a package's `exports`; where a runtime
 * lacks it (a bundle, a CommonJS transform) `require.resolve` still finds the package.
 */
const resolveImport: Resolve = (specifier) =>
  typeof import.meta.resolve === 'function' ? fileURLToPath(import.meta.resolve(specifier)) : nodeRequire.resolve(specifier);

/** `drizzle-orm/pg-core` → `drizzle-orm`, `@electric-sql/pglite` → itself. */
export const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const NOT_FOUND = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/**
 * The modules of `specifiers`, in order. When any of their packages is missing, nothing is loaded
 * and a `MissingPeerError` names all of them: `<what> needs drizzle-orm, which is not installed:
 * npm install drizzle-orm@0.45`.
 */
export function loadPeers(what: string, specifiers: readonly string[], resolve: Resolve = resolveImport): unknown[] {
  const files: string[] = [];
  const missing = new Set<string>();
  for (const specifier of specifiers) {
    try {
      files.push(resolve(specifier));
    } catch (error) {
      // Another failure (a version without this subpath in its `exports`) is not "install it".
      if (!NOT_FOUND.has((error as { code?: string }).code ?? '')) throw error;
      missing.add(packageOf(specifier));
    }
  }
  if (missing.size > 0) throw missingPeerError(what, [...missing]);
  return files.map((file) => nodeRequire(file) as unknown);
}
