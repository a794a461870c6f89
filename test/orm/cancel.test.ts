/**
 * Cancellation reaches the database: a caller's signal that aborts, a budget that runs out, or an
 * HTTP client that disconnects cancels the SQL statement in flight on the server (node-postgres,
 * postgres.js), and nothing starts after it. The statement is made to wait on a table lock held
 * by another connection, so it is surely running when the abort comes, and its wait can only end
 * early by being cancelled (the lock is held until the test checks).
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { serve, type ServerType } from '@hono/node-server';
import { ErDiagram, GraphQLHandler } from 'ergraph';
import { AutoQueryConfig, buildRelationship, tableModel } from 'ergraph/orm';
import { graphqlApp } from 'ergraph/http';
import { databaseTargets, PG_URL, type TestDatabase } from './databases.js';
import { comments, DDL, schema, seedSql, tags, tasks, taskTags, users } from './fixture.js';

class User extends tableModel(users) {}
class Task extends tableModel(tasks) {}
class Comment extends tableModel(comments) {}
class Tag extends tableModel(tags) {}

const servers = (await databaseTargets()).filter((t) => t.name !== 'pglite');
const QUERY = `{ User { byId(id: 1) { name tasks { items { title comments { items { body } } } } } } }`;

/** Statements blocked by `holder`'s lock, waiting now (their backends' pids). */
async function waitingOn(admin: pg.Client, holder: number): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(`select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))`, [holder]);
  return rows.map((r) => r.pid);
}

/** Resolves once `check` holds; each try is one round trip to the server, so this waits on the server's state, not on a clock. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setImmediate(r));
}

describe.each(servers)('cancelling SQL on $name', (target) => {
  let t: TestDatabase;
  let handler: GraphQLHandler;
  let timed: GraphQLHandler;
  let admin: pg.Client;
  let locker: pg.Client;
  let lockerPid: number;
  let schemaName: string;

  beforeAll(async () => {
    t = await target.open();
    await t.exec(DDL);
    await t.exec(seedSql());
    const entities = buildRelationship({ db: t.db, schema, models: [User, Task, Comment, Tag], orderBy: { 'users.tasks': tasks.rank, 'users.reviews': tasks.id, 'tasks.comments': comments.id }, manyToMany: [{ source: tasks, name: 'tags', target: tags, through: taskTags, sourceKey: taskTags.taskId, targetKey: taskTags.tagId, orderBy: tags.label }] });
    const options = { enablePagination: true, base: schema, sessionFactory: () => t.db, autoQueryConfig: new AutoQueryConfig({ defaultLimit: 10 }) };
    handler = new GraphQLHandler(new ErDiagram({ entities }), options);
    timed = new GraphQLHandler(new ErDiagram({ entities }), { ...options, limits: { timeout: 500 } });
    const probe = await t.db.execute(`select current_schema() as s` as never);
    schemaName = ((probe as unknown as { rows?: { s: string }[] }).rows ?? (probe as unknown as { s: string }[]))[0]!.s;
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  /** Another connection takes the table, so the next statement reading it waits. */
  async function lockTasks(table = 'tasks'): Promise<void> {
    locker = new pg.Client({ connectionString: PG_URL });
    await locker.connect();
    lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await locker.query('begin');
    await locker.query(`lock table "${schemaName}".${table} in access exclusive mode`);
  }
  async function unlock(): Promise<void> {
    await locker.query('rollback');
    await locker.end();
  }

  it('cancels the statement in flight when the caller aborts, and starts nothing after it', async () => {
    await lockTasks();
    try {
      t.reset();
      const controller = new AbortController();
      const answer = handler.execute(QUERY, { signal: controller.signal });
      await until(async () => (await waitingOn(admin, lockerPid)).length === 1);
      const started = t.statements.length;
      controller.abort(new Error('client went away'));
      const result = await answer;
      expect(result.data).toBeNull();
      expect(result.errors).toMatchObject([{ extensions: { code: 'OPERATION_CANCELLED' } }]);
      expect(result.errors![0]!.message).toMatch(/cancelled: client went away/);
      // The lock is still held: the wait can only have ended by the server cancelling it.
      await until(async () => (await waitingOn(admin, lockerPid)).length === 0);
      expect(t.statements.length).toBe(started);
      expect(t.statements.join('\n')).not.toMatch(/"comments"/);
    } finally {
      await unlock();
    }
  });

  it("cancels an auto-generated root query's statement when the caller aborts", async () => {
    await lockTasks('users');
    try {
      const controller = new AbortController();
      const answer = handler.execute('{ User { getAll(limit: 2) { name } } }', { signal: controller.signal });
      await until(async () => (await waitingOn(admin, lockerPid)).length === 1);
      controller.abort(new Error('client went away'));
      const result = await answer;
      expect(result.data).toBeNull();
      expect(result.errors).toMatchObject([{ extensions: { code: 'OPERATION_CANCELLED' } }]);
      // The lock is still held: the wait can only have ended by the server cancelling it.
      await until(async () => (await waitingOn(admin, lockerPid)).length === 0);
    } finally {
      await unlock();
    }
  });

  it('cancels the statement in flight when the budget runs out', async () => {
    await lockTasks();
    try {
      const answer = timed.execute(QUERY);
      await until(async () => (await waitingOn(admin, lockerPid)).length === 1);
      const result = await answer;
      expect(result.errors).toMatchObject([{ extensions: { code: 'OPERATION_TIMEOUT' } }]);
      await until(async () => (await waitingOn(admin, lockerPid)).length === 0);
    } finally {
      await unlock();
    }
  });

  it('starts no statement for an operation whose signal already aborted', async () => {
    t.reset();
    const result = await handler.execute(QUERY, { signal: AbortSignal.abort('gone') });
    expect(result.errors).toMatchObject([{ extensions: { code: 'OPERATION_CANCELLED' } }]);
    expect(t.statements).toEqual([]);
  });

  it('still answers once the lock is gone (the pool kept working after the cancels)', async () => {
    const result = await handler.execute(QUERY);
    expect(result.errors).toBeNull();
    expect((result.data as { User: { byId: { name: string } } }).User.byId.name).toBeTruthy();
  });

  describe('over HTTP', () => {
    let server: ServerType;
    beforeAll(async () => {
      server = serve({ fetch: graphqlApp(handler).fetch, hostname: '127.0.0.1', port: 0 });
      await once(server, 'listening');
    });
    afterAll(async () => {
      await new Promise((r) => server.close(r));
    });

    it('cancels the statement when the client disconnects mid-request', async () => {
      await lockTasks();
      try {
        const body = JSON.stringify({ query: QUERY });
        const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
        await once(socket, 'connect');
        socket.on('error', () => undefined);
        socket.write(`POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        await until(async () => (await waitingOn(admin, lockerPid)).length === 1);
        socket.destroy();
        // The lock is still held: the statement stops waiting only because it was cancelled.
        await until(async () => (await waitingOn(admin, lockerPid)).length === 0);
      } finally {
        await unlock();
      }
    });
  });
});
