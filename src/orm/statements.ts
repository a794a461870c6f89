/**
 * What the list and page statements share: rendered once per shape with Drizzle's builder, run
 * with their rows as arrays of values, and each row turned into an item's row by code compiled
 * for its columns. queries.ts says which statements and why.
 */
import type { Placeholder, SQL } from 'drizzle-orm';
import type { PgColumn, PgDialect } from 'drizzle-orm/pg-core';
import { core, pgCore } from './drizzle.js';
import { mayCompile } from '../er/model.js';
import type { SqlDatabase } from './types.js';

export type Row = Record<string, unknown>;

const SERIAL_BASE: Record<string, string> = { serial: 'integer', smallserial: 'smallint', bigserial: 'bigint' };

/** Drizzle's integer columns whose values are JavaScript numbers (`bigint` in number mode too). */
export const NUMBER_INTEGERS = new Set(['PgInteger', 'PgSmallInt', 'PgSerial', 'PgSmallSerial', 'PgBigInt53', 'PgBigSerial53']);

/** The SQL type of an array of `column`'s values, for `unnest($1::<type>[])` and `= any($1::<type>[])`. */
export function arrayType(column: PgColumn): SQL {
  const type = column.getSQLType();
  return core().sql.raw(`${SERIAL_BASE[type.toLowerCase()] ?? type}[]`);
}

/**
 * Renders parameters as `\0<n>\0`, so the text can be cut exactly where they go: PostgreSQL
 * refuses NUL in identifiers and literals, so no other part of a statement can contain it.
 */
let cut: PgDialect | undefined;
function cutDialect(): PgDialect {
  if (cut) return cut;
  class CutDialect extends pgCore().PgDialect {
    override escapeParam(num: number): string {
      return `\0${num}\0`;
    }
  }
  return (cut = new CutDialect());
}

/** A statement's text with `$n` parameters, and the placeholders' names in `$n` order. */
export function render<P extends string>(query: SQL): { text: string; params(values: Record<P, unknown>): unknown[] } {
  const rendered = cutDialect().sqlToQuery(query);
  const parts = rendered.sql.split(/\0\d+\0/);
  const names = rendered.params.map((p) => (p as Placeholder).name as P);
  return { text: parts.reduce((out, part, i) => `${out}$${i}${part}`), params: (values) => names.map((name) => values[name]) };
}

/**
 * Each key through the parent key column's `mapToDriverValue`, as `inArray` does for each of its
 * parameters, and a bigint or boolean as its text. postgres.js types an array parameter by its
 * first element, so an array of bigints went as one int8 and `unnest($1::bigint[])` failed
 * ("cannot cast type bigint to bigint[]"); as text, every driver leaves the type to the cast.
 */
export function keyEncoder(column: PgColumn): (key: unknown) => unknown {
  const own = column.mapToDriverValue !== core().Column.prototype.mapToDriverValue;
  return (key) => {
    const value = own && key !== null && key !== undefined ? column.mapToDriverValue(key) : key;
    return typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : value;
  };
}

/** Whether `keyEncoder(column)` gives a number back as it is (the column has no `mapToDriverValue` of its own). */
export const keepsNumbers = (column: PgColumn): boolean => column.mapToDriverValue === core().Column.prototype.mapToDriverValue;

/** A driver value as a Drizzle `select` gives it: through the column's own `mapFromDriverValue`, if any. */
export function valueDecoder(column: PgColumn): (value: unknown) => unknown {
  if (column.mapFromDriverValue === core().Column.prototype.mapFromDriverValue) return (value) => value;
  return (value) => (value === null || value === undefined ? value : column.mapFromDriverValue(value));
}

/**
 * Builds the item's row from a driver row: column i's value is output column `positions[i]`,
 * or the key the row was found by where that is -1. Each value goes through its column's
 * `mapFromDriverValue` (most come from the driver already as the column's type, integers as
 * numbers, and are kept as they are). Compiled per statement where `mayCompile()`, one property
 * per column with its key in the text, so every row gets the same shape from an object literal:
 * a loop's stores under a key that changes every time cost ~0.2 ms per 5,000 rows, ~2% of a page
 * batch on PostgreSQL.
 */
export function rowBuilder(cols: readonly (readonly [string, PgColumn])[], positions: readonly number[]): (values: readonly unknown[], key?: unknown) => Row {
  const columns = cols.map(([, column]) => column);
  const decodes = columns.map((column) => column.mapFromDriverValue !== core().Column.prototype.mapFromDriverValue);
  if (mayCompile()) {
    const props = cols.map(([key], i) => {
      const value = positions[i] === -1 ? 'k' : `v[${positions[i]}]`;
      return `${JSON.stringify(key)}: ${decodes[i] && positions[i] !== -1 ? `decode(${i}, ${value})` : value}`;
    });
    const decode = (i: number, value: unknown) => (value === null || value === undefined ? value : columns[i]!.mapFromDriverValue(value));
    return new Function('decode', `return function row(v, k) {\n  return { ${props.join(', ')} };\n};`)(decode) as (values: readonly unknown[], key?: unknown) => Row;
  }
  return (values, key) => {
    const out: Row = {};
    for (let i = 0; i < cols.length; i++) {
      if (positions[i] === -1) {
        out[cols[i]![0]] = key;
        continue;
      }
      const value = values[positions[i]!];
      out[cols[i]![0]] = decodes[i] && value !== null && value !== undefined ? columns[i]!.mapFromDriverValue(value) : value;
    }
    return out;
  };
}

/**
 * Runs a statement and gives its rows as arrays of values, whatever the driver, through the
 * session interface Drizzle's own relational queries use (a prepared query in array mode with a
 * result mapper; every Drizzle PostgreSQL driver implements it, each with its own array mode:
 * node-postgres's and PGlite's `rowMode: 'array'`, postgres.js's `values()`). The driver then
 * builds no object per row: on a 6,000-row page batch on PostgreSQL the client's CPU time fell
 * by ~7%, and the rows become items without an intermediate object. Drizzle's type parsers are
 * the same as for `execute` (dates stay text), and the session logs the statement as any other.
 * Lists and pages take this path rather than a Drizzle `select` because its per-row mapping of
 * nested fields walks proxy prototype chains for every value: it doubled the time of a page batch.
 */
export function arrayRows(db: SqlDatabase, text: string, params: unknown[]): Promise<unknown[][]> {
  return arrayRowsOn(db._.session, text, params);
}

/** `arrayRows` on a session (one made for a single statement need not be wrapped in a database object). */
export function arrayRowsOn(session: SqlDatabase['_']['session'], text: string, params: unknown[]): Promise<unknown[][]> {
  return session.prepareQuery({ sql: text, params }, undefined, undefined, true, (rows) => rows).execute() as Promise<unknown[][]>;
}
