/** Finding installed packages the way Node does, for `ergraph doctor` and `ergraph demo`. */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readJson = (file: string): PackageJson => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;

/** The ergraph package's own folder: the nearest package.json named ergraph above this file. */
export function ergraphRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && readJson(file).name === 'ergraph') return dir;
    if (dir === parse(dir).root) throw new Error('cannot find the ergraph package.json above ' + fileURLToPath(import.meta.url));
  }
}

export const ergraphPackage = (): PackageJson => readJson(join(ergraphRoot(), 'package.json'));

export interface Installed {
  name: string;
  version: string;
  dir: string;
}

/**
 * The copy of `name` code in `fromDir` gets: the first `node_modules/<name>` walking up, as
 * Node's resolution finds it. Read from the folder rather than through `require.resolve`, because
 * packages with an `exports` map need not expose their package.json.
 */
export function installedFrom(name: string, fromDir: string): Installed | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return { name, version: readJson(file).version ?? '?', dir: realpathSync(dirname(file)) };
    if (dir === parse(dir).root) return undefined;
  }
}

/** The file `require('graphql')` loads from `fromDir`, resolved through symlinks; undefined if none. */
export function graphqlEntryFrom(fromDir: string): string | undefined {
  try {
    return realpathSync(createRequire(join(fromDir, 'noop.js')).resolve('graphql'));
  } catch {
    return undefined;
  }
}

/**
 * Whether `version` satisfies a caret range `^M.m.p` (the only form ergraph's package.json
 * uses): same major and not older, or for `^0.m.p` same minor. Other ranges are not judged.
 */
export function satisfiesCaret(version: string, range: string): boolean | undefined {
  const want = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
  const have = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!want || !have) return undefined;
  const [w, h] = [want.slice(1).map(Number), have.slice(1).map(Number)] as [number[], number[]];
  const cmp = h[0]! - w[0]! || h[1]! - w[1]! || h[2]! - w[2]!;
  if (cmp < 0) return false;
  return w[0]! > 0 ? h[0] === w[0] : h[1] === w[1] && h[0] === 0;
}
