/** Loading the MCP apps a user module declares, for `ergraph mcp --app <module>`. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpApp } from '../src/mcp/apps.js';
import type { PictureServices } from '../src/picture/index.js';
import { importUserModule } from '../src/cli-kit/user-module.js';
import { MissingPeerError } from '../src/peers/peers.js';
import { registerTypeScript } from './typescript.js';

export class CliError extends Error {
  override name = 'CliError';
}

const isApp = (value: unknown): value is McpApp =>
  !!value && typeof value === 'object' && typeof (value as McpApp).name === 'string' && !!(value as McpApp).handler?.schema;

function appsIn(exported: unknown): McpApp[] | undefined {
  const list = exported && typeof exported === 'object' && 'apps' in exported ? (exported as { apps: unknown }).apps : exported;
  if (Array.isArray(list) && list.length > 0 && list.every(isApp)) return list;
  return undefined;
}

/**
 * Import `modulePath` (relative to `cwd`) and find its apps: `export const apps = [...]`, or a
 * default export that is the list or an object holding `apps`.
 */
export async function loadApps(modulePath: string, cwd = process.cwd()): Promise<McpApp[]> {
  return (await loadAppModule(modulePath, cwd)).apps;
}

/** `loadApps`, plus the module's other exports (e.g. `services` for `ergraph er`). */
export async function loadAppModule(modulePath: string, cwd = process.cwd()): Promise<{ apps: McpApp[]; exports: Record<string, unknown> }> {
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) throw new CliError(`app module not found: ${file}`);
  let mod: Record<string, unknown>;
  try {
    if (/\.[cm]?tsx?$/.test(file)) await registerTypeScript(`--app ${modulePath} (TypeScript)`);
  } catch (error) {
    if (error instanceof MissingPeerError) throw new CliError(`${error.message}, or point --app at compiled JavaScript`);
    throw error;
  }
  mod = (await importUserModule(file)).exports;
  const apps = appsIn(mod.apps) ?? appsIn(mod.default);
  if (!apps) {
    throw new CliError(
      `${modulePath} must export the MCP apps: export const apps = [{ name, handler, description }] (or a default export of that list)`,
    );
  }
  return { apps, exports: mod };
}

/** A module's `services` export (a `UseCaseAppConfig` or the service classes), for the ER picture. */
export function servicesIn(exported: unknown, module: string): PictureServices | undefined {
  if (exported === undefined) return undefined;
  const list = Array.isArray(exported) ? exported : (exported as { services?: unknown } | null)?.services;
  if (Array.isArray(list) && list.every((s) => typeof s === 'function')) return list as Function[];
  throw new CliError(`${module} exports services, but not as a UseCaseAppConfig or a list of service classes`);
}

/** The app named `name`, or the only one; an error listing the apps otherwise. */
export function pickApp(apps: readonly McpApp[], name: string | undefined, module: string): McpApp {
  if (name !== undefined) {
    const app = apps.find((a) => a.name === name);
    if (!app) throw new CliError(`${module} has no app named ${JSON.stringify(name)}; its apps: ${apps.map((a) => a.name).join(', ')}`);
    return app;
  }
  if (apps.length > 1) throw new CliError(`${module} has ${apps.length} apps (${apps.map((a) => a.name).join(', ')}): pick one with --name`);
  return apps[0]!;
}
