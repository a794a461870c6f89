/**
 * Top-N per parent: 1,000 parents × 100 children, top 5, on PGlite and on the PostgreSQL server
 * (when it answers). ergraph's page loader (one `CROSS JOIN LATERAL (... ORDER BY ... LIMIT)`
 * statement over `unnest($1)` of the keys, rows turned into model instances) against
 *
 *   - the hand-written LATERAL query through the raw driver — the fastest known way (baseline),
 *   - the same lateral over a VALUES list of the keys instead of unnest($1),
 *   - `ROW_NUMBER() OVER (PARTITION BY parent ...)`, what ergraph's loader ran before,
 *   - fetching every child of the parents and slicing in JavaScript,
 *
 * and, with `total_count`, the per-parent count lateral ergraph uses against the two other ways
 * to count: a window `count(*) over ()` inside the page lateral, and a grouped count joined by
 * hash. Every side is checked to give the same pages first. EXPLAIN's plan shape is printed.
 *
 *   npx tsx bench/sql-pagination.ts        (BENCH_BUDGET_MS=<ms> to change the time budget)
 */
import { asc, inArray, relations } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { buildRelationship, SqlRelationship } from 'ergraph/orm';
import { runAlone, type BenchRow, type BenchRun } from './report.js';
import { alternate, onEachDatabase, planShape, type BenchDatabase } from './sql-support.js';

const PARENTS = 1_000;
const CHILDREN = 100;
const TOP = 5;

const parents = pgTable('parents', { id: serial('id').primaryKey(), name: text('name').notNull() });
const children = pgTable('children', {
  id: serial('id').primaryKey(),
  parentId: integer('parent_id').notNull(),
  score: integer('score').notNull(),
  label: text('label').notNull(),
});
const schema = {
  parents,
  children,
  parentsRelations: relations(parents, ({ many }) => ({ children: many(children) })),
  childrenRelations: relations(children, ({ one }) => ({
    parent: one(parents, { fields: [children.parentId], references: [parents.id] }),
  })),
};

const SETUP = `
  CREATE TABLE parents (id serial PRIMARY KEY, name text NOT NULL);
  CREATE TABLE children (id serial PRIMARY KEY, parent_id integer NOT NULL, score integer NOT NULL, label text NOT NULL);
  INSERT INTO parents (name) SELECT 'parent ' || g FROM generate_series(1, ${PARENTS}) g;
  INSERT INTO children (parent_id, score, label)
    SELECT p, (p * 7919 + c * 104729) % 1000, 'child ' || p || '/' || c
    FROM generate_series(1, ${PARENTS}) p, generate_series(1, ${CHILDREN}) c;
  -- The index the order profile wants (docs/sql.md: "Indexes for page orders").
  CREATE INDEX children_parent_score ON children (parent_id, score, id);
`;

type Child = { id: number; parent_id: number; score: number; label: string };
type Pages = { ids: number[][]; more: boolean[]; totals?: number[] };

const keys = Array.from({ length: PARENTS }, (_, i) => i + 1);
const COLUMNS = 'c.id, c.parent_id, c.score, c.label';
const ORDER = 'c.score ASC NULLS LAST, c.id ASC';

/** The hand-written peer: what a developer who knows LATERAL writes, read through the raw driver. */
const LATERAL = `SELECT k.key, ${COLUMNS} FROM unnest($1::int[]) AS k(key)
  CROSS JOIN LATERAL (SELECT * FROM children c WHERE c.parent_id = k.key ORDER BY ${ORDER} LIMIT ${TOP + 1}) c`;
/** The same lateral over a VALUES list of the keys (one parameter each) instead of unnest($1). */
const VALUES = `SELECT k.key, ${COLUMNS} FROM (VALUES ${keys.map((_, i) => `($${i + 1}::int)`).join(', ')}) AS k(key)
  CROSS JOIN LATERAL (SELECT * FROM children c WHERE c.parent_id = k.key ORDER BY ${ORDER} LIMIT ${TOP + 1}) c`;
const ROW_NUMBER = `SELECT * FROM (SELECT ${COLUMNS}, row_number() OVER (PARTITION BY c.parent_id ORDER BY ${ORDER}) AS rn
  FROM children c WHERE c.parent_id = ANY($1::int[])) r WHERE rn <= ${TOP + 1} ORDER BY parent_id, rn`;
const TOTAL_LATERAL = `SELECT k.key, n.total, ${COLUMNS} FROM unnest($1::int[]) AS k(key)
  CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM children c WHERE c.parent_id = k.key) n
  LEFT JOIN LATERAL (SELECT * FROM children c WHERE c.parent_id = k.key ORDER BY ${ORDER} LIMIT ${TOP + 1}) c ON true`;
const TOTAL_WINDOW = `SELECT k.key, c.* FROM unnest($1::int[]) AS k(key)
  CROSS JOIN LATERAL (SELECT ${COLUMNS}, count(*) OVER () AS total FROM children c WHERE c.parent_id = k.key ORDER BY ${ORDER} LIMIT ${TOP + 1}) c`;
const TOTAL_GROUPED = `SELECT k.key, n.total, ${COLUMNS} FROM unnest($1::int[]) AS k(key)
  LEFT JOIN (SELECT parent_id, count(*)::int AS total FROM children WHERE parent_id = ANY($1::int[]) GROUP BY parent_id) n ON n.parent_id = k.key
  LEFT JOIN LATERAL (SELECT * FROM children c WHERE c.parent_id = k.key ORDER BY ${ORDER} LIMIT ${TOP + 1}) c ON true`;

/** Rows with a parent key (`key` or `parent_id`) in page order → pages of `TOP` ids plus has_more. */
function group(rows: readonly (Partial<Child> & { key?: number; total?: number })[], withTotal = false): Pages {
  const ids = keys.map((): number[] => []);
  const more = keys.map(() => false);
  const totals = withTotal ? keys.map(() => 0) : undefined;
  for (const row of rows) {
    const i = (row.key ?? row.parent_id!) - 1;
    if (totals) totals[i] = Number(row.total);
    if (row.id === null || row.id === undefined) continue;
    if (ids[i]!.length < TOP) ids[i]!.push(row.id);
    else more[i] = true;
  }
  return { ids, more, totals };
}

async function measure(database: BenchDatabase, budgetMs: number): Promise<BenchRow[]> {
  await database.setup(SETUP);
  const [parent] = buildRelationship({ db: database.db, schema, orderBy: { 'parents.children': children.score } });
  const rel = parent!.relationships.find((r) => r.name === 'children') as SqlRelationship;
  const page = (withTotal: boolean) => async (): Promise<Pages> => {
    const pages = await rel.pageLoader!(keys, { limit: TOP, offset: 0, withTotal });
    return {
      ids: pages.map((p) => p.items.map((item) => (item as { id: number }).id)),
      more: pages.map((p) => p.hasMore),
      totals: withTotal ? pages.map((p) => p.total!) : undefined,
    };
  };
  const raw = (sql: string, withTotal = false) => async () => group(await database.query<Child>(sql, [keys]), withTotal);
  const overValues = async () => group(await database.query<Child>(VALUES, keys));
  const allThenSlice = async (): Promise<Pages> => {
    const rows = await database.db
      .select()
      .from(children)
      .where(inArray(children.parentId, keys))
      .orderBy(asc(children.parentId), asc(children.score), asc(children.id));
    return group(rows.map((r) => ({ id: r.id, parent_id: r.parentId })));
  };

  const top = {
    'ergraph page loader (LATERAL)': page(false),
    'hand-written LATERAL (raw driver)': raw(LATERAL),
  };
  const references = {
    'ergraph page loader (LATERAL)': page(false),
    'hand-written LATERAL over VALUES (1,000 params)': overValues,
    'ROW_NUMBER() OVER (PARTITION BY) (old loader)': raw(ROW_NUMBER),
    'fetch all + slice in JS': allThenSlice,
  };
  const totals = {
    'ergraph page loader + total_count': page(true),
    'hand-written LATERAL + count lateral': raw(TOTAL_LATERAL, true),
  };
  const totalReferences = {
    'ergraph page loader + total_count': page(true),
    'count(*) OVER () inside the lateral': raw(TOTAL_WINDOW, true),
    'grouped count joined by hash': raw(TOTAL_GROUPED, true),
  };
  // Same answers first, or the numbers mean nothing.
  for (const sides of [{ ...top, ...references }, { ...totals, ...totalReferences }]) {
    const answers = await Promise.all(Object.values(sides).map((side) => side()));
    const first = JSON.stringify(answers[0]);
    Object.keys(sides).forEach((name, i) => {
      if (JSON.stringify(answers[i]) !== first) throw new Error(`${database.name}: '${name}' gives other pages than ergraph`);
    });
  }
  await page(false)();
  const shape = await planShape(database, database.last().sql, database.last().params);
  await page(true)();
  const totalShape = await planShape(database, database.last().sql, database.last().params);

  // Each pair the target is about alternates alone and gets most of the time; the slow references
  // (the old loader, fetch-all, the window count, which also leave the most garbage behind) get a
  // few rounds of their own: in one alternation with the pair they made its ratio swing by ±15%.
  const rows: BenchRow[] = [];
  const label = `top ${TOP} of ${CHILDREN} children × ${PARENTS} parents`;
  for (const [sides, what, share, plan, target] of [
    [top, label, 0.4, shape, 1.0],
    [references, `${label}, older ways`, 0.1, undefined, undefined],
    [totals, `${label}, with total_count`, 0.4, totalShape, 1.0],
    [totalReferences, `${label}, other ways to count`, 0.1, undefined, undefined],
  ] as const) {
    const { ms, rounds } = await alternate(sides, { budgetMs: budgetMs * share, minRounds: 3 });
    const [subject, baseline, ...others] = Object.keys(sides);
    rows.push({
      bench: 'sql-pagination',
      case: `${what} (${database.name})`,
      subject: subject!,
      subjectMs: ms[subject!]!,
      baseline: baseline!,
      baselineMs: ms[baseline!]!,
      others: others.length ? Object.fromEntries(others.map((name) => [name, ms[name]!])) : undefined,
      target,
      rounds,
      note: plan && `ergraph's plan: ${plan}`,
    });
  }
  return rows;
}

export const run: BenchRun = ({ budgetMs }) => onEachDatabase(budgetMs, measure);

await runAlone(import.meta, run, 40_000);
