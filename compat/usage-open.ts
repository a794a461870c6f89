/**
 * Opening usage stores without loading Drizzle: `ergraph/compat` must import in a project that
 * installed none of the optional database peers (drizzle-orm, pg, PGlite), so the SQL store's
 * module is only loaded when a SQL store is asked for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requirePeers, usageStorePeers } from '../src/peers/peers.js';
import type { SqlDatabase } from '../src/orm/types.js';
import type { SqlUsageStoreOptions } from './usage-sql.js';
import type { UsageStore } from './usage-store.js';
import type { CatalogBounds } from './catalog.js';

const loadSql = () => import('./usage-sql.js');

/**
 * A usage store on any Drizzle PostgreSQL database (`drizzle-orm/pglite`, `drizzle-orm/node-postgres`).
 * Returned at once; the SQL implementation is loaded on first use, so a failure to load it (or a
 * database that is down) surfaces as the first write's reported error, never at import.
 */
export function sqlUsageStore(db: SqlDatabase, options: SqlUsageStoreOptions = {}): UsageStore {
  let store: Promise<UsageStore> | undefined;
  const impl = () => (store ??= loadSql().then((m) => m.sqlUsageStore(db, options)));
  return {
    description: options.description ?? 'PostgreSQL (Drizzle)',
    track: async (coordinates) => (await impl()).track(coordinates),
    add: async (rows, flushId, operations) => (await impl()).add(rows, flushId, operations),
    read: async (sinceDay) => (await impl()).read(sinceDay),
    readOperations: async (query) => (await impl()).readOperations!(query),
    // Closing a store that was never used still runs its owner's cleanup (e.g. ending a pool).
    close: async () => (store ? (await store).close() : options.onClose?.()),
  };
}

/** `postgres://user:secret@host/db` → `postgres://user@host/db`, for messages and reports. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return parsed.toString().replace(/:@/, '@');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

export interface OpenUsageStoreOptions {
  /** How long to wait for a PostgreSQL connection or statement (default 5000 ms). */
  timeoutMs?: number;
  /** The operation catalog's bounds (default 1000 operations, 4 MiB of texts). */
  catalog?: CatalogBounds;
  /**
   * Only a store that is there: a `pglite:` directory must hold a database, and one another
   * process may have open is refused. What reads usage asks this (`compat report`, `compat kit`,
   * `schema diff --usage`): a report read from a database created empty on the spot would say nobody calls v5.
   */
  existing?: boolean;
}

/** The live process a `<dir>.lock` names, and the usage report it serves when it says so. */
function lockHolder(dir: string): { pid: number; report?: string } | undefined {
  if (!existsSync(`${dir}.lock`)) return undefined;
  const [first, second] = readFileSync(`${dir}.lock`, 'utf8').split('\n');
  const pid = Number.parseInt(first ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined; // EPERM: it exists, owned by another user
  }
  return { pid, report: second?.trim() || undefined };
}

/**
 * Why the PGlite directory `dir` may not be opened here, if it may not. PGlite serves one process
 * at a time: a second one on the same directory flushes its own view over the first one's writes.
 * A holder shows as `<dir>.lock` naming its live pid — what `ergraph demo` writes, with the
 * address of its usage report on the second line — or, to a reader, as the `postmaster.pid` PGlite
 * keeps in the directory while it is open (left behind too by a process that crashed).
 */
function pgliteRefusal(dir: string, existing: boolean): string | undefined {
  if (existing && !existsSync(join(dir, 'PG_VERSION'))) {
    const what = existsSync(dir) ? 'the directory holds no PG_VERSION' : 'no such directory';
    return `no PGlite database at ${dir} (${what}): name the directory the app writes its usage to (the demo's is .demo-data/pglite)`;
  }
  const holder = lockHolder(dir);
  if (holder) {
    const instead = holder.report ? `open the same report at ${holder.report}, or ` : '';
    return `${dir} is open in process ${holder.pid} (the demo, or another app), and PGlite serves one process at a time: ${instead}stop that process (Ctrl-C) and run this again`;
  }
  if (existing && existsSync(join(dir, 'postmaster.pid'))) {
    return `${dir} is open in another process (its postmaster.pid is there), and PGlite serves one process at a time: stop that process and run this again; if none has it open (one crashed), delete ${join(dir, 'postmaster.pid')}`;
  }
  return undefined;
}

/**
 * A store from a URL, as the CLI takes it: `postgres://…` / `postgresql://…` (a server; the
 * tables live in the connection's `search_path`), `pglite:<dir>` or `file:<dir>` (embedded, one
 * process at a time), `memory:` (this process only). Nothing is connected until first use.
 */
export async function openUsageStore(url: string, options: OpenUsageStoreOptions = {}): Promise<UsageStore> {
  const timeout = options.timeoutMs ?? 5000;
  // Before any import: one line naming every missing package, not Node's error for the first.
  requirePeers(`openUsageStore(${url.replace(/^([a-z]+:).*/is, '$1…')})`, usageStorePeers(url));
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const [{ default: pg }, { drizzle }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
    const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: timeout, query_timeout: timeout });
    // An idle client whose server went away emits 'error' on the pool; without a listener Node
    // would crash the process. The next query reports the problem instead (the store's own
    // transactions guard the clients they check out).
    pool.on('error', () => undefined);
    return (await loadSql()).sqlUsageStore(drizzle({ client: pool }), { description: `PostgreSQL ${redactUrl(url)}`, onClose: () => pool.end(), catalog: options.catalog });
  }
  if (/^(pglite|file):/i.test(url)) {
    const dir = url.replace(/^(pglite|file):(\/\/)?/i, '');
    if (dir === '') throw new Error(`${url}: name the PGlite data directory, e.g. pglite:./.usage`);
    const refusal = pgliteRefusal(dir, options.existing ?? false);
    if (refusal) throw new Error(refusal);
    const [{ PGlite }, { drizzle }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
    const client = new PGlite(dir);
    return (await loadSql()).sqlUsageStore(drizzle({ client }), { description: `PGlite ${dir}`, onClose: () => client.close(), catalog: options.catalog });
  }
  if (/^memory:?$/i.test(url)) {
    const { memoryUsageStore } = await import('./usage-store.js');
    return memoryUsageStore({ catalog: options.catalog });
  }
  throw new Error(`unsupported usage database ${JSON.stringify(redactUrl(url))}: use postgres://…, pglite:<dir> or memory:`);
}
