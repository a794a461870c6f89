/**
 * Top-N per parent: 1,000 parents × 100 children on embedded PGlite. ergraph's page loader
 * (one ROW_NUMBER() OVER (PARTITION BY ...) statement returning N+1 rows per parent) against the
 * obvious hand-written alternative: fetch every child of the parents and slice in JavaScript.
 * Run: npx tsx bench/sql-pagination.ts
 */
import { PGlite } from '@electric-sql/pglite';
import { asc, inArray, relations } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { Bench } from 'tinybench';
import { buildRelationship, SqlRelationship } from 'ergraph/orm';
import { report } from './report.js';

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

const client = new PGlite();
const db = drizzle({ client, schema });
await client.exec(`
  CREATE TABLE parents (id serial PRIMARY KEY, name text NOT NULL);
  CREATE TABLE children (id serial PRIMARY KEY, parent_id integer NOT NULL, score integer NOT NULL, label text NOT NULL);
  INSERT INTO parents (name) SELECT 'parent ' || g FROM generate_series(1, ${PARENTS}) g;
  INSERT INTO children (parent_id, score, label)
    SELECT p, (p * 7919 + c * 104729) % 1000, 'child ' || p || '/' || c
    FROM generate_series(1, ${PARENTS}) p, generate_series(1, ${CHILDREN}) c;
  CREATE INDEX children_parent_score ON children (parent_id, score, id);
  ANALYZE;
`);

const entities = buildRelationship({ db, schema, orderBy: { 'parents.children': children.score } });
const rel = entities.flatMap((e) => e.relationships).find((r) => r.name === 'children') as SqlRelationship;
const keys = Array.from({ length: PARENTS }, (_, i) => i + 1);

async function viaErgraph(): Promise<number[][]> {
  const pages = await rel.pageLoader!(keys, { limit: TOP, offset: 0, withTotal: false });
  return pages.map((p) => p.items.map((item) => (item as { id: number }).id));
}

async function allThenSlice(): Promise<number[][]> {
  const rows = await db
    .select()
    .from(children)
    .where(inArray(children.parentId, keys))
    .orderBy(asc(children.parentId), asc(children.score), asc(children.id));
  const byParent = new Map<number, number[]>();
  for (const row of rows) {
    const list = byParent.get(row.parentId) ?? [];
    if (list.length < TOP) list.push(row.id);
    byParent.set(row.parentId, list);
  }
  return keys.map((k) => byParent.get(k) ?? []);
}

// Same answer first, or the numbers mean nothing.
const [a, b] = [await viaErgraph(), await allThenSlice()];
if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('ergraph page loader and baseline disagree');

const bench = new Bench({ time: 3000, warmupTime: 500 });
bench.add('ergraph page loader (SQL top-N)', viaErgraph).add('fetch all + slice in JS', allThenSlice);
await bench.run();
report(
  `Top ${TOP} of ${CHILDREN} children for each of ${PARENTS} parents (PGlite)`,
  bench,
  'ergraph page loader (SQL top-N)',
  'fetch all + slice in JS',
);
await client.close();
