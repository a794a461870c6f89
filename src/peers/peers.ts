/**
 * Optional peers (package.json `peerDependenciesMeta`): a command or an import path that needs one
 * checks for all it needs before it loads any, so a project with a plain `npm install ergraph`
 * gets one line naming every missing package and the command that installs them, not Node's
 * module error for the first. Commands call `requirePeers`; library code loads peers through
 * `load.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedVersion } from './installed.js';
import { packageManager } from './package-manager.js';

/** Packages that are not installed: a command exits 1 with the one-line message; an import path throws it. */
export class MissingPeerError extends Error {
  override name = 'MissingPeerError';
}

interface Manifest {
  name?: string;
  peerDependencies?: Record<string, string>;
}

function ergraphManifest(): { dir: string; manifest: Manifest } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      if (manifest.name === 'ergraph') return { dir, manifest };
    }
    if (dir === parse(dir).root) throw new Error(`cannot find the ergraph package.json above ${fileURLToPath(import.meta.url)}`);
  }
}

/** Whether code in ergraph can import `name` (installed.ts says how that is found). */
export function isInstalled(name: string, fromDir = ergraphManifest().dir): boolean {
  return installedVersion(name, fromDir) !== undefined;
}

/** `^8.11.0` → `8`, `^0.45.0` → `0.45` (what a user types); another range is quoted whole. */
function versionSpec(range: string | undefined): string {
  if (!range) return '';
  const caret = /^\^(\d+)\.(\d+)\.\d+$/.exec(range);
  if (caret) return `@${caret[1] === '0' ? `0.${caret[2]}` : caret[1]}`;
  return `@${range}`;
}

/** `npm install pg@8 drizzle-orm@0.45`, with the majors ergraph's peer ranges want, in the project's package manager. */
export function installCommand(names: readonly string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  const peers = ergraphManifest().manifest.peerDependencies ?? {};
  const specs = names.map((name) => {
    const spec = `${name}${versionSpec(peers[name])}`;
    return /[\s|<>]/.test(spec) ? `"${spec}"` : spec;
  });
  return `${packageManager(env, cwd).add} ${specs.join(' ')}`;
}

const list = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** The packages of `names` that are missing; empty when all are there. */
export const missingPeers = (names: readonly string[]): string[] => {
  const dir = ergraphManifest().dir;
  return names.filter((name) => !isInstalled(name, dir));
};

/**
 * Throws a `MissingPeerError` when any of `names` is missing: `<what> needs <packages>, not
 * installed: <install command>`. Call it before importing anything that imports them.
 */
export function requirePeers(what: string, names: readonly string[], env: Record<string, string | undefined> = process.env): void {
  const missing = missingPeers(names);
  if (missing.length > 0) throw missingPeerError(what, missing, env);
}

/** `<what> needs <packages>, which are not installed: <install command>`. */
export function missingPeerError(what: string, missing: readonly string[], env: Record<string, string | undefined> = process.env): MissingPeerError {
  return new MissingPeerError(`${what} needs ${list(missing)}, ${missing.length === 1 ? 'which is' : 'which are'} not installed: ${installCommand(missing, env)}`);
}

/** The packages a usage database URL needs (compat report, schema diff --usage); none for `memory:` or an unknown scheme. */
export function usageStorePeers(url: string): string[] {
  if (/^postgres(ql)?:\/\//i.test(url)) return ['pg', 'drizzle-orm'];
  if (/^(pglite|file):/i.test(url)) return ['@electric-sql/pglite', 'drizzle-orm'];
  return [];
}
