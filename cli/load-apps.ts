/** Loading the apps a user module declares, for every `ergraph … --app <module>`. */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ErDiagram } from '../src/er/diagram.js';
import type { GraphQLHandler } from '../src/graphql/handler.js';
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

// Told apart by shape, not instanceof: the module may hold another copy of ergraph than this CLI.
const isDiagram = (value: unknown): value is ErDiagram =>
  !!value && typeof value === 'object' && Array.isArray((value as ErDiagram).entities) && typeof (value as ErDiagram).entityInfos === 'function';
const isHandler = (value: unknown): value is GraphQLHandler =>
  !!value && typeof value === 'object' && typeof (value as GraphQLHandler).prepare === 'function' && isDiagram((value as GraphQLHandler).diagram);

/** What an app module may export, for the message when it exports none of it. */
export const APP_EXPORTS =
  '`export const apps = [{ name, handler, description }]` (or a default export of that list), a GraphQLHandler, or an ErDiagram';

/**
 * A module without `apps`: each exported GraphQLHandler, and each exported ErDiagram no exported
 * handler serves, becomes an app named after its export (`default`: after the file). A diagram
 * gets a plain `new GraphQLHandler(diagram)`, made with the module's own ergraph.
 */
async function appsOfGraphs(mod: Record<string, unknown>, file: string): Promise<McpApp[]> {
  const named = (key: string) => (key === 'default' ? basename(file).replace(/\.[^.]*$/, '') : key);
  const seen = new Set<unknown>();
  const handlers: [string, GraphQLHandler][] = [];
  const diagrams: [string, ErDiagram][] = [];
  for (const [key, value] of Object.entries(mod)) {
    if (seen.has(value)) continue;
    seen.add(value);
    if (isHandler(value)) handlers.push([named(key), value]);
    else if (isDiagram(value)) diagrams.push([named(key), value]);
  }
  const served = new Set(handlers.map(([, h]) => h.diagram));
  const bare = diagrams.filter(([, d]) => !served.has(d));
  const { GraphQLHandler: Handler } = bare.length > 0 ? ((await import('ergraph')) as typeof import('../src/index.js')) : { GraphQLHandler: undefined };
  return [
    ...handlers.map(([name, handler]) => ({ name, handler })),
    ...bare.map(([name, diagram]) => ({ name, handler: new Handler!(diagram) })),
  ];
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
  try {
    if (/\.[cm]?tsx?$/.test(file)) await registerTypeScript(`--app ${modulePath} (TypeScript)`);
  } catch (error) {
    if (error instanceof MissingPeerError) throw new CliError(`${error.message}, or point --app at compiled JavaScript`);
    throw error;
  }
  const mod = (await importUserModule(file)).exports;
  const apps = appsIn(mod.apps) ?? appsIn(mod.default) ?? (await appsOfGraphs(mod, file));
  if (apps.length === 0) {
    const found = Object.keys(mod);
    throw new CliError(`${modulePath} exports no app: export ${APP_EXPORTS} (it exports ${found.length > 0 ? found.join(', ') : 'nothing'})`);
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
