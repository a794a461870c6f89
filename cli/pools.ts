/**
 * `ergraph serve` runs a module the user wrote, often with a node-postgres `Pool` in it. A pool
 * emits 'error' when an idle connection's server goes away (a restart, a failover,
 * `pg_terminate_backend`); with no listener Node turns that into an uncaught exception and the
 * server exits. The pools the module exports (as themselves, or as a Drizzle database's
 * `$client`) and left without a listener get one that logs the loss: the pool has already
 * dropped the connection, and the next query opens a new one. Pools the module does not export
 * are the module's to guard (docs/sql.md, "A lost connection").
 */

interface PoolLike {
  connect: unknown;
  totalCount: number;
  on(event: 'error', listener: (error: Error) => void): unknown;
  listenerCount(event: 'error'): number;
}

// Duck-typed: the module's `pg` may be another copy than any this package could import.
function isPool(value: unknown): value is PoolLike {
  const v = value as Partial<PoolLike> | null;
  return typeof v === 'object' && v !== null && typeof v.connect === 'function' && typeof v.totalCount === 'number' && typeof v.on === 'function' && typeof v.listenerCount === 'function';
}

/** The node-postgres pools among `exports` (and a default export object's fields), each once. */
export function exportedPools(exports: Record<string, unknown>): PoolLike[] {
  const found = new Set<PoolLike>();
  const look = (value: unknown) => {
    if (isPool(value)) found.add(value);
    const client = (value as { $client?: unknown } | null)?.$client;
    if (isPool(client)) found.add(client);
  };
  for (const value of Object.values(exports)) look(value);
  const fallback = exports.default;
  if (fallback && typeof fallback === 'object' && !Array.isArray(fallback)) for (const value of Object.values(fallback)) look(value);
  return [...found];
}

/** Give each exported pool without an 'error' listener one that logs through `log`; how many were guarded. */
export function guardExportedPools(exports: Record<string, unknown>, log: (line: string) => void): number {
  let guarded = 0;
  for (const pool of exportedPools(exports)) {
    if (pool.listenerCount('error') > 0) continue;
    pool.on('error', (error) => log(`ergraph serve: a database connection was lost (${error.message}); the next query opens a new one\n`));
    guarded++;
  }
  return guarded;
}
