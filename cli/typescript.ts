/**
 * tsx's hooks, for the `ergraph` commands that load a user's TypeScript module (`--app`). tsx is
 * an optional peer: it brings esbuild, whose install script pnpm refuses by default, and a
 * server's install of ergraph needs none of it (an app loaded as compiled JavaScript needs no
 * hooks). A project writing TypeScript has it already (the docs' dev tools line installs it).
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join, sep } from 'node:path';
import { requirePeers } from '../src/peers/peers.js';

let registered: Promise<void> | undefined;

/**
 * tsx's hooks for the whole process, CommonJS and ESM both, as its own CLI registers them: the
 * user's modules and the `ergraph` they import must be one instance (`tsImport` would give each
 * call a module graph of its own). With the ESM hooks alone, a project without `"type": "module"`
 * (npm's default) failed on Node 20.19+: a `.ts` file there is CommonJS, and Node answered the
 * import with "Cannot require() ES Module ... in a cycle". Without tsx installed it rejects with
 * the one-line `MissingPeerError`: `<what> needs tsx, which is not installed: npm install tsx@4`.
 */
export function registerTypeScript(what: string): Promise<void> {
  return (registered ??= (async () => {
    requirePeers(what, ['tsx']);
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
    const nativeJs = extensions['.js']!;
    cjs.register();
    loadDependencyEsmNatively(nativeJs);
    esm.register();
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

