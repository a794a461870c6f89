/**
 * `ergraph serve` gives the node-postgres pools its app module exports (bare, or as a Drizzle
 * database's `$client`) an 'error' listener when they have none, so an idle connection lost
 * (pg_terminate_backend here) is a log line, not the end of the server; and the next query works.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { exportedPools, guardExportedPools } from '../../cli/pools.js';
import { PG_URL } from '../orm/databases.js';
import { pgServerUp, terminateBackends } from '../support/pg-server.js';

const APP = `db_serve_${process.pid}`;

describe('exportedPools', () => {
  it('finds pools bare, behind a Drizzle database, and in a default export object, each once', async () => {
    const bare = new pg.Pool({ connectionString: PG_URL });
    const behind = new pg.Pool({ connectionString: PG_URL });
    const db = drizzle({ client: behind });
    try {
      expect(exportedPools({ pool: bare, db, apps: [], default: { db, other: 1 } })).toEqual([bare, behind]);
      const handled = new pg.Pool({ connectionString: PG_URL });
      handled.on('error', () => undefined);
      expect(guardExportedPools({ bare, handled }, () => undefined)).toBe(1);
      expect([bare.listenerCount('error'), handled.listenerCount('error')]).toEqual([1, 1]);
      await handled.end();
    } finally {
      await Promise.all([bare.end(), behind.end()]);
    }
  });
});

const SUITE = 'a module pool guarded by serve, its idle connection killed';

describe.runIf(await pgServerUp(SUITE))(SUITE, () => {
  it('logs the loss and answers the next query', async () => {
    const pool = new pg.Pool({ connectionString: PG_URL, application_name: APP });
    const db = drizzle({ client: pool });
    try {
      const lines: string[] = [];
      guardExportedPools({ db }, (line) => lines.push(line));
      await db.execute(sql`select 1`);
      const lost = once(pool, 'error');
      expect(await terminateBackends(APP)).toBe(1);
      await lost;
      expect(lines).toEqual([expect.stringMatching(/^ergraph serve: a database connection was lost \(terminating connection due to administrator command\); the next query opens a new one\n$/)]);
      expect(await db.execute(sql`select 1 as one`)).toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await pool.end();
    }
  });
});
