/**
 * What the SQL benches (sql-pagination, columns) share: the two databases, EXPLAIN's plan
 * shape, and running a measurement on each database. Rows and timing are report.ts's, on the
 * wall clock: the PostgreSQL server's work is not this process's CPU time.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { SqlDatabase } from 'ergraph/orm';
import { alternate as alternateOn, type AlternateOptions, type BenchRow } from './report.js';

export const PG_URL = process.env.ERGRAPH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database with a raw query function (for the hand-written peers and EXPLAIN) and the SQL Drizzle last ran. */
export interface BenchDatabase {
  name: 'PGlite' | 'PostgreSQL';
  db: SqlDatabase;
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Several statements (DDL, seed), then VACUUM ANALYZE so index-only scans and statistics are as in a live database. */
  setup(sql: string): Promise<void>;
  last(): { sql: string; params: unknown[] };
  /** Bytes received from the server so far (PostgreSQL only: PGlite has no wire). */
  bytesRead?(): number;
  close(): Promise<void>;
}

function lastQuery() {
  let last = { sql: '', params: [] as unknown[] };
  return { last: () => last, logger: { logQuery: (sql: string, params: unknown[]) => void (last = { sql, params }) } };
}

export async function openPglite(): Promise<BenchDatabase> {
  const client = new PGlite();
  const { last, logger } = lastQuery();
  return {
    name: 'PGlite',
    db: drizzlePglite({ client, logger }),
    query: async (text, params) => (await client.query(text, params)).rows as never,
    async setup(sql) {
      await client.exec(sql);
      await client.exec('VACUUM ANALYZE');
    },
    last,
    close: () => client.close(),
  };
}

/** The PostgreSQL server in a schema of its own, or undefined (with the reason printed) when it does not answer. */
export async function openPostgres(): Promise<BenchDatabase | undefined> {
  const schema = `ergraph_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
  } catch (error) {
    console.log(`PostgreSQL at ${PG_URL} unavailable (${(error as Error).message}): PGlite only`);
    return undefined;
  } finally {
    await admin.end().catch(() => undefined);
  }
  // One connection: both sides run on the same backend, one statement at a time.
  const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path="${schema}"`, max: 1, idleTimeoutMillis: 0 });
  const { last, logger } = lastQuery();
  const client = await pool.connect();
  client.release();
  const stream = (client as unknown as { connection: { stream: { bytesRead: number } } }).connection.stream;
  return {
    name: 'PostgreSQL',
    db: drizzlePg({ client: pool, logger }),
    query: async (text, params) => (await pool.query(text, params)).rows,
    bytesRead: () => stream.bytesRead,
    async setup(sql) {
      await pool.query(sql);
      await pool.query('VACUUM ANALYZE');
    },
    last,
    async close() {
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

export async function databases(): Promise<BenchDatabase[]> {
  const out = [await openPglite()];
  const server = await openPostgres();
  if (server) out.push(server);
  return out;
}

/** Alternating rounds (report.ts) on the wall clock. */
export const alternate = (sides: Record<string, () => unknown>, options: Omit<AlternateOptions, 'clock'>) =>
  alternateOn(sides, { ...options, clock: 'wall' });

/** `measure` on PGlite and, when it answers, PostgreSQL, sharing the budget; the databases are closed after. */
export async function onEachDatabase(budgetMs: number, measure: (database: BenchDatabase, budgetMs: number) => Promise<BenchRow[]>): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dbs = await databases();
  try {
    for (const database of dbs) rows.push(...(await measure(database, budgetMs / dbs.length)));
  } finally {
    for (const database of dbs) await database.close();
  }
  return rows;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Function Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** EXPLAIN's plan as one line of node kinds: `Nested Loop(Function Scan unnest, Limit(Index Scan children_parent_score ×1000))`. */
export async function planShape(database: BenchDatabase, sql: string, params: unknown[]): Promise<string> {
  const rows = await database.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  let plan = Object.values(rows[0]!)[0] as unknown;
  if (typeof plan === 'string') plan = JSON.parse(plan);
  const node = (n: PlanNode): string => {
    const what = n['Index Name'] ?? n['Function Name'] ?? n['Relation Name'];
    const loops = n['Actual Loops'] && n['Actual Loops'] > 1 ? ` x${n['Actual Loops']}` : '';
    const children = n.Plans?.length ? `(${n.Plans.map(node).join(', ')})` : '';
    return `${n['Node Type']}${what ? ` ${what}` : ''}${loops}${children}`;
  };
  return node((plan as { Plan: PlanNode }[])[0]!.Plan);
}
