/**
 * What the SQL benches (sql-pagination, columns) share: the two databases, alternating timed
 * rounds, EXPLAIN's plan shape, and the row every bench returns to `npm run bench`.
 *
 * `BenchRow` / `run({ budgetMs })` follow the contract of the `npm run bench` runner; the timing
 * is the same idea as its `alternate`: one call per side per round, the order rotating every
 * round, each side's median, until the time budget is spent. tinybench's 64-iteration minimum
 * made a multi-hundred-millisecond side run for minutes and timed the sides one after the other.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SqlDatabase } from 'ergraph/orm';

export interface BenchRow {
  bench: string;
  case: string;
  subject: string;
  subjectMs: number;
  baseline: string;
  baselineMs: number;
  /** Other sides measured in the same rounds, ms per operation by name. */
  others?: Record<string, number>;
  target?: number;
  rounds?: number;
  /** Anything else the row should say (plan shape, bytes). */
  note?: string;
}

export interface BenchOptions {
  budgetMs: number;
}

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

/** Median ms per call of each side from alternating rounds, within `budgetMs` (at least `minRounds`). */
export async function alternate(
  sides: Record<string, () => Promise<unknown>>,
  { budgetMs, minRounds = 5, maxRounds = 500 }: { budgetMs: number; minRounds?: number; maxRounds?: number },
): Promise<{ ms: Record<string, number>; rounds: number }> {
  const names = Object.keys(sides);
  for (const name of names) await sides[name]!(); // warm-up: JIT, plan caches
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const start = performance.now();
  let rounds = 0;
  while (rounds < maxRounds && (rounds < minRounds || performance.now() - start < budgetMs)) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + rounds) % names.length]!;
      const t0 = performance.now();
      await sides[name]!();
      times[name]!.push(performance.now() - t0);
    }
    rounds++;
  }
  return { ms: Object.fromEntries(names.map((n) => [n, median(times[n]!)])), rounds };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export function printRows(rows: readonly BenchRow[]): void {
  for (const r of rows) {
    const ratio = r.subjectMs / r.baselineMs;
    console.log(`\n[${r.bench}] ${r.case} (${r.rounds ?? '?'} alternating rounds, medians)`);
    console.log(`  ${r.subject.padEnd(44)} ${fmt(r.subjectMs).padStart(9)} ms`);
    console.log(`  ${r.baseline.padEnd(44)} ${fmt(r.baselineMs).padStart(9)} ms`);
    for (const [name, ms] of Object.entries(r.others ?? {})) console.log(`  ${name.padEnd(44)} ${fmt(ms).padStart(9)} ms`);
    const verdict = r.target ? ` (target <= ${r.target}x: ${ratio <= r.target ? 'met' : 'MISSED'})` : '';
    console.log(`  ratio ${r.subject} / ${r.baseline} = ${ratio.toFixed(2)}x${verdict}`);
    if (r.note) console.log(`  ${r.note}`);
  }
}

/** Run `bench` when its module is the program (`npx tsx bench/<name>.ts`); `BENCH_BUDGET_MS` overrides the budget. */
export async function runAlone(meta: ImportMeta, bench: (options: BenchOptions) => Promise<BenchRow[]>, budgetMs: number): Promise<void> {
  if (process.argv[1] !== fileURLToPath(meta.url)) return;
  printRows(await bench({ budgetMs: Number(process.env.BENCH_BUDGET_MS) || budgetMs }));
}
