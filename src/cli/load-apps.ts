/** Loading the MCP apps a user module declares, for `ergraph mcp --app <module>`. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpApp } from '../mcp/apps.js';

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

/** TypeScript modules load through tsx's loader when the running Node cannot load them itself. */
async function enableTypeScript(file: string) {
  if (!/\.[cm]?tsx?$/.test(file)) return;
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    throw new CliError(`${file} is TypeScript: install tsx (npm i -D tsx) or point --app at compiled JavaScript`);
  }
}

/**
 * Import `modulePath` (relative to `cwd`) and find its apps: `export const apps = [...]`, or a
 * default export that is the list or an object holding `apps`.
 */
export async function loadApps(modulePath: string, cwd = process.cwd()): Promise<McpApp[]> {
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) throw new CliError(`app module not found: ${file}`);
  await enableTypeScript(file);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const apps = appsIn(mod.apps) ?? appsIn(mod.default);
  if (!apps) {
    throw new CliError(
      `${modulePath} must export the MCP apps: export const apps = [{ name, handler, description }] (or a default export of that list)`,
    );
  }
  return apps;
}
