/**
 * Rows taken as they arrive (src/orm/stream.ts): on node-postgres, list and page items are built
 * while the statement's rows are parsed, before its end is read; the results are those of the
 * path that takes the rows after the statement (PGlite here); an error building an item rejects
 * the batch without escaping through the socket's handler; cancellation is cancel.test.ts's,
 * whose page statements take this path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { relations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Page } from 'ergraph';
import { buildRelationship, SqlRelationship, tableModel, type SqlDatabase } from 'ergraph/orm';
import { eachRow } from '../../src/orm/stream.js';
import { databaseTargets, PG_URL, pgliteTarget, type TestDatabase } from './databases.js';
import { comments, DDL, schema, seedSql, tags, tasks, taskTags, users } from './fixture.js';

const hasServer = (await databaseTargets()).some((t) => t.name === 'postgres');

/** Statement ends (ReadyForQuery) node-postgres has read so far, over every connection of the pool. */
let ended = 0;
/** `ended` as each item was built. */
const built: number[] = [];

class User extends tableModel(users) {}
class Task extends tableModel(tasks) {
  constructor(data?: object) {
    super(data);
    built.push(ended);
  }
}
class Comment extends tableModel(comments) {}
class Tag extends tableModel(tags) {}

const oddParents = pgTable('stream_parents', { id: serial('id').primaryKey() });
const odd = pgTable('stream_odd', { id: serial('id').primaryKey(), parentId: integer('parent_id').notNull(), value: text('value').notNull() });
class OddParent extends tableModel(oddParents) {}
class Odd extends tableModel(odd) {
  constructor(data?: object) {
    super(data);
    if (this.value === 'bad') throw new Error('stream_odd: an item that cannot be built');
  }
}
const oddSchema = {
  oddParents,
  odd,
  oddParentsRelations: relations(oddParents, ({ many }) => ({ odd: many(odd) })),
  oddRelations: relations(odd, ({ one }) => ({ parent: one(oddParents, { fields: [odd.parentId], references: [oddParents.id] }) })),
};
const ODD_DDL = `CREATE TABLE stream_parents (id serial PRIMARY KEY);
  CREATE TABLE stream_odd (id serial PRIMARY KEY, parent_id integer NOT NULL, value text NOT NULL);
  INSERT INTO stream_parents SELECT FROM generate_series(1, 3);
  INSERT INTO stream_odd (parent_id, value) VALUES (1, 'a'), (1, 'b'), (2, 'c'), (2, 'bad'), (2, 'd'), (3, 'e');`;

function entities(db: SqlDatabase) {
  return buildRelationship({
    db,
    schema,
    models: [User, Task, Comment, Tag],
    orderBy: { 'users.tasks': tasks.rank, 'users.reviews': tasks.id, 'tasks.comments': comments.id },
    manyToMany: [{ source: tasks, name: 'tags', target: tags, through: taskTags, sourceKey: taskTags.taskId, targetKey: taskTags.tagId, orderBy: tags.label }],
  });
}
const relOf = (list: ReturnType<typeof entities>, kls: Function, name: string) =>
  list.find((e) => e.kls === kls)!.relationships.find((r) => r.name === name) as SqlRelationship;

describe.skipIf(!hasServer)('rows taken as they arrive, on node-postgres', () => {
  const schemaName = `sql_stream_${process.pid}_${Date.now().toString(36)}`;
  let pool: pg.Pool;
  let single: pg.Client;
  let lite: TestDatabase;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schemaName}"`);
    await admin.end();
    const options = `-c search_path="${schemaName}"`;
    pool = new pg.Pool({ connectionString: PG_URL, options, max: 2 });
    pool.on('connect', (client) => void (client as unknown as { connection: pg.Connection }).connection.on('readyForQuery', () => ended++));
    await pool.query(DDL);
    await pool.query(seedSql());
    await pool.query(ODD_DDL);
    single = new pg.Client({ connectionString: PG_URL, options });
    await single.connect();
    lite = await pgliteTarget.open();
    await lite.exec(DDL);
    await lite.exec(seedSql());
  });
  afterAll(async () => {
    await single?.end();
    await pool?.query(`DROP SCHEMA "${schemaName}" CASCADE`);
    await pool?.end();
    await lite?.close();
  });

  it('builds the items while the rows are read, before the statement has ended', async () => {
    const tasksRel = relOf(entities(drizzlePg({ client: pool })), User, 'tasks');
    for (const load of [
      () => tasksRel.pageLoader!([1, 5, 2], { limit: 2, offset: 0, withTotal: true }),
      () => (tasksRel.loader as unknown as (keys: number[]) => Promise<unknown>)([1, 5, 2]),
    ]) {
      built.length = 0;
      const before = ended;
      await load();
      expect(ended).toBeGreaterThan(before);
      expect(built.length).toBeGreaterThan(0);
      // Every item was built before the end of its statement was read.
      expect(built.every((at) => at === before)).toBe(true);
    }
  });

  it('gives the same pages and lists as the driver that hands its rows over at the end (PGlite)', async () => {
    const sides = [entities(drizzlePg({ client: pool })), entities(drizzlePg({ client: single })), entities(lite.db)];
    const answers = await Promise.all(
      sides.map(async (list) => {
        const tasksRel = relOf(list, User, 'tasks');
        const tagsRel = relOf(list, Task, 'tags');
        const pages = (keys: unknown[], limit: number, offset: number, withTotal: boolean) =>
          tasksRel.pageLoader!(keys, { limit, offset, withTotal }) as Promise<Page<Task>[]>;
        return JSON.stringify([
          await pages([5, 1, 3, 2, 4, 99, 5], 3, 0, true),
          await pages([5, 1, 2], 2, 4, true),
          await pages([1, 2], 5, 100, true),
          await pages([4, 5], 4, 1, false),
          await (tasksRel.loader as unknown as (keys: unknown[]) => Promise<unknown>)([2, 99, 5, 2, 1]),
          await tagsRel.pageLoader!([1, 2, 3, 4, 5, 6], { limit: 2, offset: 0, withTotal: true }),
        ]);
      }),
    );
    expect(answers[0]).toEqual(answers[2]);
    expect(answers[1]).toEqual(answers[2]);
  });

  it('calls onSent once, after the statement is handed over and before its first row, on every path', async () => {
    for (const db of [drizzlePg({ client: pool }), drizzlePg({ client: single }), lite.db]) {
      const events: string[] = [];
      const count = await eachRow(db, 'select g from generate_series(1, 3) g', [], (row) => events.push(`row ${String(row[0])}`), () => events.push('sent'));
      expect(count).toBe(3);
      expect(events).toEqual(['sent', 'row 1', 'row 2', 'row 3']);
      // An error from onSent rejects the call (after the statement, as one from onRow does): no row is passed on.
      const rows: unknown[] = [];
      const failing = eachRow(db, 'select 1', [], (row) => rows.push(row), () => {
        throw new Error('onSent failed');
      });
      await expect(failing).rejects.toThrow('onSent failed');
      expect(rows).toEqual([]);
      expect(await eachRow(db, 'select 1', [], () => undefined)).toBe(1);
    }
  });

  it('rejects the batch with the error an item threw, and the pool keeps answering', async () => {
    const built = buildRelationship({ db: drizzlePg({ client: pool }), schema: oddSchema, models: [OddParent, Odd], orderBy: { 'oddParents.odd': odd.id } });
    const rel = built.flatMap((e) => e.relationships).find((r) => r.name === 'odd') as SqlRelationship;
    const list = rel.loader as unknown as (keys: number[]) => Promise<{ value: string }[][]>;
    await expect(list([1, 2, 3])).rejects.toThrow(/stream_odd: an item that cannot be built/);
    await expect(rel.pageLoader!([2], { limit: 5, offset: 0, withTotal: true })).rejects.toThrow(/cannot be built/);
    expect((await list([1, 3])).map((l) => l.map((x) => x.value))).toEqual([['a', 'b'], ['e']]);
    expect(pool.totalCount).toBeLessThanOrEqual(2);
  });

  it("rejects with the server's error when the statement is cancelled mid-flight, and cancels it on the server", async () => {
    const built = buildRelationship({ db: drizzlePg({ client: pool }), schema: oddSchema, models: [OddParent, Odd], orderBy: { 'oddParents.odd': odd.id } });
    const rel = built.flatMap((e) => e.relationships).find((r) => r.name === 'odd') as SqlRelationship;
    // Another connection holds the table: the page statement waits until it is cancelled.
    const locker = new pg.Client({ connectionString: PG_URL });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`lock table "${schemaName}".stream_odd in access exclusive mode`);
      const waiting = async () =>
        (await locker.query(`select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))`)).rows[0].n as number;
      const controller = new AbortController();
      const answer = rel.pageLoader!([1, 3], { limit: 5, offset: 0, withTotal: true }, undefined, { signal: controller.signal, context: undefined });
      const settled = answer.then(() => 'resolved', (error: { cause?: { code?: string } }) => error.cause?.code);
      while ((await waiting()) === 0) await new Promise((r) => setImmediate(r));
      controller.abort(new Error('gone'));
      // 57014: query_canceled, the server's answer to the cancel request.
      expect(await settled).toBe('57014');
      expect(await waiting()).toBe(0);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    expect((await rel.pageLoader!([3], { limit: 5, offset: 0, withTotal: true }))[0]!.items.map((x) => (x as Odd).value)).toEqual(['e']);
  });
});
