/**
 * The demo on a PostgreSQL server (DATABASE_URL) lives through an idle connection of its pool
 * being killed: the pool's 'error' is logged, and the next query opens a new connection. Before,
 * pg_terminate_backend on one idle connection ended the demo.
 */
import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../examples/demo/database.js';
import { PG_URL } from '../orm/databases.js';
import { pgServerUp, terminateBackends } from '../support/pg-server.js';

const APP = `db_demo_${process.pid}`;

const SUITE = 'the demo on PostgreSQL, an idle connection killed';

describe.runIf(await pgServerUp(SUITE))(SUITE, () => {
  it('logs the loss and answers the next query', async () => {
    const url = new URL(PG_URL);
    url.searchParams.set('application_name', APP); // the connection string's name wins over the demo's
    const database = await openDatabase({ url: url.toString() });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const pool = (database.db as unknown as { $client: import('pg').Pool }).$client;
      const lost = once(pool, 'error');
      expect(await terminateBackends(APP)).toBe(1);
      await lost;
      expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^ergraph demo: a database connection was lost \(terminating connection/)]);
      expect(await database.db.execute(sql`select 1 as one`)).toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      logged.mockRestore();
      await database.close();
    }
  });
});
