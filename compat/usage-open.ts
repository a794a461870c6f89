/**
 * Opening usage stores without loading Drizzle: `ergraph/compat` must import in a project that
 * installed none of the optional database peers (drizzle-orm, pg, PGlite), so the SQL store's
 * module is only loaded when a SQL store is asked for.
 */
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
