/**
 * Models derived from Drizzle tables. `tableModel(table)` reads the column types once and
 * returns a model class; a registry remembers which table each model class (and every class
 * extending it) stands for, so the SQL integration can go from an entity back to its table.
 */
import type { Column, Table } from 'drizzle-orm';
import type { PgArray, PgTable } from 'drizzle-orm/pg-core';
import { getTableColumns, getTableName, is, pgCore } from './drizzle.js';
import { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import { model, type AnyModelClass, type ModelClass } from '../er/model.js';

/*
 * bigint / bigserial follow the Drizzle `mode` the column was declared with, because that mode
 * is what the driver hands back:
 * - `mode: 'number'` (PgBigInt53, PgBigSerial53): JS numbers, so `z.int()` (zod's safe-integer
 *   bound is exactly what that mode can hold) and GraphQL `Int`. GraphQL's Int is 32-bit, so a
 *   value past ±2^31 fails serialisation with an error naming the field: choose this mode only
 *   for columns whose values stay small (counters, ids of modest tables).
 * - `mode: 'bigint'` (PgBigInt64, PgBigSerial64): JS bigints, so `z.bigint()` and the `BigInt`
 *   scalar, serialised as a decimal string so no digit is lost past 2^53. The safe choice for
 *   ids and amounts of unbounded size.
 */
const INTEGER_TYPES = new Set(['PgInteger', 'PgSerial', 'PgSmallInt', 'PgSmallSerial', 'PgBigInt53', 'PgBigSerial53']);
const SERIAL_TYPES = new Set(['PgSerial', 'PgSmallSerial', 'PgBigSerial53', 'PgBigSerial64']);
/** Columns with a declared maximum length in characters. */
const LENGTH_TYPES = new Set(['PgVarchar', 'PgChar']);
/** Columns the driver hands back as strings although their value is a number. */
const NUMERIC_STRING_TYPES = new Set(['PgNumeric']);

// zod registers `.meta({ id })` globally and refuses an id twice: one schema per enum.
const enumSchemas = new Map<string, z.ZodEnum>();

function enumSchema(id: string, values: readonly string[]): z.ZodEnum {
  let schema = enumSchemas.get(id);
  if (!schema) {
    schema = z.enum(values as [string, ...string[]]).meta({ id });
    enumSchemas.set(id, schema);
  }
  return schema;
}

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');

/**
 * Array columns (`text('tags').array()`): `z.array(<element type>)`, so GraphQL shows
 * `[String!]` (with `!` outside when the column is NOT NULL).
 *
 * Elements are non-null. PostgreSQL lets any array hold NULL elements, but Drizzle types the
 * column as `string[]`, and a list of nullable items would make every client handle a null
 * that almost no schema ever stores. A row that does hold a NULL element is not hidden: the
 * query fails with an error naming the field. Declare the model by hand with
 * `z.array(z.string().nullable())` for columns that really keep NULLs inside.
 *
 * Only one dimension: GraphQL lists of lists would need a nested list type the model layer
 * does not describe, and PostgreSQL does not even enforce the declared dimension count.
 */
function arrayElement(table: Table, key: string, column: Column): Column {
  const element = (column as unknown as PgArray<never, never>).baseColumn as Column;
  if (is(element, pgCore().PgArray)) {
    throw new ConfigError(
      `tableModel: column ${getTableName(table)}.${column.name} is a multi-dimensional array, which has no model type; declare the model by hand`,
    );
  }
  return element;
}

/** The zod type of one column, as the driver returns it (after `decodeRow`). */
export function columnSchema(table: Table, key: string, column: Column): z.ZodType {
  const schema = column.dataType === 'array' ? z.array(valueSchema(table, key, arrayElement(table, key, column))) : valueSchema(table, key, column);
  // PostgreSQL makes every serial NOT NULL, but Drizzle's bigserial({ mode: 'bigint' }) does
  // not say so: trust the SQL type.
  return column.notNull || SERIAL_TYPES.has(column.columnType) ? schema : schema.nullable();
}

/** The zod type of a column's non-null value (of an array column's elements, for `column` the element). */
function valueSchema(table: Table, key: string, column: Column): z.ZodType {
  let schema: z.ZodType;
  const enumValues = column.enumValues as readonly string[] | undefined;
  const where = `${getTableName(table)}.${column.name}`;
  switch (column.dataType) {
    case 'number':
      schema = INTEGER_TYPES.has(column.columnType) ? z.int() : z.number();
      break;
    case 'bigint':
      schema = z.bigint();
      break;
    case 'boolean':
      schema = z.boolean();
      break;
    case 'date':
      schema = z.date();
      break;
    case 'string':
      // Also `date`, `time`, `interval` and `timestamp({ mode: 'string' })`: the driver returns
      // PostgreSQL's own text for them, and they stay strings (String in GraphQL).
      if (NUMERIC_STRING_TYPES.has(column.columnType)) schema = z.number();
      else if (enumValues?.length) {
        const pgEnumName = (column as unknown as { enum?: { enumName: string } }).enum?.enumName;
        schema = enumSchema(pgEnumName ? pascal(pgEnumName) : `${pascal(getTableName(table))}${pascal(key)}`, enumValues);
      } else if (column.columnType === 'PgUUID') {
        // guid, not uuid: PostgreSQL stores any 8-4-4-4-12 hex value, while zod's uuid also
        // demands RFC version and variant bits. Its GraphQL type is ID.
        schema = z.guid();
      } else {
        const length = LENGTH_TYPES.has(column.columnType) ? (column as unknown as { length?: number }).length : undefined;
        schema = length ? z.string().max(length) : z.string();
      }
      break;
    case 'json':
      // json and jsonb: parsed by the driver into plain JSON values; GraphQL type JSON.
      schema = z.json();
      break;
    default:
      throw new ConfigError(
        `tableModel: column ${where} has type ${column.columnType} (${column.dataType}), which has no model type; declare the model by hand`,
      );
  }
  return schema;
}

export interface TableEntry {
  table: PgTable;
  model: AnyModelClass;
  /** Turns a row as the driver returns it into the values the model declares. */
  decode: (row: Record<string, unknown>) => Record<string, unknown>;
}

const byTable = new WeakMap<Table, TableEntry>();
const byModel = new WeakMap<AnyModelClass, TableEntry>();

const isNumericString = (c: Column) => c.dataType === 'string' && NUMERIC_STRING_TYPES.has(c.columnType);

function decoderFor(table: Table): TableEntry['decode'] {
  const columns = Object.entries(getTableColumns(table));
  const numeric = columns.filter(([, c]) => isNumericString(c)).map(([key]) => key);
  // numeric[] comes back as strings element by element, like numeric itself.
  const numericArrays = columns
    .filter(([, c]) => c.dataType === 'array' && isNumericString((c as unknown as PgArray<never, never>).baseColumn as Column))
    .map(([key]) => key);
  if (!numeric.length && !numericArrays.length) return (row) => row;
  const num = (v: unknown) => (typeof v === 'string' ? Number(v) : v);
  return (row) => {
    const out = { ...row };
    for (const key of numeric) out[key] = num(out[key]);
    for (const key of numericArrays) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(num);
    return out;
  };
}

export type TableShape<T extends Table> = { [K in keyof T['_']['columns']]: z.ZodType<T['$inferSelect'][K]> };

/**
 * A model class whose fields are the table's columns (TypeScript keys, not SQL names). The
 * class is made once per table; extend it to add relationships, queries or a nicer name.
 */
export function tableModel<T extends PgTable>(table: T): ModelClass<TableShape<T>> {
  if (!is(table, pgCore().PgTable)) throw new ConfigError(`tableModel takes a Drizzle pgTable, got ${String(table)}`);
  const known = byTable.get(table);
  if (known) return known.model as unknown as ModelClass<TableShape<T>>;
  const shape: Record<string, z.ZodType> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) shape[key] = columnSchema(table, key, column);
  const kls = model(shape) as unknown as AnyModelClass;
  Object.defineProperty(kls, 'name', { value: pascal(getTableName(table)) });
  const entry: TableEntry = { table, model: kls, decode: decoderFor(table) };
  byTable.set(table, entry);
  byModel.set(kls, entry);
  return kls as unknown as ModelClass<TableShape<T>>;
}

/** The table a model class (or a class extending a table model) stands for. */
export function tableOf(kls: AnyModelClass): PgTable | undefined {
  return tableEntryOf(kls)?.table;
}

export function tableEntryOf(kls: AnyModelClass): TableEntry | undefined {
  for (let c: unknown = kls; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
    const entry = byModel.get(c as AnyModelClass);
    if (entry) return entry;
  }
  return undefined;
}

/** The registry entry of a table, creating its model on first use. */
export function tableEntry(table: PgTable): TableEntry {
  tableModel(table);
  return byTable.get(table)!;
}
