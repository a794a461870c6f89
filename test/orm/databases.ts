/**
 * The databases every SQL suite runs on: embedded PGlite, and the PostgreSQL server at
 * 127.0.0.1:5432 in a schema of its own (dropped afterwards) through both drivers users pair with
 * Drizzle on a server, node-postgres and postgres.js (their rows, type parsing and array mode
 * differ). Each database counts the SQL statements it runs so tests can prove how many queries a
 * level takes.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js';
import postgresJs from 'postgres';
import pg from 'pg';
import type { SqlDatabase } from 'ergraph/orm';
import { recordSkip } from '../support/skips.js';

export const PG_URL = process.env.ERGRAPH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  db: SqlDatabase;
  /** SQL text of every statement run through `db` since the last `reset()`. */
  statements: string[];
  reset(): void;
  /** Run raw DDL / seed SQL (not counted). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres' | 'postgres.js';
  open(): Promise<TestDatabase>;
}

function counter() {
  const statements: string[] = [];
  return { statements, logger: { logQuery: (query: string) => void statements.push(query) } };
}

const pglite: DatabaseTarget = {
  name: 'pglite',
  async open() {
    const client = new PGlite();
    const { statements, logger } = counter();
    return {
      db: drizzlePglite({ client, logger }),
      statements,
      reset: () => void (statements.length = 0),
      exec: async (sql) => void (await client.exec(sql)),
      close: () => client.close(),
    };
  },
};

/** A schema of this run's own on the server, dropped by the returned function. */
async function ownSchema(url: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `ergraph_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
}

const postgres = (url: string): DatabaseTarget => ({
  name: 'postgres',
  async open() {
    const { schema, drop } = await ownSchema(url);
    // Unqualified table names resolve in this run's own schema only.
    const pool = new pg.Pool({ connectionString: url, options: `-c search_path="${schema}"`, max: 4 });
    const { statements, logger } = counter();
    return {
      db: drizzlePg({ client: pool, logger }),
      statements,
      reset: () => void (statements.length = 0),
      exec: async (sql) => void (await pool.query(sql)),
      async close() {
        await pool.end();
        await drop();
      },
    };
  },
});

const postgresJsTarget = (url: string): DatabaseTarget => ({
  name: 'postgres.js',
  async open() {
    const { schema, drop } = await ownSchema(url);
    const client = postgresJs(url, { max: 4, connection: { search_path: schema }, onnotice: () => undefined });
    const { statements, logger } = counter();
    return {
      db: drizzlePostgresJs({ client, logger }),
      statements,
      reset: () => void (statements.length = 0),
      // Several statements in one string go through the simple protocol.
      exec: async (sql) => void (await client.unsafe(sql).simple()),
      async close() {
        await client.end();
        await drop();
      },
    };
  },
});

/** Why the server cannot be used, or undefined when it answers. */
async function serverProblem(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * PGlite always; the server when it answers. When it does not, CI (`ERGRAPH_REQUIRE_PG`) fails
 * and a developer machine runs PGlite only, saying so on the console.
 */
export async function databaseTargets(url = PG_URL, env: Record<string, string | undefined> = process.env): Promise<DatabaseTarget[]> {
  const problem = await serverProblem(url);
  if (!problem) return [pglite, postgres(url), postgresJsTarget(url)];
  const message = `PostgreSQL server at ${url} is unreachable (${problem})`;
  if (env.ERGRAPH_REQUIRE_PG) throw new Error(`${message}; ERGRAPH_REQUIRE_PG is set, so the server variant must run`);
  console.warn(`${message}: running the SQL suite on PGlite only`);
  if (env === process.env) recordSkip('the node-postgres and postgres.js variants (PGlite ran)', message, 'ERGRAPH_REQUIRE_PG');
  return [pglite];
}

export { pglite as pgliteTarget };
