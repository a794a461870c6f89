/**
 * Which package manager a project uses, so every hint names its commands: `pnpm add` in a pnpm
 * project even when the command was started with `npx`. The project says it first — package.json
 * `packageManager` (Corepack) or a lockfile, in the nearest folder up from `cwd` that has either
 * (a workspace package's lockfile is at the workspace root) — then the manager running this
 * process (`npm_config_user_agent`, set by npm, pnpm, yarn and bun), then npm.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';

export type PackageManagerName = 'npm' | 'pnpm' | 'yarn' | 'bun';

export interface PackageManager {
  name: PackageManagerName;
  /** Adds packages: `pnpm add`. */
  add: string;
  /** Installs what package.json lists: `pnpm install`. */
  install: string;
  /** Folds duplicate copies into one, where the manager has such a command. */
  dedupe?: string;
}

const MANAGERS: Record<PackageManagerName, PackageManager> = {
  npm: { name: 'npm', add: 'npm install', install: 'npm install', dedupe: 'npm dedupe' },
  pnpm: { name: 'pnpm', add: 'pnpm add', install: 'pnpm install', dedupe: 'pnpm dedupe' },
  yarn: { name: 'yarn', add: 'yarn add', install: 'yarn install', dedupe: 'yarn dedupe' },
  bun: { name: 'bun', add: 'bun add', install: 'bun install' },
};

const LOCKFILES: readonly [string, PackageManagerName][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const named = (text: string | undefined): PackageManagerName | undefined => {
  const name = /^(npm|pnpm|yarn|bun)[@/]/.exec(text ?? '')?.[1];
  return name as PackageManagerName | undefined;
};

function declared(dir: string): PackageManagerName | undefined {
  const manifest = join(dir, 'package.json');
  if (existsSync(manifest)) {
    try {
      const field = (JSON.parse(readFileSync(manifest, 'utf8')) as { packageManager?: unknown }).packageManager;
      const name = named(typeof field === 'string' ? field : undefined);
      if (name) return name;
    } catch {
      // A package.json that does not parse says nothing about its manager; the lockfiles may.
    }
  }
  return LOCKFILES.find(([file]) => existsSync(join(dir, file)))?.[1];
}

export function packageManager(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): PackageManager {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const name = declared(dir);
    if (name) return MANAGERS[name];
    if (dir === parse(dir).root) break;
  }
  return MANAGERS[named(env.npm_config_user_agent) ?? 'npm'];
}
