/**
 * The SQL behind every loader: one statement per batch of keys. Values always travel as
 * parameters (Drizzle's `inArray` and `sql` template), never inside the SQL text.
 */
import { and, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Page } from '../er/relationship.js';
import type { NormalizedOrder, SqlDatabase } from './types.js';

type Row = Record<string, unknown>;

/** Keys compare by value whatever the driver's type for them (numbers, strings, bigints). */
export const keyId = (key: unknown): string => (typeof key === 'bigint' || typeof key !== 'object' ? String(key) : JSON.stringify(key));

/** Where the rows of a list relationship come from, and the column carrying the parent key. */
export interface ListSource {
  target: PgTable;
  /** The column whose value is the parent's key: the FK on the target, or on the join table. */
  parentKey: PgColumn;
  /** Many-to-many: the join table and the join condition to the target. */
  through?: { table: PgTable; on: SQL };
  order?: NormalizedOrder;
  /** Tiebreaker that makes the order total (and pages stable): the primary key column(s). */
  primaryKey: PgColumn | readonly PgColumn[];
}

function orderSql(order: NormalizedOrder | undefined, primaryKey: PgColumn | readonly PgColumn[]): SQL {
  const pk: readonly PgColumn[] = Array.isArray(primaryKey) ? primaryKey : [primaryKey as PgColumn];
  const dir = order?.direction === 'desc' ? sql`desc` : sql`asc`;
  const tiebreak = sql.join(pk.map((c) => sql`${c} ${dir}`), sql`, `);
  if (!order) return tiebreak;
  const nulls = order.nulls === 'first' ? sql`nulls first` : sql`nulls last`;
  return sql`${order.column} ${dir} ${nulls}, ${tiebreak}`;
}

/** Rows of `table` whose `column` is one of `keys`: many-to-one and one-to-one. */
export async function rowsByKey(db: SqlDatabase, table: PgTable, column: PgColumn, keys: readonly unknown[]): Promise<Row[]> {
  return (await db.select().from(table).where(inArray(column, keys as unknown[]))) as Row[];
}

/** Every child of every key, in the relationship's order: one-to-many and many-to-many. */
export async function listsByKey(db: SqlDatabase, source: ListSource, keys: readonly unknown[]): Promise<Map<string, Row[]>> {
  const cols = getTableColumns(source.target);
  const from = source.through
    ? db
        .select({ parent: source.parentKey, row: cols })
        .from(source.through.table)
        .innerJoin(source.target, source.through.on)
    : db.select({ parent: source.parentKey, row: cols }).from(source.target);
  const rows = (await from
    .where(inArray(source.parentKey, keys as unknown[]))
    .orderBy(orderSql(source.order, source.primaryKey))) as { parent: unknown; row: Row }[];
  const byKey = new Map<string, Row[]>();
  for (const { parent, row } of rows) {
    const id = keyId(parent);
    const list = byKey.get(id);
    if (list) list.push(row);
    else byKey.set(id, [row]);
  }
  return byKey;
}

export interface PageQuery {
  limit: number;
  offset: number;
  withTotal: boolean;
  order?: NormalizedOrder;
}

/**
 * One page per parent in one statement. Rows are numbered per parent; a parent keeps rows
 * `offset+1 .. offset+limit+1` (the extra row only tells whether there is more). When the total
 * is wanted it is a window count, and a parent whose rows all lie before the page keeps its last
 * row just to carry that count, so its `total` is right without a second query.
 */
export async function pagesByKey(
  db: SqlDatabase,
  source: ListSource,
  keys: readonly unknown[],
  page: PageQuery,
): Promise<Page<Row>[]> {
  const cols = getTableColumns(source.target);
  const order = orderSql(page.order ?? source.order, source.primaryKey);
  const window = sql`partition by ${source.parentKey} order by ${order}`;
  const fields = {
    ...cols,
    __parent: sql`${source.parentKey}`.as('__parent'),
    __rn: sql<number>`(row_number() over (${window}))::int`.as('__rn'),
    __total: (page.withTotal
      ? sql<number>`(count(*) over (partition by ${source.parentKey}))::int`
      : sql<number | null>`null::int`
    ).as('__total'),
  };
  const base = source.through
    ? db.select(fields).from(source.through.table).innerJoin(source.target, source.through.on)
    : db.select(fields).from(source.target);
  const ranked = base.where(inArray(source.parentKey, keys as unknown[])).as('ranked');
  const first = page.offset;
  const last = page.offset + page.limit + 1;
  const inPage = and(sql`${ranked.__rn} > ${first}`, sql`${ranked.__rn} <= ${last}`)!;
  const where = page.withTotal
    ? sql`(${inPage}) or (${ranked.__rn} = ${ranked.__total} and ${ranked.__total} <= ${first})`
    : inPage;
  const rows = (await db.select().from(ranked).where(where).orderBy(ranked.__parent, ranked.__rn)) as Row[];

  const byKey = new Map<string, { items: Row[]; total: number | null; more: boolean }>();
  for (const row of rows) {
    const { __parent, __rn, __total, ...item } = row;
    const id = keyId(__parent);
    let entry = byKey.get(id);
    if (!entry) byKey.set(id, (entry = { items: [], total: (__total as number | null) ?? null, more: false }));
    const rn = __rn as number;
    if (rn <= first) continue; // only carried the total
    if (rn === last) entry.more = true;
    else entry.items.push(item);
  }
  return keys.map((key) => {
    const entry = byKey.get(keyId(key));
    return {
      items: entry?.items ?? [],
      hasMore: entry?.more ?? false,
      total: page.withTotal ? (entry?.total ?? 0) : null,
    };
  });
}

