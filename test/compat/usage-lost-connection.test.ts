/**
 * The usage store on a PostgreSQL server whose connection is lost mid-flush: the backend killed
 * while the flush waits (pg_terminate_backend), and the reply to COMMIT dropped by a proxy after
 * the server committed. Each time the process lives, the flush fails, the recorder keeps the
 * batch, and the next flush leaves the exact counts: nothing lost, nothing counted twice.
 *
 * The order is the test's, not a clock's: the flush is made to wait on a table lock held by the
 * test, and the proxy says when it has dropped the reply.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createUsageRecorder, sqlUsageStore, type FlushFailure, type UsageRecorder } from 'ergraph/compat';
import { PG_URL } from '../orm/databases.js';
import { PgProxy } from '../support/pg-proxy.js';
import { pgServerUp } from '../support/pg-server.js';

const SCHEMA = `db_usage_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const APP = `db_usage_flush_${process.pid}`;

/** Resolves once `check` holds; each try is a round trip to the server (its state, not a clock). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setImmediate(r));
}

const hasServer = await pgServerUp('usage store on PostgreSQL, connection lost mid-flush');

describe.runIf(hasServer)('usage store on PostgreSQL, connection lost mid-flush', { timeout: 60_000 }, () => {
  let admin: pg.Client;
  const pools: pg.Pool[] = [];

  /** The store on a pool of its own (through `url`), as an app would open it, with the pool 'error' listener the docs advise. */
  function recorderOn(url: string, failures: FlushFailure[]): UsageRecorder {
    const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${SCHEMA}`, application_name: APP, max: 2 });
    pool.on('error', () => undefined);
    pools.push(pool);
    return createUsageRecorder(sqlUsageStore(drizzle({ client: pool })), { flushIntervalMs: 3_600_000, onError: (_e, info) => failures.push(info) });
  }

  async function counted(): Promise<number> {
    const { rows } = await admin.query<{ n: string | null }>(`select sum(count) as n from ${SCHEMA}.ergraph_usage`);
    return Number(rows[0]!.n ?? 0);
  }

  function recordUses(recorder: UsageRecorder, n: number): void {
    for (let i = 0; i < n; i++) recorder.record([`Query.f${i % 7}`], `client${i % 5}`);
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${SCHEMA}`);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await admin.query(`drop schema if exists ${SCHEMA} cascade`);
    await admin.end();
  });

  it('keeps the batch when its backend is killed during the flush, and writes it exactly once on the next', async () => {
    const failures: FlushFailure[] = [];
    const recorder = recorderOn(PG_URL, failures);
    recordUses(recorder, 10);
    await recorder.flush(); // creates the tables
    await admin.query(`truncate ${SCHEMA}.ergraph_usage`);

    const locker = new pg.Client({ connectionString: PG_URL });
    await locker.connect();
    await locker.query('begin');
    await locker.query(`lock table ${SCHEMA}.ergraph_usage in exclusive mode`);
    let flushing: Promise<void> = Promise.resolve();
    try {
      recordUses(recorder, 8250);
      flushing = recorder.flush();
      // The flush's backend, waiting on the lock inside its transaction.
      await until(async () => {
        const { rowCount } = await admin.query(`select pid from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`, [APP]);
        return rowCount === 1;
      });
      // Every backend of the pool: the flush's and the idle one.
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [APP]);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    await flushing;
    expect(recorder.status()).toMatchObject({ pendingUses: 8250, failedFlushes: 1, lostUses: 0 });
    expect(failures).toEqual([{ store: 'PostgreSQL (Drizzle)', uses: 8250, outcome: 'kept' }]);
    expect(await counted()).toBe(0);

    recordUses(recorder, 5);
    await recorder.flush();
    expect(await counted()).toBe(8255);
    expect(recorder.status()).toMatchObject({ pendingUses: 0, lostUses: 0 });
    await recorder.close();
  });

  it('counts a batch once when the reply to its COMMIT is lost and the flush is retried', async () => {
    const proxy = await PgProxy.start(PG_URL);
    try {
      const failures: FlushFailure[] = [];
      const recorder = recorderOn(proxy.url, failures);
      recordUses(recorder, 1);
      await recorder.flush(); // the tables exist (the first test, or now)
      await admin.query(`truncate ${SCHEMA}.ergraph_usage`);

      recordUses(recorder, 700);
      proxy.dropNextCommitReply();
      const dropped = once(proxy, 'dropped');
      await recorder.flush();
      await dropped;
      // The server committed; the recorder could not know, so it kept the batch.
      expect(await counted()).toBe(700);
      expect(recorder.status()).toMatchObject({ pendingUses: 700, failedFlushes: 1 });
      expect(failures).toMatchObject([{ uses: 700, outcome: 'kept' }]);

      await recorder.flush();
      expect(await counted()).toBe(700);
      expect(recorder.status()).toMatchObject({ pendingUses: 0, lostUses: 0 });
      await recorder.close();
    } finally {
      await proxy.close();
    }
  });
});
