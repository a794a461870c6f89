/** Whether the PostgreSQL server of the SQL tests answers; CI (`ERGRAPH_REQUIRE_PG`) requires it. */
import pg from 'pg';
import { PG_URL } from '../orm/databases.js';
import { recordSkip } from './skips.js';

/**
 * For a suite that runs only on the server: false (and `what` recorded as skipped, so `npm test`
 * lists it) when the server does not answer; with ERGRAPH_REQUIRE_PG set, that throws instead.
 */
export async function pgServerUp(
  what: string,
  { url = PG_URL, env = process.env, record = recordSkip }: { url?: string; env?: Record<string, string | undefined>; record?: typeof recordSkip } = {},
): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (env.ERGRAPH_REQUIRE_PG) throw new Error(`PostgreSQL at ${url} is unreachable and ERGRAPH_REQUIRE_PG is set: ${(error as Error).message}`);
    record(what, `no PostgreSQL server answers at ${url} (${(error as Error).message})`, 'ERGRAPH_REQUIRE_PG');
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Ends every backend whose application_name is `name`; how many. */
export async function terminateBackends(name: string, url = PG_URL): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [name]);
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}
