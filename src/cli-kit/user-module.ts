/**
 * Loading a module of the user's project (`--app`, the ER graph `ergraph-migrate` looks for), the
 * one way every command does it: TypeScript through tsx, ESM or CommonJS as the project says.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export class TypeScriptLoaderMissing extends Error {
  override name = 'TypeScriptLoaderMissing';
}

let registered: Promise<void> | undefined;

/**
 * tsx's hooks for the whole process, CommonJS and ESM both, as its own CLI registers them: the
 * user's modules and the `ergraph` they import must be one instance (`tsImport` would give each
 * call a module graph of its own). With the ESM hooks alone, a project without `"type": "module"`
 * (npm's default) failed on Node 20.19+: a `.ts` file there is CommonJS, and Node answered the
 * import with "Cannot require() ES Module ... in a cycle". `tsconfig` replaces the one tsx finds
 * from the working directory (its `paths` resolve from where it is); the first call's counts.
 */
export function registerTypeScript(tsconfig?: string): Promise<void> {
  return (registered ??= (async () => {
    try {
      const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
      // tsx's CommonJS hooks read their tsconfig from the environment, once, when registered.
      const previous = process.env.TSX_TSCONFIG_PATH;
      if (tsconfig) process.env.TSX_TSCONFIG_PATH = tsconfig;
      try {
        cjs.register();
      } finally {
        if (previous === undefined) delete process.env.TSX_TSCONFIG_PATH;
        else process.env.TSX_TSCONFIG_PATH = previous;
      }
      esm.register(tsconfig ? { tsconfig } : {});
    } catch {
      registered = undefined;
      throw new TypeScriptLoaderMissing('loading TypeScript modules needs tsx (npm i -D tsx)');
    }
  })());
}

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
  if (/\.[cm]?tsx?$/.test(file)) await registerTypeScript();
  const ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const cjs = ns.default as { __esModule?: unknown } | null | undefined;
  const commonjs = !!cjs && typeof cjs === 'object' && cjs.__esModule === true;
  const require = createRequire(file);
  return {
    exports: commonjs ? (cjs as Record<string, unknown>) : ns,
    load: async (specifier) => (commonjs ? require(specifier) : import(pathToFileURL(require.resolve(specifier)).href)),
  };
}
