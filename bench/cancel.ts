/**
 * Cancellation on PostgreSQL: a client sends a GraphQL request over a real socket, the request's
 * SQL statement is running on the server (it waits on a table lock another connection holds, so
 * it would run until that lock goes), and the client disconnects. Measured: the time from the
 * disconnect to the moment the server no longer runs the statement, for ergraph (graphqlApp on
 * @hono/node-server, node-postgres Pool and postgres.js) beside a hand-written node:http server
 * that runs the same statement on a pg client and sends pg's cancel on the request's `close`.
 * Also counted: statements started after the disconnect (the next level's), which must be 0.
 *
 * Time is wall clock from `socket.destroy()` to the first poll of pg_stat_activity that no longer
 * shows the statement waiting; each poll is one round trip on an idle connection.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { relations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import pg from 'pg';
import postgresJs from 'postgres';
import { ErDiagram, GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { AutoQueryConfig, buildRelationship, tableModel, type SqlDatabase } from 'ergraph/orm';
import { runAlone, type BenchRow, type BenchRun } from './report.js';
import { PG_URL } from './sql-support.js';

const owners = pgTable('owners', { id: serial('id').primaryKey(), name: text('name').notNull() });
const pets = pgTable('pets', { id: serial('id').primaryKey(), ownerId: integer('owner_id').notNull(), name: text('name').notNull() });
const toys = pgTable('toys', { id: serial('id').primaryKey(), petId: integer('pet_id').notNull(), name: text('name').notNull() });
const schema = {
  owners,
  pets,
  toys,
  ownersRelations: relations(owners, ({ many }) => ({ pets: many(pets) })),
  petsRelations: relations(pets, ({ one, many }) => ({ owner: one(owners, { fields: [pets.ownerId], references: [owners.id] }), toys: many(toys) })),
  toysRelations: relations(toys, ({ one }) => ({ pet: one(pets, { fields: [toys.petId], references: [pets.id] }) })),
};
class Owner extends tableModel(owners) {}
class Pet extends tableModel(pets) {}
class Toy extends tableModel(toys) {}

const QUERY = '{ Owner { byId(id: 1) { name pets { items { name toys { items { name } } } } } } }';
const PET_SQL = 'select id, owner_id, name from pets where owner_id = any($1)';

interface Side {
  name: string;
  /** Starts the request on a new socket; resolves the socket once connected and the request sent. */
  port: number;
  /** Statements the side logged (ergraph's through Drizzle's logger). */
  statements: string[];
  close(): Promise<void>;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setImmediate(r));
}

export const run: BenchRun = async ({ budgetMs }) => {
  const schemaName = `ergraph_bench_cancel_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL at ${PG_URL} unavailable (${(error as Error).message}): no cancellation bench (PGlite cannot cancel a statement)`);
    return [];
  }
  await admin.query(`create schema "${schemaName}"`);
  await admin.query(`set search_path = "${schemaName}"`);
  await admin.query(`create table owners (id serial primary key, name text not null);
    create table pets (id serial primary key, owner_id integer not null, name text not null);
    create table toys (id serial primary key, pet_id integer not null, name text not null);
    insert into owners (name) values ('a'), ('b');
    insert into pets (owner_id, name) values (1, 'p1'), (1, 'p2');
    insert into toys (pet_id, name) values (1, 't1');`);
  const options = `-c search_path="${schemaName}"`;
  const sides: Side[] = [];
  try {
    const pool = new pg.Pool({ connectionString: PG_URL, options, max: 4 });
    const sqlJs = postgresJs(PG_URL, { max: 4, connection: { search_path: schemaName }, onnotice: () => undefined });
    sides.push(await ergraphSide('ergraph, node-postgres', (logger) => drizzlePg({ client: pool, logger }), () => pool.end()));
    sides.push(await ergraphSide('ergraph, postgres.js', (logger) => drizzlePostgresJs({ client: sqlJs, logger }), () => sqlJs.end()));
    sides.push(await handWritten(options));

    const ms: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
    const after: Record<string, number> = Object.fromEntries(sides.map((s) => [s.name, 0]));
    const until_ = performance.now() + Math.min(budgetMs, 20_000);
    for (let round = 0; round < 3 || (performance.now() < until_ && round < 40); round++) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        const { took, started } = await disconnectOnce(admin, schemaName, side);
        ms[side.name]!.push(took);
        after[side.name]! += started;
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const base = sides[2]!;
    return sides.slice(0, 2).map(
      (side): BenchRow => ({
        bench: 'cancel',
        case: 'client disconnects while its SQL runs → statement cancelled on PostgreSQL',
        subject: side.name,
        subjectMs: median(ms[side.name]!),
        baseline: base.name,
        baselineMs: median(ms[base.name]!),
        rounds: ms[side.name]!.length,
        note: `statements started after the disconnect: ${after[side.name]} (baseline ${after[base.name]})`,
      }),
    );
  } finally {
    for (const side of sides) await side.close().catch(() => undefined);
    await admin.query(`drop schema "${schemaName}" cascade`).catch(() => undefined);
    await admin.end();
  }
};

/** One round: lock, request, wait for the statement to wait, disconnect, time until it is gone. */
async function disconnectOnce(admin: pg.Client, schemaName: string, side: Side): Promise<{ took: number; started: number }> {
  const locker = new pg.Client({ connectionString: PG_URL });
  await locker.connect();
  const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  await locker.query('begin');
  await locker.query(`lock table "${schemaName}".pets in access exclusive mode`);
  const waiting = async () => (await admin.query(`select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))`, [lockerPid])).rowCount!;
  try {
    const body = JSON.stringify({ query: QUERY });
    const socket = connect(side.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    socket.write(`POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await until(async () => (await waiting()) === 1);
    const before = side.statements.length;
    const t0 = performance.now();
    socket.destroy();
    await until(async () => (await waiting()) === 0);
    const took = performance.now() - t0;
    return { took, started: side.statements.length - before };
  } finally {
    await locker.query('rollback');
    await locker.end();
  }
}

async function listen(server: Server | ReturnType<typeof serve>): Promise<number> {
  if (!server.listening) await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function ergraphSide(name: string, open: (logger: { logQuery(q: string): void }) => SqlDatabase, end: () => Promise<void>): Promise<Side> {
  const statements: string[] = [];
  const db = open({ logQuery: (q) => void statements.push(q) });
  const entities = buildRelationship({ db, schema, models: [Owner, Pet, Toy], orderBy: { 'owners.pets': pets.id, 'pets.toys': toys.id } });
  const handler = new GraphQLHandler(new ErDiagram({ entities }), { enablePagination: true, base: schema, sessionFactory: () => db, autoQueryConfig: new AutoQueryConfig({}) });
  const server = serve({ fetch: graphqlApp(handler).fetch, hostname: '127.0.0.1', port: 0 });
  const port = await listen(server);
  return {
    name,
    port,
    statements,
    async close() {
      await new Promise((r) => server.close(r));
      await end();
    },
  };
}

/** node:http + pg by hand: the owner, then its pets on a checked-out client, cancelled on `close`. */
async function handWritten(options: string): Promise<Side> {
  const pool = new pg.Pool({ connectionString: PG_URL, options, max: 4 });
  const statements: string[] = [];
  const server = createServer((req, res) => {
    let gone = false;
    let client: pg.PoolClient | undefined;
    res.on('close', () => {
      if (res.writableFinished) return;
      gone = true;
      // pg's own cancel (typed as absent by @types/pg): a CancelRequest for the client's running query.
      const canceller = new pg.Client({ connectionString: PG_URL, options }) as unknown as { cancel(client: unknown, query: unknown): void };
      if (client) canceller.cancel(client, (client as unknown as { _activeQuery: unknown })._activeQuery);
    });
    req.resume();
    req.on('end', async () => {
      try {
        client = await pool.connect();
        statements.push('owners');
        await client.query('select id, name from owners where id = $1', [1]);
        if (gone) throw new Error('gone');
        statements.push('pets');
        const petRows = await client.query(PET_SQL, [[1]]);
        if (gone) throw new Error('gone');
        statements.push('toys');
        await client.query('select id, pet_id, name from toys where pet_id = any($1)', [petRows.rows.map((r) => r.id)]);
        res.end(JSON.stringify({ data: {} }));
      } catch {
        res.destroy();
      } finally {
        client?.release(gone);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  const port = await listen(server);
  return {
    name: 'hand-written node:http + pg cancel',
    port,
    statements,
    async close() {
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}

await runAlone(import.meta, run, 15_000);
