/**
 * TypeScript for the sandboxed schema lookup (sandbox.ts), without tsx: tsx compiles through
 * esbuild, a binary it starts as a child process, which the sandbox forbids. TypeScript's own
 * `transpileModule` runs in the process. These are the ESM hooks (module.register, given as a
 * `data:` URL so the same text serves the sources and the build); `requireTypeScript` is the
 * CommonJS side. Both resolve what tsx resolves for a project: `./x` and `./x.js` to `x.ts`,
 * a folder to its `index.ts`, and the tsconfig's `paths`.
 */
import { readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import type { ts as Ts } from 'ts-morph';

/**
 * The ESM hooks' text; `initialize` gets `{ from, settings }`: a file URL from which `ts-morph`
 * resolves (its copy of TypeScript is the one the codemods parse with; `typescript` itself is no
 * dependency), and the tsconfig's `Settings` as JSON.
 */
const HOOKS = String.raw`
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
let ts, options = {}, aliases = [];
export async function initialize(data) {
  ts = createRequire(data.from)('ts-morph').ts;
  if (data.settings) ({ options, aliases } = JSON.parse(data.settings));
}
const TS = /\.[cm]?tsx?$/;
function alternatives(spec) {
  if (/\.[cm]?js$/.test(spec)) return [spec.replace(/js$/, 'ts'), spec.replace(/\.js$/, '.tsx')];
  if (/\.[a-z]+$/i.test(spec.split('/').pop())) return [];
  return [spec + '.ts', spec + '.tsx', spec + '.js', spec + '/index.ts', spec + '/index.tsx', spec + '/index.js'];
}
function aliased(spec) {
  const out = [];
  for (const [prefix, suffix, targets] of aliases) {
    if (!spec.startsWith(prefix) || !spec.endsWith(suffix) || spec.length < prefix.length + suffix.length) continue;
    const star = spec.slice(prefix.length, spec.length - suffix.length);
    for (const t of targets) out.push(pathToFileURL(t.replace('*', star)).href);
  }
  return out;
}
export async function resolve(spec, ctx, next) {
  try {
    return await next(spec, ctx);
  } catch (error) {
    const tries = /^(\.{1,2}\/|\/|file:)/.test(spec) ? alternatives(spec) : aliased(spec).flatMap((t) => [t, ...alternatives(t)]);
    for (const t of tries) {
      try {
        return await next(t, ctx);
      } catch {}
    }
    throw error;
  }
}
function packageType(dir) {
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try { return JSON.parse(readFileSync(file, 'utf8')).type === 'module' ? 'module' : 'commonjs'; } catch { return 'commonjs'; }
    }
    if (dirname(dir) === dir) return 'commonjs';
    dir = dirname(dir);
  }
}
export async function load(url, ctx, next) {
  if (!url.startsWith('file:') || !TS.test(url)) return next(url, ctx);
  const file = fileURLToPath(url);
  const format = /\.mts$/.test(file) ? 'module' : /\.cts$/.test(file) ? 'commonjs' : packageType(dirname(file));
  // CommonJS goes through require, where requireTypeScript compiles it.
  if (format === 'commonjs') return { format, shortCircuit: true };
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { ...options, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false, inlineSourceMap: true, declaration: false, noEmit: false },
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
`;

export const HOOKS_URL = `data:text/javascript,${encodeURIComponent(HOOKS)}`;

export interface Settings {
  options: Ts.CompilerOptions;
  /** `paths` patterns as [prefix, suffix, absolute targets with their `*`]. */
  aliases: [string, string, string[]][];
}

/** The compiler options and path aliases of a tsconfig, as tsx would read them. */
export function settingsOf(ts: typeof Ts, tsconfig: string | undefined): Settings {
  if (!tsconfig) return { options: {}, aliases: [] };
  const read = ts.readConfigFile(tsconfig, (f) => readFileSync(f, 'utf8'));
  const parsed = ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, dirname(tsconfig));
  const base = parsed.options.baseUrl ?? (parsed.options as { pathsBasePath?: string }).pathsBasePath ?? dirname(tsconfig);
  const aliases = Object.entries(parsed.options.paths ?? {}).map(([pattern, targets]) => {
    const [prefix, suffix = ''] = pattern.split('*');
    return [prefix!, suffix, targets.map((t) => join(base, t))] as [string, string, string[]];
  });
  return { options: parsed.options, aliases };
}

/** `require` of `.ts`/`.tsx`/`.cts` files (and of `paths` aliases) in this process, compiled by TypeScript. */
export function requireTypeScript(ts: typeof Ts, settings: Settings): void {
  const Module = createRequire(import.meta.url)('node:module') as {
    _extensions: Record<string, (m: { _compile(code: string, file: string): void }, file: string) => void>;
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const compile = (m: { _compile(code: string, file: string): void }, file: string) => {
    const out = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { ...settings.options, module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: false, inlineSourceMap: true, declaration: false, noEmit: false },
    });
    m._compile(out.outputText, file);
  };
  for (const ext of ['.ts', '.tsx', '.cts']) Module._extensions[ext] = compile;
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request: string, ...rest: unknown[]) {
    try {
      return original.call(this, request, ...rest);
    } catch (error) {
      for (const [prefix, suffix, targets] of settings.aliases) {
        if (!request.startsWith(prefix) || !request.endsWith(suffix)) continue;
        const star = request.slice(prefix.length, request.length - suffix.length);
        for (const t of targets) {
          try {
            return original.call(this, t.replace('*', star), ...rest);
          } catch {
            // the next target
          }
        }
      }
      throw error;
    }
  };
}

let hooked = false;

/**
 * The same hooks in this process, once: `verify --app` runs the app's handlers here rather than
 * in the sandbox. ergraph-migrate loads a user's TypeScript this way everywhere and ships no tsx,
 * whose esbuild has an install script that pnpm refuses by default.
 */
export function registerTypeScriptHooks(ts: typeof Ts, tsconfig: string | undefined): void {
  if (hooked) return;
  hooked = true;
  const settings = settingsOf(ts, tsconfig);
  register(HOOKS_URL, { data: { from: import.meta.url, settings: JSON.stringify(settings) } });
  requireTypeScript(ts, settings);
}
