/**
 * Where the demo's data lives: embedded PGlite (a data directory under `.demo-data/`, or memory
 * for tests), or a PostgreSQL server when `DATABASE_URL` is set.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { SqlDatabase } from 'ergraph/orm';
import { lockDataDir } from './lock.js';
import { takingTurns } from './pglite-turns.js';

export interface DemoDatabase {
  db: SqlDatabase;
  /** Where it runs, for the startup banner (no credentials). */
  description: string;
  close(): Promise<void>;
  /** A PGlite directory's lock says where the usage report is served (see lock.ts). */
  announce?(usageReport: string): void;
}

export interface DatabaseOptions {
  /** `postgres://...`: use that server instead of PGlite. */
  url?: string;
  /** PGlite data directory; in memory when omitted. */
  dataDir?: string;
}

export async function openDatabase(options: DatabaseOptions = {}): Promise<DemoDatabase> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, application_name: 'ergraph demo' });
    // An idle connection whose server went away (a restart, pg_terminate_backend) is an 'error'
    // on the pool; without a listener Node ends the process. The pool has already dropped it.
    pool.on('error', (error) => console.error(`ergraph demo: a database connection was lost (${error.message}); the next query opens a new one`));
    await pool.query('select 1'); // fail at startup with the driver's message, not on the first request
    const { hostname, port, pathname } = new URL(options.url);
    return { db: drizzlePg({ client: pool }), description: `PostgreSQL at ${hostname}:${port || 5432}${pathname}`, close: () => pool.end() };
  }
  // PGlite creates only the last directory of the path; a fresh checkout has no .demo-data/ yet.
  if (options.dataDir) mkdirSync(dirname(options.dataDir), { recursive: true });
  // Single-process: refuse a second process on the same directory (see lock.ts).
  const lock = options.dataDir ? lockDataDir(options.dataDir) : undefined;
  try {
    const client = new PGlite(options.dataDir);
    await client.waitReady;
    return {
      db: drizzlePglite({ client: takingTurns(client) }), // I/O and timers run between queries (see pglite-turns.ts)
      description: options.dataDir ? `PGlite in ${options.dataDir}` : 'PGlite in memory',
      // close() checkpoints and flushes the data directory; only then may another process open it.
      close: () => client.close().finally(() => lock?.release()),
      announce: (usageReport) => lock?.announce(usageReport),
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
