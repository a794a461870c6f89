/**
 * Where v5-to-v6 gets the v6 schema when the user names none, in the documented order:
 * `--schema`, the project's GraphQL Config (graphql-config's own lookup: `.graphqlrc*`,
 * `graphql.config.*`, `package.json#graphql`), `--app <module>`, and the user's ER graph found
 * in the given paths (a module whose code declares `baseEntity()` or `new ErDiagram(...)`, else
 * one creating a `GraphQLHandler`: see graph-modules.ts). Bad input of any source is one
 * `SchemaLoadError` line. Nothing of the project runs when `loadCode` is false.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { groupsOf } from '../../compat/flat-index.js';
import { append } from '../lib/append.js';
import { importUserModule, type UserModule } from '../../src/cli-kit/user-module.js';
import { ts } from '../lib/typescript.js';
import { createOverlay, type Overlay } from '../runner/overlay.js';
import type { ResolvedSchema } from '../runner/run.js';
import { graphModules } from './graph-modules.js';
import { inSandbox, type SandboxRequest } from './sandbox.js';
import { registerTypeScriptHooks } from './sandbox-hooks.js';
import { loadSchema, SchemaLoadError } from './schema.js';

export interface SchemaSources {
  /** `--schema <sdl|introspection.json|url>`, as given. */
  schema?: string;
  /** `--app <module>`, relative to cwd. */
  app?: string;
  cwd: string;
  /** How long one module may take to load (default 30 s). */
  loadTimeoutMs?: number;
  /**
   * Whether the project's code may run to find the schema (a `graphql.config.js`, the ER graph's
   * modules, `--app`); default true. The CLI passes false on `--dry-run` without `--load-app`.
   */
  loadCode?: boolean;
}

const CODE_FILE = /\.[cm]?[jt]sx?$/;

/** The schema pointers of a GraphQL Config project that graphql-config would load by running code. */
function codePointers(schema: unknown): string[] {
  const pointers = typeof schema === 'string' ? [schema] : Array.isArray(schema) ? schema : schema && typeof schema === 'object' ? Object.keys(schema) : [];
  return pointers.flatMap((p) => (typeof p === 'string' ? [p] : typeof p === 'object' && p ? Object.keys(p) : [])).filter((p) => CODE_FILE.test(p));
}

/** What the report says when the schema was there but finding it would have run the project's code. */
export function notLoadedReason(what: readonly string[]): string {
  return (
    `not loaded: --dry-run runs none of your project's code (${what.join(', ')}); ` +
    'pass --schema <sdl|introspection.json|url>, or --load-app to load it in a child process that may not write files or start processes'
  );
}

const isUrl = (spec: string) => /^https?:\/\//i.test(spec);
const show = (cwd: string, file: string) => relative(cwd, file).split('\\').join('/') || file;

/** A v6 schema has grouped root fields; a v5 (flat) one has none, and cannot resolve flat names. */
function isV6(schema: GraphQLSchema): boolean {
  return groupsOf(schema, 'query').length > 0 || groupsOf(schema, 'mutation').length > 0;
}

/**
 * graphql-config is the project's, not a dependency of ergraph-migrate: its current releases pull
 * packages that require Node 22.15 (yarn 1 refuses to install them on the Node 20 ergraph
 * supports), and a project with a GraphQL Config has it installed. Without it, a config file that
 * is plainly there must not be skipped in silence; this glance only names the file for the error,
 * the lookup itself stays graphql-config's.
 */
function configFileIn(cwd: string): string | undefined {
  const names = readdirSync(cwd).filter((n) => /^(\.graphqlrc(\..+)?|graphql\.config\..+)$/.test(n));
  if (names[0]) return names[0];
  try {
    return 'graphql' in JSON.parse(readFileSync(resolve(cwd, 'package.json'), 'utf8')) ? 'package.json#graphql' : undefined;
  } catch {
    return undefined;
  }
}

/** What this file uses of graphql-config's `loadConfig`. */
type LoadConfig = (options: { rootDir: string; throwOnMissing: boolean; throwOnEmpty: boolean }) => Promise<
  { filepath: string; projects: Record<string, { schema: unknown; getSchema(out: 'string'): Promise<string> }> } | undefined
>;

/**
 * The project's graphql-config, as its own code would `require` it from `cwd` (npx runs this tool
 * from a folder of its own), else one installed beside this tool.
 */
function projectLoadConfig(cwd: string): LoadConfig | undefined {
  for (const from of [join(resolve(cwd), 'package.json'), import.meta.url]) {
    try {
      return (createRequire(from)('graphql-config') as { loadConfig: LoadConfig }).loadConfig;
    } catch {
      // not there: the next place
    }
  }
  return undefined;
}

type FromConfig = { schema: GraphQLSchema; file: string } | { needsCode: string } | undefined;

async function fromGraphQLConfig(cwd: string, loadCode: boolean): Promise<FromConfig> {
  // A config written as code runs when it is read: not before the user allows it.
  const named = configFileIn(cwd);
  if (!loadCode && named && CODE_FILE.test(named)) return { needsCode: `GraphQL Config ${named}` };
  const loadConfig = projectLoadConfig(cwd);
  if (!loadConfig) {
    const file = configFileIn(cwd);
    if (file) throw new SchemaLoadError(`GraphQL Config ${file}`, 'reading it needs graphql-config installed in the project (npm i -D graphql-config), or pass --schema');
    return undefined;
  }
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig({ rootDir: cwd, throwOnMissing: false, throwOnEmpty: false });
  } catch (error) {
    throw new SchemaLoadError('GraphQL Config', (error as Error).message.split('\n')[0]!);
  }
  if (!config) return undefined;
  const file = show(cwd, config.filepath);
  const project = config.projects.default ?? Object.values(config.projects)[0];
  if (!project?.schema) return undefined;
  const code = codePointers(project.schema);
  if (!loadCode && code.length > 0) return { needsCode: `GraphQL Config ${file} (schema ${code.join(', ')})` };
  try {
    // As SDL, rebuilt with this copy of graphql: graphql-config's copy may be another.
    return { schema: buildSchema(await project.getSchema('string')), file };
  } catch (error) {
    throw new SchemaLoadError(`GraphQL Config ${file}`, `its schema cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
  }
}

type Loader = (file: string) => Promise<UserModule>;

/**
 * The folder of the nearest package.json at or above `cwd`: the overlay copies from there, so the
 * migrated modules keep their package's `"type"` and find its node_modules (a run from a
 * subfolder without a package.json of its own otherwise loads ESM sources as CommonJS).
 */
function projectRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

/** The tsconfig nearest to `cwd`, whose options and `paths` the sandbox's TypeScript hooks follow. */
function nearestTsconfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, 'tsconfig.json');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The tsconfig tsx would read (the nearest to `cwd`) as the overlay has it: its `paths` aliases
 * (`@/models/*`) then lead to the migrated modules, not to the originals beside them.
 */
function overlayTsconfig(cwd: string, overlay: Overlay): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, 'tsconfig.json');
    if (existsSync(file)) return overlay.map(file);
    if (dirname(dir) === dir) return undefined;
  }
}

/** What a module's ER graph is used through: its `GraphQLHandler` (the user's ergraph copy's). */
export interface Handlerish {
  schema: unknown;
  execute(query: string, opts?: { variables?: Record<string, unknown>; operationName?: string }): Promise<{ data?: unknown; errors?: unknown }>;
  readonly options?: unknown;
}
const isHandler = (v: unknown): v is Handlerish =>
  !!v && typeof v === 'object' && typeof (v as Handlerish).execute === 'function' && !!(v as Handlerish).schema;
const isFamily = (v: unknown): v is { getDiagram(): unknown } =>
  !!v && typeof v === 'object' && typeof (v as { getDiagram?: unknown }).getDiagram === 'function' && typeof (v as { entity?: unknown }).entity === 'function';
const isDiagram = (v: unknown): boolean =>
  !!v && typeof v === 'object' && Array.isArray((v as { entities?: unknown }).entities) && typeof (v as { entityInfos?: unknown }).entityInfos === 'function';

/** The introspected schema of a handler, rebuilt with this copy of graphql (the user's may be another). */
async function introspect(handler: Handlerish, where: string): Promise<GraphQLSchema> {
  const result = await handler.execute(getIntrospectionQuery());
  if (!result.data) throw new SchemaLoadError(where, `introspection failed: ${JSON.stringify(result.errors)}`);
  return buildClientSchema(result.data as IntrospectionQuery);
}

/**
 * Every ER graph a module exports, as a handler built with the ergraph copy the module itself
 * uses, and its schema rebuilt with this copy of graphql (`ergraph-migrate verify` runs them).
 */
async function graphsOf(mod: UserModule, where: string): Promise<AppGraph[]> {
  const found: AppGraph[] = [];
  const seen = new Set<unknown>();
  let ergraph: { GraphQLHandler: new (d: unknown) => Handlerish } | undefined;
  const handlerFor = async (diagram: unknown) => {
    try {
      ergraph ??= (await mod.load('ergraph')) as { GraphQLHandler: new (d: unknown) => Handlerish };
    } catch (error) {
      throw new SchemaLoadError(where, `its ergraph package cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
    }
    return new ergraph.GraphQLHandler(diagram);
  };
  for (const [name, value] of Object.entries(mod.exports)) {
    if (seen.has(value)) continue;
    seen.add(value);
    let handler: Handlerish | undefined;
    if (isHandler(value)) handler = value;
    else if (isFamily(value)) handler = await handlerFor(value.getDiagram());
    else if (isDiagram(value)) handler = await handlerFor(value);
    if (handler) found.push({ name, schema: await introspect(handler, `${where} (${name})`), handler });
  }
  return found;
}

class LoadTimeout extends Error {}

/**
 * A module of the user's, loaded within `timeoutMs`: one whose top-level `await` never settles
 * (a database it waits for) would hang the run. It cannot be stopped; the run goes on without it
 * and the process ends when the run does.
 */
async function loadWithin(load: Loader, file: string, timeoutMs: number): Promise<UserModule> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeout(`the module did not finish loading within ${timeoutMs / 1000} s (a top-level await that never settles?)`)), timeoutMs);
  });
  try {
    return await Promise.race([load(file), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function loadModule(load: Loader, file: string, where: string, timeoutMs: number): Promise<UserModule> {
  try {
    return await loadWithin(load, file, timeoutMs);
  } catch (error) {
    if (error instanceof LoadTimeout) throw new SchemaLoadError(where, error.message);
    throw new SchemaLoadError(where, `the module threw while loading: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** An ER graph a module exports: its handler (built with the module's own ergraph) and schema. */
export interface AppGraph {
  name: string;
  schema: GraphQLSchema;
  handler: Handlerish;
}

/**
 * `--app <module>`'s ER graphs and their handlers, loaded as v5-to-v6 loads it (for `ergraph-migrate
 * verify`), in this process; `load` gets a package as the module itself gets it.
 */
export async function appGraphs(app: string, cwd: string, timeoutMs = 30_000): Promise<{ graphs: AppGraph[]; load: UserModule['load'] }> {
  const file = resolve(cwd, app);
  const where = `--app ${app}`;
  if (!existsSync(file)) throw new SchemaLoadError(where, 'no such file');
  registerTypeScriptHooks(ts, nearestTsconfig(cwd));
  const mod = await loadModule(importUserModule, file, where, timeoutMs);
  const graphs = await graphsOf(mod, where);
  if (graphs.length === 0) throw new SchemaLoadError(where, 'exports no ER diagram, baseEntity() family or GraphQLHandler');
  return { graphs, load: mod.load };
}

/** Distinct schemas only: two modules exporting the same diagram count once. */
function distinct(list: { name: string; schema: GraphQLSchema }[]): GraphQLSchema[] {
  const bySdl = new Map<string, GraphQLSchema>();
  for (const { schema } of list) bySdl.set(printSchema(schema), schema);
  return [...bySdl.values()];
}

/**
 * The v6 schema for v5-to-v6, or undefined when no source has one. `texts` are the run's files
 * as migrated so far: ER graphs are loaded from them (through a temporary copy when they differ
 * from the disk). `log` hears which candidates were passed over and why.
 */
export async function findV6Schema(
  sources: SchemaSources,
  texts: ReadonlyMap<string, string>,
  changed: boolean,
  log: (line: string) => void = () => {},
): Promise<ResolvedSchema | undefined> {
  const { cwd, loadTimeoutMs: timeoutMs = 30_000 } = sources;
  if (sources.schema) {
    const spec = isUrl(sources.schema) ? sources.schema : resolve(cwd, sources.schema);
    return { schemas: [await loadSchema(spec)], source: `--schema ${sources.schema}` };
  }
  const loadCode = sources.loadCode !== false;
  const withheld: string[] = [];
  if (!loadCode) {
    // A config that is data (YAML, JSON) pointing at SDL runs nothing: read here, as before.
    const configured = await fromGraphQLConfig(cwd, false);
    if (configured && 'needsCode' in configured) withheld.push(configured.needsCode);
    else if (configured) {
      if (isV6(configured.schema)) return { schemas: [configured.schema], source: `GraphQL Config ${configured.file}` };
      log(`GraphQL Config ${configured.file}: its schema has no v6 groups (is it the v5 schema?); looking further`);
    }
  }
  const candidates: string[] = [];
  // A family's diagram holds only the entities whose modules ran: those are loaded first when the
  // family is declared in a module of its own (`models/base.ts`), since nothing there imports them.
  let registering: string[] = [];
  if (sources.app) {
    const file = resolve(cwd, sources.app);
    if (!existsSync(file)) throw new SchemaLoadError(`--app ${sources.app}`, 'no such file');
    candidates.push(file);
  } else {
    const found = graphModules(texts);
    append(candidates, found.candidates);
    registering = found.registering;
  }
  if (!loadCode) {
    if (candidates.length > 0) withheld.push(sources.app ? `--app ${sources.app}` : `the ER graph in ${candidates.map((f) => show(cwd, f)).join(', ')}`);
    return withheld.length > 0 ? { schemas: [], source: notLoadedReason(withheld) } : undefined;
  }
  if (candidates.length === 0 && !configFileIn(cwd)) return undefined;
  const root = projectRoot(cwd);
  const overlay = candidates.length > 0 && changed && !sources.app ? createOverlay(root, texts) : undefined;
  try {
    const tsconfig = overlay ? overlayTsconfig(cwd, overlay) : nearestTsconfig(cwd);
    const reply = await inSandbox({ cwd, app: sources.app, candidates, registering, overlay: overlay && { root, dir: overlay.dir }, timeoutMs }, tsconfig);
    for (const line of reply.logs) log(line);
    if (reply.error) {
      const error = new SchemaLoadError(reply.error.source ?? 'schema lookup', '');
      error.message = reply.error.source ? reply.error.message : `schema lookup: ${reply.error.message}`;
      throw error;
    }
    if (!reply.result) return undefined;
    return { schemas: reply.result.sdls.map((sdl) => buildSchema(sdl)), source: reply.result.source };
  } finally {
    overlay?.dispose();
  }
}

/**
 * The lookup that runs the project's code: the GraphQL Config, then the ER graph's modules. Run
 * by the sandboxed child (sandbox-child.ts), never in the `ergraph-migrate` process itself.
 */
export async function lookupInProcess(request: SandboxRequest, log: (line: string) => void): Promise<ResolvedSchema | undefined> {
  const { cwd, app, candidates, registering, timeoutMs, overlay } = request;
  const configured = await fromGraphQLConfig(cwd, true);
  if (configured && !('needsCode' in configured)) {
    if (isV6(configured.schema)) return { schemas: [configured.schema], source: `GraphQL Config ${configured.file}` };
    log(`GraphQL Config ${configured.file}: its schema has no v6 groups (is it the v5 schema?); looking further`);
  }
  if (candidates.length === 0) return undefined;
  const mapped = (file: string) => {
    if (!overlay) return file;
    const rel = relative(overlay.root, file);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? join(overlay.dir, rel) : file;
  };
  // The sandbox's own TypeScript hooks are registered: tsx's would start esbuild, a process.
  const load: Loader = importUserModule;
  const found: { name: string; schema: GraphQLSchema }[] = [];
  const from: string[] = [];
  for (const file of registering) {
    try {
      await loadWithin(load, mapped(file), timeoutMs);
    } catch (error) {
      log(`${show(cwd, file)}: passed over: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  for (const file of candidates) {
    const where = app ? `--app ${app}` : show(cwd, file);
    try {
      const graphs = await graphsOf(await loadModule(load, mapped(file), where, timeoutMs), where);
      if (graphs.length === 0 && app) throw new SchemaLoadError(where, 'exports no ER diagram, baseEntity() family or GraphQLHandler');
      if (graphs.length > 0) from.push(`${show(cwd, file)} (${graphs.map((g) => g.name).join(', ')})`);
      append(found, graphs);
    } catch (error) {
      // An explicit --app must work; a discovered candidate that fails is passed over and said so.
      if (app) throw error;
      log(`${where}: passed over: ${(error as Error).message}`);
    }
  }
  const schemas = distinct(found).filter(isV6);
  if (schemas.length === 0) return undefined;
  return { schemas, source: `ER graph of ${from.join(', ')}${app ? ' (--app)' : ''}` };
}
