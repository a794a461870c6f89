/**
 * Loading a module of the user's project (`--app`, the ER graph `ergraph-migrate` looks for), the
 * one way every command does it: TypeScript through tsx, ESM or CommonJS as the project says.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
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
      const nativeJs = extensions['.js']!;
      try {
        cjs.register();
        loadDependencyEsmNatively(nativeJs);
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

type LoadHook = (this: unknown, module: unknown, filename: string) => void;
const extensions = (Module as unknown as { _extensions: Record<string, LoadHook> })._extensions;

/**
 * tsx's CommonJS hooks compile every ES module a CommonJS module requires into a CommonJS copy of
 * its own, installed packages too. A CommonJS project's `require('ergraph')` then got a second
 * ergraph, and its `require('graphql')` a second graphql (graphql 17 ships ES modules, and Node
 * resolves its `module-sync` condition for `require` too), beside the ones this CLI imported:
 * graphql's `instanceof` checks failed across the two ("Unexpected type: User"). Where Node itself
 * can `require` an ES module (20.19+, 22.12+), an installed package's ES modules are left to Node,
 * which hands out the one instance its ESM loader holds; the user's own files still go to tsx.
 */
function loadDependencyEsmNatively(nativeJs: LoadHook): void {
  if (!process.features.require_module) return;
  for (const ext of ['.js', '.mjs']) {
    const tsx = extensions[ext];
    if (!tsx || tsx === nativeJs) continue;
    extensions[ext] = function (this: unknown, module: unknown, filename: string) {
      return (isDependencyEsm(filename) ? nativeJs : tsx).call(this, module, filename);
    };
  }
}

const packageTypes = new Map<string, string | undefined>();

/** An ES module of an installed package, by Node's rules: `.mjs`, or `.js` under `"type": "module"`. */
function isDependencyEsm(filename: string): boolean {
  if (!filename.includes(`${sep}node_modules${sep}`)) return false;
  if (filename.endsWith('.mjs')) return true;
  return filename.endsWith('.js') && packageType(dirname(filename)) === 'module';
}

function packageType(dir: string): string | undefined {
  if (packageTypes.has(dir)) return packageTypes.get(dir);
  let type: string | undefined;
  try {
    type = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type ?? 'commonjs';
  } catch {
    type = dirname(dir) === dir ? undefined : packageType(dirname(dir));
  }
  packageTypes.set(dir, type);
  return type;
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
export async function importUserModule(file: string, { registerTsx = true }: { registerTsx?: boolean } = {}): Promise<UserModule> {
  // `registerTsx: false`: the caller has TypeScript hooks of its own (the migrate sandbox, where tsx cannot start esbuild).
  if (registerTsx && /\.[cm]?tsx?$/.test(file)) await registerTypeScript();
  const ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const cjs = ns.default as { __esModule?: unknown } | null | undefined;
  const commonjs = !!cjs && typeof cjs === 'object' && cjs.__esModule === true;
  const require = createRequire(file);
  return {
    exports: commonjs ? (cjs as Record<string, unknown>) : ns,
    load: async (specifier) => (commonjs ? require(specifier) : import(pathToFileURL(require.resolve(specifier)).href)),
  };
}
