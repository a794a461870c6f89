/**
 * The compat layer `verify --app` runs v5 documents through: the project's own `ergraph/compat`,
 * loaded as the app module loads its packages, so the app, its ergraph and its graphql are one
 * set. ergraph-migrate carries no ergraph of its own: it runs with npx in projects still on
 * ergraph 3, 4 or 5, whose peers (zod 3, an older graphql) an ergraph 6 dependency would fight.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { installedVersion } from '../../src/peers/installed.js';
import { packageManager } from '../../src/peers/package-manager.js';
import { packageVersion } from '../../src/peers/version.js';
import type { PersistedMapping } from '../../compat/persisted.js';
import type { Answer } from '../../compat/v6-form/answers.js';
import type { Handlerish } from '../v5-to-v6/sources.js';

/** What verify uses of `createCompatHandler`'s result (ergraph/compat's `CompatHandler`). */
export interface ProjectCompat {
  execute(query: string | undefined, opts: { variables?: Record<string, unknown>; operationName?: string; client?: string; documentId?: string }): Promise<Answer>;
  usage: { close(): Promise<void> };
}

export type CreateCompat = (handler: Handlerish, options: { persisted?: { mapping: PersistedMapping } }) => ProjectCompat;

/** The major of ergraph this ergraph-migrate migrates to (the two packages share their version). */
const targetMajor = () => packageVersion(import.meta.url).split('.')[0]!;

/**
 * The version of the ergraph the app module's `import 'ergraph'` gets: resolved from it (a
 * workspace link, pnpm's store, the package itself by self-reference), else found in a
 * node_modules above it (a package whose exports `require.resolve` cannot take).
 */
function projectErgraph(appFile: string): string | undefined {
  let entry: string;
  try {
    entry = createRequire(appFile).resolve('ergraph');
  } catch {
    return installedVersion('ergraph', dirname(appFile));
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'ergraph') return pkg.version ?? '';
  }
  return undefined;
}

function notInstalled(appFile: string, env: Record<string, string | undefined>, why?: string): Error {
  const version = projectErgraph(appFile);
  const found = version === undefined ? 'no ergraph is installed there' : `ergraph ${version} is installed there`;
  return new Error(
    `verify --app runs your v5 documents through ergraph ${targetMajor()}'s compat layer, loaded from your project: ${found}` +
      `${why ? ` (${why})` : ''}; install it there: ${packageManager(env, dirname(appFile)).add} ergraph@${targetMajor()}`,
  );
}

/** Before the app loads: the project's ergraph must be the major this tool migrates to. */
export function checkProjectErgraph(appFile: string, env: Record<string, string | undefined> = process.env): void {
  if (projectErgraph(appFile)?.split('.')[0] !== targetMajor()) throw notInstalled(appFile, env);
}

/** `createCompatHandler` of the ergraph/compat the app module gets. */
export async function projectCompat(load: (specifier: string) => Promise<unknown>, appFile: string, env: Record<string, string | undefined> = process.env): Promise<CreateCompat> {
  let loaded: unknown;
  try {
    loaded = await load('ergraph/compat');
  } catch (error) {
    throw notInstalled(appFile, env, `ergraph/compat: ${(error as Error).message.split('\n')[0]}`);
  }
  const create = (loaded as { createCompatHandler?: unknown } | null)?.createCompatHandler;
  if (typeof create !== 'function') throw notInstalled(appFile, env, 'its ergraph/compat has no createCompatHandler');
  return create as CreateCompat;
}
