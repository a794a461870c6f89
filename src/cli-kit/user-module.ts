/**
 * Loading a module of the user's project (`--app`, the ER graph `ergraph-migrate` looks for), the
 * one way both command lines do it: ESM or CommonJS as the project says. TypeScript needs hooks
 * registered first, each command line its own: `ergraph` registers tsx (cli/typescript.ts, an
 * optional peer), `ergraph-migrate` TypeScript's own transpiler (codemods/v5-to-v6/sandbox-hooks.ts),
 * as it ships without esbuild.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export interface UserModule {
  exports: Record<string, unknown>;
  /**
   * A package as this module gets it, for a caller that must share its instance (classes checked
   * by identity): `require` from a CommonJS module, which tsx's hooks give a copy of an ESM
   * package of their own, and `import` from an ES module.
   */
  load(specifier: string): Promise<unknown>;
}

/**
 * Imports a module of the user's. A CommonJS module compiled from ESM syntax (by tsx, tsc or
 * Babel: marked `__esModule`) reaches `import()` as `{ default: module.exports }`, whatever names
 * it exports; its `module.exports` is what the user declared.
 */
export async function importUserModule(file: string): Promise<UserModule> {
  const ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const cjs = ns.default as { __esModule?: unknown } | null | undefined;
  const commonjs = !!cjs && typeof cjs === 'object' && cjs.__esModule === true;
  const require = createRequire(file);
  return {
    exports: commonjs ? (cjs as Record<string, unknown>) : ns,
    load: async (specifier) => (commonjs ? require(specifier) : import(pathToFileURL(require.resolve(specifier)).href)),
  };
}
