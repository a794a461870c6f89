/**
 * The SQL behind every loader: one statement per batch of keys. Values always travel as
 * parameters (Drizzle's `inArray`, placeholders in a page statement's text), never inside the SQL text.
 * Each statement reads only the columns asked for (`Fields`), plus the keys the loader itself
 * needs to put rows back in place.
 */
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { core, getTableColumns, getTableName, inArray, pgCore } from './drizzle.js';
import type { Page } from '../er/relationship.js';
import { traced } from './trace.js';
import { eachRow } from './stream.js';
import { primaryKeyColumns } from './keys.js';
import { arrayType, keepsNumbers, keyEncoder, NUMBER_INTEGERS, render, rowBuilder, valueDecoder, type Row } from './statements.js';
import type { NormalizedOrder, SqlDatabase } from './types.js';

/**
 * Column keys (model field names) a statement must read, or `undefined` for every column.
 * Names that are not columns of the table (fields a model class adds) are ignored.
 */
export type Fields = ReadonlySet<string> | undefined;

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

const asList = (pk: PgColumn | readonly PgColumn[]): readonly PgColumn[] => (Array.isArray(pk) ? pk : [pk as PgColumn]);

/** The Drizzle selection of `fields` of `table`, always with the columns in `required`. */
export function columnsOf(table: PgTable, fields: Fields, required: readonly PgColumn[] = []): Record<string, PgColumn> {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  if (!fields) return all;
  const out: Record<string, PgColumn> = {};
  for (const [key, column] of Object.entries(all)) if (fields.has(key) || required.includes(column)) out[key] = column;
  return out;
}

function orderSql(order: NormalizedOrder | undefined, primaryKey: PgColumn | readonly PgColumn[]): SQL {
  const { sql } = core();
  const dir = order?.direction === 'desc' ? sql`desc` : sql`asc`;
  const tiebreak = sql.join(asList(primaryKey).map((c) => sql`${c} ${dir}`), sql`, `);
  if (!order) return tiebreak;
  const nulls = order.nulls === 'first' ? sql`nulls first` : sql`nulls last`;
  return sql`${order.column} ${dir} ${nulls}, ${tiebreak}`;
}

/** Rows of `table` whose `column` is one of `keys`: many-to-one and one-to-one. */
export async function rowsByKey(
  db: SqlDatabase,
  table: PgTable,
  column: PgColumn,
  keys: readonly unknown[],
  fields?: Fields,
  loader?: string,
): Promise<Row[]> {
  const query = db.select(columnsOf(table, fields, [column])).from(table).where(inArray(column, keys as unknown[]));
  return traced(getTableName(table), loader, () => query.toSQL().sql, () => query as PromiseLike<Row[]>);
}

/**
 * Every child of every key, in the relationship's order: one-to-many and many-to-many.
 *
 *   select <parent key>, <columns> from children where parent_id = any($1::int[]) order by <order>, <pk>
 *
 * Rendered once per source and column set and run with its rows as arrays (see pagesByKey): a
 * Drizzle `select` of `{ parent, row }` mapped every nested value through its proxies, which
 * made a 20,000-row batch of 3 columns take 2.5× the same statement run by hand on PostgreSQL.
 * The keys travel as one array parameter, as in page statements (one text for any batch size).
 */
export async function listsByKey<T = Row>(
  db: SqlDatabase,
  source: ListSource,
  keys: readonly unknown[],
  fields?: Fields,
  loader?: string,
  /** Turns each row into the list's item (model instances are built here, in one pass). */
  make: (row: Row) => T = (row) => row as T,
): Promise<T[][]> {
  const statement = listStatement(source, fields);
  const { row: item, parent, decodeParent } = statement;
  // Lists in key order, found by the parent key's value. Number keys of an integer column are
  // found as numbers; others by `keyId` (a bigint, a string and a number that spell the same key
  // are one key). A string per key and per parent was ~2,000 strings a 1,000-parent batch made.
  const numberKeys = keys.every((key) => typeof key === 'number');
  const numbers = statement.numberParent && numberKeys;
  const at = new Map<unknown, number>();
  const lists: T[][] = new Array(keys.length);
  let repeated: number[] | undefined;
  // Done once the statement is sent, while the database runs it (eachRow's `onSent`), not before.
  const index = () => {
    for (let i = 0; i < keys.length; i++) {
      lists[i] = [];
      const id = numbers ? keys[i] : keyId(keys[i]);
      if (at.has(id)) (repeated ??= []).push(i);
      else at.set(id, i);
    }
  };
  let lastValue: unknown;
  let last: T[] | undefined;
  // Items are built as rows arrive (stream.ts).
  const onRow = (values: readonly unknown[]) => {
    const value = values[parent];
    // Rows of one parent mostly come together (a many-to-many join, an order by the parent key):
    // the same raw value maps to the same list without a key to make.
    if (last === undefined || value !== lastValue) {
      const decoded = decodeParent(value);
      const i = at.get(numbers ? decoded : keyId(decoded));
      last = i === undefined ? [] : lists[i]!;
      lastValue = value;
    }
    last.push(make(item(values)));
  };
  const keyValues = numberKeys && statement.numbersAsIs ? (keys as unknown[]) : keys.map(statement.key);
  await traced(statement.table, loader, () => statement.text, () => eachRow(db, statement.text, [keyValues], onRow, index));
  // A key asked for twice gets its own copy of the list.
  for (const i of repeated ?? []) lists[i] = [...lists[at.get(numbers ? keys[i] : keyId(keys[i]))!]!];
  return lists;
}

interface ListStatement {
  text: string;
  key: (key: unknown) => unknown;
  /** `key` returns a number as it is. */
  numbersAsIs: boolean;
  /** The target table's name, for the statement's span. */
  table: string;
  row: (values: readonly unknown[]) => Row;
  /** The output column holding the parent key, and how its value decodes (as Drizzle's `select` would). */
  parent: number;
  decodeParent: (value: unknown) => unknown;
  /** The parent key column's values are JavaScript numbers (an integer column in number mode). */
  numberParent: boolean;
}

const listStatements = new WeakMap<ListSource, Map<string, ListStatement>>();

function listStatement(source: ListSource, fields: Fields): ListStatement {
  const id = fields ? [...fields].sort().join(',') : '*';
  let memo = listStatements.get(source);
  if (!memo) listStatements.set(source, (memo = new Map()));
  let statement = memo.get(id);
  if (!statement) {
    if (memo.size >= MAX_PAGE_SHAPES) memo.clear();
    memo.set(id, (statement = renderListStatement(source, fields)));
  }
  return statement;
}

function renderListStatement(source: ListSource, fields: Fields): ListStatement {
  const { sql } = core();
  const cols = Object.entries(columnsOf(source.target, fields, asList(source.primaryKey)));
  // A one-to-many's parent key is a column of the rows: read once when the selection has it.
  const own = source.through ? -1 : cols.findIndex(([, column]) => column === source.parentKey);
  const first = own === -1 ? 1 : 0;
  const selection = Object.fromEntries(own === -1 ? [['__ergraph_parent', source.parentKey], ...cols] : cols);
  const builder = new (pgCore().QueryBuilder)();
  const base = source.through
    ? builder.select(selection).from(source.through.table).innerJoin(source.target, source.through.on)
    : builder.select(selection).from(source.target);
  const query = base
    .where(sql`${source.parentKey} = any(${sql.placeholder('keys')}::${arrayType(source.parentKey)})`)
    .orderBy(orderSql(source.order, source.primaryKey))
    .getSQL();
  return {
    text: render(query).text,
    key: keyEncoder(source.parentKey),
    numbersAsIs: keepsNumbers(source.parentKey),
    table: getTableName(source.target),
    row: rowBuilder(cols, cols.map((_, i) => first + i)),
    parent: own === -1 ? 0 : own,
    decodeParent: valueDecoder(source.parentKey),
    numberParent: NUMBER_INTEGERS.has(source.parentKey.columnType),
  };
}

export interface PageQuery {
  limit: number;
  offset: number;
  withTotal: boolean;
  order?: NormalizedOrder;
}

/**
 * One page per parent in one statement, cut by PostgreSQL per parent:
 *
 *   select k.ord, page.* from unnest($1::int[]) with ordinality k(key, ord)
 *   cross join lateral (select ... from children where parent_id = k.key
 *                       order by <profile>, <pk> limit <limit + 1> offset <offset>) page
 *
 * With an index on (parent key, order column, pk) each parent costs one index search that stops
 * after `limit + 1` entries (the extra row only tells whether there is more), where a
 * `row_number() over (partition by ...)` has to number every child of every parent first.
 * The keys travel as one array parameter (`unnest($1::<type>[])`): any number of them, one
 * statement text, one plan. A VALUES list joined laterally plans the same on PostgreSQL 15 and
 * PGlite (nested loop, one index search per key) but needs a parameter per key, so PostgreSQL's
 * 65,535-parameter cap and a new statement text per batch size; it measured no faster
 * (bench/sql-pagination.ts prints both).
 *
 * `total_count` (only when asked) is a per-parent `count(*)` in a second lateral, and the page
 * is then a `left join lateral`, so a parent whose page is empty (offset past its last row)
 * still has its row and its total. Measured on 1,000 parents × 100 children (bench/
 * sql-pagination.ts --totals): the lateral count is an index-only scan per parent and beats
 * both a `count(*) over ()` window inside the page lateral (which must read every child of the
 * parent before LIMIT applies, and yields no row — hence no total — past the end) and a grouped
 * `count(*) ... group by` joined by hash (which reads every child of every parent in one pass).
 *
 * Row order: each parent's rows come out of its lateral subquery in ORDER BY order, and a
 * nested loop (the only way PostgreSQL can run a lateral with LIMIT) emits them together; rows
 * are put back per parent by `ord`, so no outer sort is needed.
 */
export async function pagesByKey<T = Row>(
  db: SqlDatabase,
  source: ListSource,
  keys: readonly unknown[],
  page: PageQuery,
  fields?: Fields,
  loader?: string,
  /** Turns each row into the page's item (model instances are built here, in one pass). */
  make: (row: Row) => T = (row) => row as T,
): Promise<Page<T>[]> {
  // Keys that are all numbers can stand in for an integer parent key column (see renderPageStatement).
  const numberKeys = keys.every((key) => typeof key === 'number');
  const statement = pageStatement(source, page, fields, numberKeys);
  // Numbers the key column's encoding leaves as they are go as the caller's array (pg copies them into the statement).
  const keyValues = numberKeys && statement.numbersAsIs ? (keys as unknown[]) : keys.map(statement.key);
  const params = statement.params({ keys: keyValues, limit: page.limit + 1, offset: page.offset });
  // Made once the statement is sent, while the database runs it (eachRow's `onSent`): a 1,000-key
  // batch's pages were ~60 µs between the call and the statement's first byte on the wire.
  let pages: Page<T>[] = [];
  const makePages = () => {
    pages = keys.map(() => ({ items: [], hasMore: false, total: page.withTotal ? 0 : null }));
  };
  const { row: item, present } = statement;
  // Items are built as rows arrive (stream.ts).
  const onRow = (values: readonly unknown[]) => {
    // Output columns 0 and (with total_count) 1 are the statement's own: the key's place and the total.
    const at = (values[0] as number) - 1;
    const entry = pages[at]!;
    if (page.withTotal) {
      entry.total = values[1] as number;
      if (values[present!] === null) return; // the parent's page is empty: the row only carried the total
    }
    if (entry.items.length >= page.limit) {
      entry.hasMore = true;
      return;
    }
    entry.items.push(make(item(values, keys[at])));
  };
  await traced(statement.table, loader, () => statement.text, () => eachRow(db, statement.text, params, onRow, makePages));
  return pages;
}

type PageParam = 'keys' | 'limit' | 'offset';

/** A page statement rendered once: its text with `$n` parameters, and how its rows become items. */
interface PageStatement {
  /** The statement's text, run as is (and shown in spans). */
  text: string;
  /** This call's parameter values, in `$n` order. */
  params(values: Record<PageParam, unknown>): unknown[];
  /** A parent key as an element of the keys array parameter. */
  key: (key: unknown) => unknown;
  /** `key` returns a number as it is. */
  numbersAsIs: boolean;
  /** The target table's name, for the statement's span. */
  table: string;
  /**
   * A driver row (values in output column order) and the parent key it was found by, as the
   * item's row: column keys, values decoded as a Drizzle `select` would.
   */
  row: (values: readonly unknown[], key: unknown) => Row;
  /** With `total_count`: the output column that is null only in the row of a parent whose page is empty. */
  present: number | undefined;
}

/**
 * Statements by list source and shape (columns read, order, total or not, offset or not).
 * Building the statement with Drizzle's query builder and rendering it took ~0.3 ms of a
 * 1,000-parent page batch (~2% on PostgreSQL, where ergraph's whole margin over the hand-written
 * query was ~10%); the shapes are few, so each is rendered once and a call only binds its
 * values. The number of shapes follows the selections clients send, so each source's memo is
 * capped like the loaders by field list are.
 */
const statements = new WeakMap<ListSource, Shapes>();
const MAX_PAGE_SHAPES = 256;

interface Shapes {
  byId: Map<string, PageStatement>;
  /** The last statement taken with every column, and what chose it. */
  last?: { order: NormalizedOrder | undefined; withTotal: boolean; offset: boolean; numberKeys: boolean; statement: PageStatement };
}

function pageStatement(source: ListSource, page: PageQuery, fields: Fields, numberKeys: boolean): PageStatement {
  const order = page.order ?? source.order;
  let shapes = statements.get(source);
  if (!shapes) statements.set(source, (shapes = { byId: new Map() }));
  // A batch of the same shape as the last one (every column, the same order object, which
  // nothing changes): no id to build and look up, which took ~20 µs off the time before the
  // statement went out (cold code: it runs once per batch).
  const last = shapes.last;
  if (!fields && last && last.order === order && last.withTotal === page.withTotal && last.offset === page.offset > 0 && last.numberKeys === numberKeys) {
    return last.statement;
  }
  const id = [
    page.withTotal ? 't' : '',
    page.offset > 0 ? 'o' : '',
    numberKeys ? 'n' : '',
    order ? `${getTableName(order.column.table)}.${order.column.name} ${order.direction} ${order.nulls}` : '',
    fields ? [...fields].sort().join(',') : '*',
  ].join('|');
  const memo = shapes.byId;
  let statement = memo.get(id);
  if (!statement) {
    if (memo.size >= MAX_PAGE_SHAPES) memo.clear();
    memo.set(id, (statement = renderPageStatement(source, { ...page, order }, fields, numberKeys)));
  }
  if (!fields) shapes.last = { order, withTotal: page.withTotal, offset: page.offset > 0, numberKeys, statement };
  return statement;
}

function renderPageStatement(source: ListSource, page: PageQuery, fields: Fields, numberKeys: boolean): PageStatement {
  const { sql } = core();
  const placeholder = (name: PageParam) => sql.placeholder(name);
  const k = sql`unnest(${placeholder('keys')}::${arrayType(source.parentKey)}) with ordinality as "__k"("key", "ord")`;
  const parent = sql`"__k"."key"`;
  const cols = Object.entries(columnsOf(source.target, fields, asList(source.primaryKey)));
  // With total_count, a parent whose page is empty still has a row, all nulls but the total. A
  // column no real row holds null in tells the two apart: the primary key, always read, or for a
  // table without one (every column is then read) the parent key the row was found by. A
  // many-to-many target always has a primary key. (A marker column around the page subquery
  // cost PGlite a tenth of the statement.)
  const pk = primaryKeyColumns(source.target);
  const present = cols.find(([, column]) => column.notNull || pk.includes(column) || (!source.through && column === source.parentKey))?.[0];
  if (page.withTotal && present === undefined) throw new Error(`${getTableName(source.target)}: total_count needs a primary key on the table`);
  // The parent key column holds, in every row, the key the row was found by. An integer column
  // (number mode) found by keys that are all numbers is therefore not read back but set from the
  // key: one column fewer per row of every page (a 1,000-parent batch of 4-column rows: PGlite
  // ~15% faster, PostgreSQL ~3%). A number that casts to an integer reads back as itself; a
  // string need not ('1_000' casts to 1000 on PostgreSQL 16), a text key can equal a differently
  // spelled value under a nondeterministic collation, and other types decode in ways a key need
  // not match. The column marking a present page is read.
  const fromKey =
    numberKeys && !source.through && NUMBER_INTEGERS.has(source.parentKey.columnType)
      ? cols.find(([key, column]) => column === source.parentKey && key !== present)?.[0]
      : undefined;
  const read = cols.filter(([key]) => key !== fromKey);
  // Only the builder's SQL is used (no database): the statement runs through the request's own.
  const builder = new (pgCore().QueryBuilder)();
  const base = source.through
    ? builder.select(Object.fromEntries(cols)).from(source.through.table).innerJoin(source.target, source.through.on)
    : builder.select(Object.fromEntries(cols)).from(source.target);
  const limited = base
    .where(sql`${source.parentKey} = ${parent}`)
    .orderBy(orderSql(page.order, source.primaryKey))
    .limit(placeholder('limit'));
  // Drizzle leaves `offset 0` out; a shape with an offset has its own statement.
  const items = page.offset > 0 ? limited.offset(placeholder('offset')) : limited;
  // Rows are read by position (`arrayRows`); the names only make the statement readable in logs
  // and spans, the statement's own columns under names no table column takes.
  const list = sql.join(
    read.map(([key, column]) => sql`"__page".${sql.identifier(column.name)} as ${sql.identifier(key)}`),
    sql`, `,
  );
  let query: SQL;
  if (page.withTotal) {
    const from = source.through ? source.through.table : source.target;
    const count = builder.select({ total: sql<number>`count(*)::int`.as('total') }).from(from).where(sql`${source.parentKey} = ${parent}`);
    query = sql`select "__k"."ord"::int as "__ergraph_ord", "__count"."total" as "__ergraph_total", ${list} from ${k}
      cross join lateral ${count} "__count" left join lateral ${items} "__page" on true`;
  } else {
    query = sql`select "__k"."ord"::int as "__ergraph_ord", ${list} from ${k} cross join lateral ${items} "__page"`;
  }
  const first = page.withTotal ? 2 : 1;
  let next = first;
  return {
    ...render<PageParam>(query),
    key: keyEncoder(source.parentKey),
    numbersAsIs: keepsNumbers(source.parentKey),
    table: getTableName(source.target),
    row: rowBuilder(cols, cols.map(([key]) => (key === fromKey ? -1 : next++))),
    present: present === undefined ? undefined : first + read.findIndex(([key]) => key === present),
  };
}

