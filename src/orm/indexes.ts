/**
 * The index each page order wants, and whether the Drizzle schema declares one. A page is
 * `WHERE <parent key> = k ORDER BY <column> <dir> NULLS <..>, <pk> <dir> LIMIT n` per parent
 * (queries.ts), which is one index search per parent only with an index on
 *
 *   (<parent key>, <order column> <dir> NULLS <..>, <primary key> <dir>)
 *
 * One index serves both directions of a profile (`direction` flips nulls too, which is exactly a
 * backward scan). Many-to-many pages join through the join table, whose rows are found by an
 * index starting with its parent-key column (its composite primary key usually is one); the
 * order then comes from the target and cannot be read from an index.
 *
 * Read statically from the Drizzle schema (what drizzle-kit migrates): an index created only by
 * hand-written SQL is not seen.
 */
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig, getTableName } from './drizzle.js';
import { SqlRelationship } from './sql-relationship.js';
import type { NormalizedOrder } from './types.js';

export interface PageIndexAdvice {
  /** `'<tableKey>.<relationName>'`. */
  relation: string;
  /** `default` (the relation's orderBy) or the target's profile name. */
  order: string;
  table: string;
  /** Whether a declared index (or primary key) serves this order. */
  indexed: boolean;
  /** The index to create when it is missing. */
  create: string;
}

interface Term {
  name: string;
  desc: boolean;
  nullsFirst: boolean;
}

/** Declared indexes and the primary key as column terms. */
function declaredIndexes(table: PgTable): Term[][] {
  const config = getTableConfig(table);
  const plain = (c: { name: string }): Term => ({ name: c.name, desc: false, nullsFirst: false });
  const out: Term[][] = [];
  const pk = config.columns.filter((c) => c.primary);
  if (pk.length) out.push(pk.map(plain));
  for (const key of config.primaryKeys) out.push(key.columns.map(plain));
  for (const unique of config.uniqueConstraints) out.push(unique.columns.map(plain));
  for (const index of config.indexes) {
    const terms: Term[] = [];
    for (const column of index.config.columns) {
      const named = column as { name?: string; indexConfig?: { order?: string; nulls?: string } };
      if (!named.name) break; // an expression: the terms after it cannot serve a column order
      const desc = named.indexConfig?.order === 'desc';
      terms.push({ name: named.name, desc, nullsFirst: (named.indexConfig?.nulls ?? (desc ? 'first' : 'last')) === 'first' });
    }
    out.push(terms);
  }
  return out;
}

const sameWay = (a: Term, b: Term, reversed: boolean) => a.name === b.name && (a.desc !== reversed) === b.desc && (a.nullsFirst !== reversed) === b.nullsFirst;

/** Whether `index` starts with `wanted` (its order terms read forward or all backward). */
function serves(index: readonly Term[], wanted: readonly Term[]): boolean {
  if (index.length < wanted.length || index[0]!.name !== wanted[0]!.name) return false;
  return [false, true].some((reversed) => wanted.slice(1).every((term, i) => sameWay(term, index[i + 1]!, reversed)));
}

const term = (column: PgColumn, order?: NormalizedOrder): Term => ({
  name: column.name,
  desc: order?.direction === 'desc',
  nullsFirst: order ? order.nulls === 'first' : false,
});

const sqlTerm = (t: Term, withOrder: boolean) =>
  `"${t.name}"${withOrder ? ` ${t.desc ? 'DESC' : 'ASC'}${t.desc !== t.nullsFirst ? (t.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : ''}` : ''}`;

function advise(rel: SqlRelationship, order: string, normalized: NormalizedOrder): PageIndexAdvice | undefined {
  const source = rel.listSource;
  if (!source) return undefined;
  const table = source.through?.table ?? source.target;
  const parent = term(source.parentKey);
  // Many-to-many: the join table's rows by parent key; the order is the target's, after the join.
  let wanted = [parent];
  let create = [parent];
  if (!source.through) {
    const pk = Array.isArray(source.primaryKey) ? source.primaryKey : [source.primaryKey as PgColumn];
    // The tiebreak runs in the order's direction; a primary key holds no nulls.
    const tiebreak: NormalizedOrder = { ...normalized, nulls: normalized.direction === 'desc' ? 'first' : 'last' };
    // The order column is what matters; the primary key after it also covers the tiebreak.
    wanted = [parent, term(normalized.column, normalized)];
    create = [...wanted, ...pk.map((c) => term(c, { ...tiebreak, column: c }))];
  }
  const name = getTableName(table);
  return {
    relation: rel.relation,
    order,
    table: name,
    indexed: declaredIndexes(table).some((index) => serves(index, wanted)),
    create: `CREATE INDEX ON "${name}" (${create.map((t, i) => sqlTerm(t, i > 0)).join(', ')})`,
  };
}

/** Every page order of the diagram's SQL list relationships, with its index and whether it is declared. */
export function pageIndexAdvice(diagram: { entities: readonly { relationships: readonly unknown[] }[] }): PageIndexAdvice[] {
  const out: PageIndexAdvice[] = [];
  const seen = new Set<string>();
  for (const entity of diagram.entities) {
    for (const rel of entity.relationships) {
      if (!(rel instanceof SqlRelationship)) continue;
      for (const [order, normalized] of rel.pageOrders) {
        const advice = advise(rel, order, normalized);
        const id = advice && `${advice.relation}:${advice.order}`;
        if (advice && !seen.has(id!)) {
          seen.add(id!);
          out.push(advice);
        }
      }
    }
  }
  return out;
}
