import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { getTableColumns, getTableConfig, getTableName } from './drizzle.js';
import { ConfigError } from '../er/errors.js';

/** The TypeScript key of a column (what rows and models use), not its SQL name. */
export function columnKey(table: PgTable, column: PgColumn): string {
  for (const [key, c] of Object.entries(getTableColumns(table))) if (c === column) return key;
  throw new ConfigError(`Column ${column.name} is not a column of table ${getTableName(table)}`);
}

/** The one primary-key column: list order needs it as a tiebreaker, `byId` as its argument. */
export function primaryKeyColumn(table: PgTable, why: string): PgColumn {
  const columns = primaryKeyColumns(table);
  if (columns.length !== 1) {
    throw new ConfigError(
      `Table ${getTableName(table)} needs a single-column primary key for ${why} (found ${columns.length})`,
    );
  }
  return columns[0]!;
}

/**
 * Columns that make an order total: the primary key (one or several columns), or every column
 * of a table without one (rows equal in all columns are interchangeable anyway).
 */
export function tiebreakColumns(table: PgTable): PgColumn[] {
  const pk = primaryKeyColumns(table);
  return pk.length ? pk : getTableConfig(table).columns;
}

/** The primary key, declared on a column or with `primaryKey({ columns })`. */
export function primaryKeyColumns(table: PgTable): PgColumn[] {
  const config = getTableConfig(table);
  // `primaryKey({ columns })` holds stand-ins built for the extra config: map them back by name.
  const byName = new Map(config.columns.map((c) => [c.name, c]));
  return [
    ...config.columns.filter((c) => c.primary),
    ...config.primaryKeys.flatMap((p) => p.columns.map((c) => byName.get(c.name) ?? c)),
  ];
}
