/**
 * Column pruning: a 30-column table, 1,000 parents × 20 children. The relationship's loader for
 * the two fields a selection reads (`SqlRelationship.loaderFor(['id', 'c01'])`, what a GraphQL
 * field `{ id c01 }` gets; with the parent key, 3 of 30 columns) against
 *
 *   - the same pruned query written by hand through the raw driver (target ≤ 1.15×, issue 31.2),
 *   - the same loader reading every column (`select *`, what every loader did before),
 *
 * as a full list and as a top-5 page per parent, on PGlite and PostgreSQL. Prints time, rows,
 * the bytes PostgreSQL sent (wire) and the size of the loaded values (JSON).
 *
 *   npx tsx bench/columns.ts        (BENCH_BUDGET_MS=<ms> to change the time budget)
 */
import { relations } from 'drizzle-orm';
import { integer, pgTable, serial, text, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import type { Page } from 'ergraph';
import { buildRelationship, SqlRelationship } from 'ergraph/orm';
import { runAlone, type BenchRow, type BenchRun } from './report.js';
import { alternate, onEachDatabase, type BenchDatabase } from './sql-support.js';

const PARENTS = 1_000;
const CHILDREN = 20;
const EXTRA = 28; // + id + parent_id = 30 columns
const names = Array.from({ length: EXTRA }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);

const parents = pgTable('parents', { id: serial('id').primaryKey() });
const wide = pgTable('wide', {
  id: serial('id').primaryKey(),
  parentId: integer('parent_id').notNull(),
  ...(Object.fromEntries(names.map((n) => [n, text(n).notNull()])) as Record<string, PgColumnBuilderBase>),
});
const schema = {
  parents,
  wide,
  parentsRelations: relations(parents, ({ many }) => ({ children: many(wide) })),
  wideRelations: relations(wide, ({ one }) => ({ parent: one(parents, { fields: [wide.parentId], references: [parents.id] }) })),
};
const SETUP = `
  CREATE TABLE parents (id serial PRIMARY KEY);
  CREATE TABLE wide (id serial PRIMARY KEY, parent_id integer NOT NULL, ${names.map((n) => `${n} text NOT NULL`).join(', ')});
  INSERT INTO parents SELECT FROM generate_series(1, ${PARENTS});
  INSERT INTO wide (parent_id, ${names.join(', ')})
    SELECT p, ${names.map((n) => `md5('${n}' || p || '/' || c)`).join(', ')}
    FROM generate_series(1, ${PARENTS}) p, generate_series(1, ${CHILDREN}) c;
  CREATE INDEX wide_parent ON wide (parent_id, id);
`;
const FIELDS = ['c01', 'id'];
const keys = Array.from({ length: PARENTS }, (_, i) => i + 1);

/** The hand-written peers: the three columns, rows as the driver gives them, put back per parent. */
const LIST = `SELECT id, parent_id, c01 FROM wide WHERE parent_id = ANY($1::int[]) ORDER BY id ASC`;
const PAGE = `SELECT k.key, c.id, c.parent_id, c.c01 FROM unnest($1::int[]) AS k(key)
  CROSS JOIN LATERAL (SELECT id, parent_id, c01 FROM wide c WHERE c.parent_id = k.key ORDER BY c.id ASC LIMIT 6) c`;
type Row = { key?: number; id: number; parent_id: number; c01: string };

function lists(rows: readonly Row[]): Row[][] {
  const byKey = new Map<number, Row[]>();
  for (const row of rows) {
    const list = byKey.get(row.parent_id);
    if (list) list.push(row);
    else byKey.set(row.parent_id, [row]);
  }
  return keys.map((k) => byKey.get(k) ?? []);
}

function pages(rows: readonly Row[]): Page<Row>[] {
  const out: Page<Row>[] = keys.map(() => ({ items: [], hasMore: false, total: null }));
  for (const row of rows) {
    const page = out[row.key! - 1]!;
    if (page.items.length < 5) page.items.push(row);
    else page.hasMore = true;
  }
  return out;
}

async function measure(database: BenchDatabase, budgetMs: number): Promise<BenchRow[]> {
  await database.setup(SETUP);
  const [parent] = buildRelationship({ db: database.db, schema, orderBy: { 'parents.children': wide.id } });
  const rel = parent!.relationships.find((r) => r.name === 'children') as SqlRelationship;
  const list = (ref: unknown) => () => (ref as (k: number[]) => Promise<unknown[][]>)(keys);
  const page = (fields?: string[]) => () => rel.pageLoader!(keys, { limit: 5, offset: 0, withTotal: false, ...(fields ? { fields } : {}) });
  const cases = [
    {
      what: `${PARENTS} parents × ${CHILDREN} children, every child`,
      pruned: list(rel.loaderFor(FIELDS)),
      all: list(rel.loader),
      hand: async () => lists(await database.query<Row>(LIST, [keys])),
    },
    {
      what: `${PARENTS} parents, top 5 children per parent`,
      pruned: page(FIELDS),
      all: page(),
      hand: async () => pages(await database.query<Row>(PAGE, [keys])),
    },
  ];
  const rows: BenchRow[] = [];
  for (const { what, pruned, all, hand } of cases) {
    // Bytes: once per side, outside the timed rounds.
    const size = async (side: () => Promise<unknown>) => {
      const before = database.bytesRead?.() ?? 0;
      const value = await side();
      const wire = database.bytesRead ? database.bytesRead() - before : undefined;
      const items = (value as (unknown[] | Page)[]).flatMap((v) => (Array.isArray(v) ? v : v.items));
      return { wire, json: JSON.stringify(items).length, rows: items.length };
    };
    const [p, a, h] = [await size(pruned), await size(all), await size(hand)];
    if (p.rows !== a.rows) throw new Error(`${database.name}: ${what}: ${p.rows} rows pruned, ${a.rows} with every column`);
    // Same answers as the hand-written query, or the ratio means nothing.
    const ids = (value: unknown) => JSON.stringify((value as (unknown[] | Page)[]).map((v) => (Array.isArray(v) ? v : v.items).map((r) => [(r as Row).id, (r as Row).c01])));
    if (ids(await pruned()) !== ids(await hand())) throw new Error(`${database.name}: ${what}: the loader gives other rows than the hand-written query`);
    const kb = (n?: number) => (n === undefined ? 'n/a' : `${(n / 1024).toFixed(0)} KiB`);
    // The pair the target is about alternates alone and gets most of the time: the slow
    // every-column side, in the same rounds, moved it by its garbage.
    const byHand = await alternate({ pruned, hand }, { budgetMs: (budgetMs * 0.7) / cases.length });
    rows.push({
      bench: 'columns',
      case: `${what}, 3 of 30 columns (${database.name})`,
      subject: `loader for { ${FIELDS.join(' ')} }`,
      subjectMs: byHand.ms.pruned!,
      baseline: 'the same query by hand (raw driver)',
      baselineMs: byHand.ms.hand!,
      target: 1.15,
      rounds: byHand.rounds,
      note: `${h.rows} rows`,
    });
    const { ms, rounds } = await alternate({ pruned, all }, { budgetMs: (budgetMs * 0.3) / cases.length });
    rows.push({
      bench: 'columns',
      case: `${what}, 30 columns (${database.name})`,
      subject: `loader for { ${FIELDS.join(' ')} }`,
      subjectMs: ms.pruned!,
      baseline: 'same loader, select all 30 columns',
      baselineMs: ms.all!,
      rounds,
      note: `${p.rows} rows; wire ${kb(p.wire)} vs ${kb(a.wire)}; loaded values (JSON) ${kb(p.json)} vs ${kb(a.json)}`,
    });
  }
  return rows;
}

export const run: BenchRun = ({ budgetMs }) => onEachDatabase(budgetMs, measure);

await runAlone(import.meta, run, 20_000);
