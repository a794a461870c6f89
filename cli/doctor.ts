/**
 * `ergraph doctor [--app <module>]`: a checklist of what commonly breaks an ergraph setup —
 * an old Node, missing or mismatched dependencies, two copies of graphql, an unreachable
 * PostgreSQL server, an app whose schema or ER diagram does not validate. Exits 1 when any
 * line fails; warnings and notes do not change the exit code.
 */
import { validateSchema } from 'graphql';
import { listOperations } from '../src/mcp/catalog.js';
import type { McpApp } from '../src/mcp/apps.js';
import { EXIT, type CliIO } from './io.js';
import { loadApps } from './load-apps.js';
import { ergraphPackage, ergraphRoot, graphqlEntryFrom, installedFrom, satisfiesCaret } from './packages.js';
import { installCommand, missingPeers } from '../src/peers/peers.js';
import { packageManager, type PackageManager } from '../src/peers/package-manager.js';

export type Status = 'ok' | 'note' | 'warn' | 'fail';

export interface Check {
  status: Status;
  label: string;
  /** Extra lines: what is wrong and what to do about it. */
  detail?: string[];
}

const MIN_NODE = 20;
/** What the README and DESIGN promise to work with; pg is how the server check talks. */
export const PACKAGES = ['graphql', 'zod', 'dataloader', 'hono', 'drizzle-orm', '@electric-sql/pglite', 'pg'] as const;
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export function nodeCheck(version: string = process.versions.node): Check {
  const major = Number(version.split('.')[0]);
  return major >= MIN_NODE
    ? { status: 'ok', label: `Node.js ${version}` }
    : { status: 'fail', label: `Node.js ${version} is too old`, detail: [`ergraph needs Node.js ${MIN_NODE} or newer`] };
}

/** What the optional peers (package.json `peerDependenciesMeta`) enable, and which of them each needs. */
export const OPTIONAL_FEATURES: readonly { what: string; needs: readonly string[] }[] = [
  { what: 'ergraph/orm and ergraph/federation (SQL loaders, federation members)', needs: ['drizzle-orm'] },
  { what: 'usage stores on PostgreSQL (compat report, schema diff --usage with postgres://…)', needs: ['pg', 'drizzle-orm'] },
  { what: 'usage stores on embedded PGlite (pglite:<dir>)', needs: ['@electric-sql/pglite', 'drizzle-orm'] },
  { what: 'a TypeScript --app module (serve, mcp, schema print, er, doctor --app)', needs: ['tsx'] },
];

/** One line per optional feature: available, or unavailable with the command that installs what it needs. */
export function featureChecks(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Check[] {
  return OPTIONAL_FEATURES.map(({ what, needs }): Check => {
    const missing = missingPeers(needs);
    return missing.length === 0
      ? { status: 'ok', label: `available: ${what}` }
      : { status: 'note', label: `unavailable: ${what}`, detail: [`needs ${missing.join(', ')}: ${installCommand(missing, env, cwd)}`] };
  });
}

/** Each dependency as ergraph itself resolves it, against the range ergraph declares; hints in the project's package manager. */
export function packageChecks(manager: PackageManager = packageManager()): Check[] {
  const root = ergraphRoot();
  const pkg = ergraphPackage();
  // Peers (graphql, zod, hono, dataloader) are the user's own copies; optional peers and packages
  // ergraph does not declare (pg, PGlite: the app's choice of database) may be missing.
  const wanted = { ...pkg.peerDependencies, ...pkg.dependencies };
  const required = (name: string) => !!pkg.dependencies?.[name] || (!!pkg.peerDependencies?.[name] && !pkg.peerDependenciesMeta?.[name]?.optional);
  return PACKAGES.map((name): Check => {
    const range = wanted[name];
    const found = installedFrom(name, root);
    if (!found && !required(name)) return { status: 'note', label: `${name} is not installed (optional: see the features below)` };
    if (!found) return { status: 'fail', label: `${name} is not installed`, detail: [`run ${manager.install}${range ? ` (ergraph wants ${name}@${range})` : ''}`] };
    const fits = range ? satisfiesCaret(found.version, range) : undefined;
    if (fits === false) {
      return { status: 'fail', label: `${name} ${found.version} does not match ${range}`, detail: [`at ${found.dir}`, `${manager.add} "${name}@${range}"`] };
    }
    return { status: 'ok', label: `${name} ${found.version}${range ? ` (wants ${range})` : ''}` };
  });
}

/**
 * graphql-js checks its classes with instanceof, so a schema built with one copy is rejected by
 * another ("Cannot use GraphQLSchema from another module or realm"). Compare the copy ergraph
 * loads with the one the project in `cwd` loads.
 */
export function graphqlCopiesCheck(cwd: string, manager: PackageManager = packageManager(process.env, cwd)): Check {
  const ours = graphqlEntryFrom(ergraphRoot());
  const theirs = graphqlEntryFrom(cwd);
  if (!ours) return { status: 'fail', label: 'graphql cannot be resolved from ergraph' };
  if (!theirs || theirs === ours) return { status: 'ok', label: 'graphql is a single copy', detail: [ours] };
  return {
    status: 'fail',
    label: 'two copies of graphql: schemas built with one are rejected by the other',
    detail: [`ergraph loads ${ours}`, `${cwd} loads ${theirs}`, `${manager.dedupe ? `run ${manager.dedupe}, or ` : ''}install one graphql version both can use`],
  };
}

/** The URL without its password, for printing. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

// Errors meaning nothing answered at all, as opposed to a server that answered with a refusal.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN']);

/**
 * Whether a PostgreSQL server answers at DATABASE_URL (then it must: the app will use it) or at
 * the default test address (optional: the embedded PGlite is the default database).
 */
export async function postgresCheck(databaseUrl: string | undefined, timeoutMs = 2000, installPg = () => installCommand(['pg'])): Promise<Check> {
  const url = databaseUrl || DEFAULT_DATABASE_URL;
  const where = databaseUrl ? `DATABASE_URL ${redacted(url)}` : '127.0.0.1:5432';
  const missing: Status = databaseUrl ? 'fail' : 'note';
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    return { status: missing, label: `PostgreSQL not checked: the pg package is missing`, detail: [installPg()] };
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {}); // a connection dropped after the check is not this check's business
  try {
    await client.connect();
    const { rows } = await client.query<{ version: string }>("select current_setting('server_version') as version");
    return { status: 'ok', label: `PostgreSQL ${rows[0]?.version ?? ''} answers at ${where}` };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const answered = !(code && UNREACHABLE.has(code)) && !/timeout|terminated/i.test(message);
    if (!answered) {
      return {
        status: missing,
        label: `no PostgreSQL server answers at ${where}`,
        detail: databaseUrl
          ? [message || String(code), 'start the server or fix DATABASE_URL (unset it to use the embedded PGlite)']
          : ['the embedded PGlite is used; SQL suites against a server are skipped (set DATABASE_URL to use one)'],
      };
    }
    return {
      status: databaseUrl ? 'fail' : 'warn',
      label: `PostgreSQL at ${where} answers but refuses: ${message}`,
      detail: databaseUrl ? ['fix the user, password or database in DATABASE_URL'] : ['the SQL test suites expect user postgres and a database named test'],
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/** One app: its schema builds and validates, and its ER diagram (when it has one) validates. */
export function appCheck(app: McpApp): Check {
  const problems: string[] = [];
  let counts = '';
  try {
    const schema = app.handler.schema;
    problems.push(...validateSchema(schema).map((e) => `schema: ${e.message}`));
    const [queries, mutations] = [listOperations(schema, 'query').length, listOperations(schema, 'mutation').length];
    counts = ` (${queries} ${queries === 1 ? 'query' : 'queries'}, ${mutations} ${mutations === 1 ? 'mutation' : 'mutations'})`;
  } catch (error) {
    problems.push(`schema: ${(error as Error).message}`);
  }
  // GraphQLHandler carries its ErDiagram; other handlers (e.g. a compat handler) have none to check.
  const diagram = (app.handler as { diagram?: { validate?: () => unknown } }).diagram;
  if (typeof diagram?.validate === 'function') {
    try {
      diagram.validate();
    } catch (error) {
      problems.push(`ER diagram: ${(error as Error).message}`);
    }
  }
  if (problems.length) return { status: 'fail', label: `app ${app.name}`, detail: problems };
  return { status: 'ok', label: `app ${app.name}: schema and ${typeof diagram?.validate === 'function' ? 'ER diagram' : 'handler'} validate${counts}` };
}

export async function appChecks(modulePath: string, cwd: string): Promise<Check[]> {
  let apps: McpApp[];
  try {
    apps = await loadApps(modulePath, cwd);
  } catch (error) {
    return [{ status: 'fail', label: `app module ${modulePath} does not load`, detail: [(error as Error).message] }];
  }
  // The page-index advice reads Drizzle tables: without drizzle-orm an app has none to advise on.
  const pageIndexChecks = missingPeers(['drizzle-orm']).length === 0 ? (await import('./page-indexes.js')).pageIndexChecks : () => [];
  return apps.flatMap((app) => [appCheck(app), ...pageIndexChecks(app)]);
}

const MARK: Record<Status, string> = { ok: '✓', note: '-', warn: '!', fail: '✗' };

export function formatChecks(checks: readonly Check[]): string {
  return checks.map((c) => `${MARK[c.status]} ${c.label}\n${(c.detail ?? []).map((d) => `    ${d}\n`).join('')}`).join('');
}

export interface DoctorArgs {
  app?: string;
  timeout: number;
}

export async function doctorCommand(args: DoctorArgs, io: CliIO): Promise<number> {
  const env = io.env ?? process.env;
  const pkg = ergraphPackage();
  io.stdout.write(`ergraph doctor — ergraph ${pkg.version ?? '?'} at ${ergraphRoot()}\n`);
  const manager = packageManager(env, io.cwd);
  const checks: Check[] = [
    nodeCheck(),
    ...packageChecks(manager),
    graphqlCopiesCheck(io.cwd, manager),
    await postgresCheck(env.DATABASE_URL, args.timeout, () => installCommand(['pg'], env, io.cwd)),
    ...featureChecks(env, io.cwd),
  ];
  if (args.app) checks.push(...(await appChecks(args.app, io.cwd)));
  io.stdout.write(formatChecks(checks));
  const failed = checks.filter((c) => c.status === 'fail').length;
  io.stdout.write(failed ? `${failed} problem${failed === 1 ? '' : 's'} found\n` : 'no problems found\n');
  return failed ? EXIT.errors : EXIT.ok;
}
