/** Whether the PostgreSQL server of the SQL tests answers; CI (`ERGRAPH_REQUIRE_PG`) requires it. */
import pg from 'pg';
import { PG_URL } from '../orm/databases.js';

export async function pgServerUp(url = PG_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (process.env.ERGRAPH_REQUIRE_PG) throw new Error(`PostgreSQL at ${url} is unreachable and ERGRAPH_REQUIRE_PG is set: ${(error as Error).message}`);
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
