import { getTableColumns, getTableName } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { ConfigError } from '../er/errors.js';

/** The TypeScript key of a column (what rows and models use), not its SQL name. */
export function columnKey(table: PgTable, column: PgColumn): string {
  for (const [key, c] of Object.entries(getTableColumns(table))) if (c === column) return key;
  throw new ConfigError(`Column ${column.name} is not a column of table ${getTableName(table)}`);
}

/** The one primary-key column: list order needs it as a tiebreaker, `byId` as its argument. */
export function primaryKeyColumn(table: PgTable, why: string): PgColumn {
  const config = getTableConfig(table);
  const columns = [
    ...config.columns.filter((c) => c.primary),
    ...config.primaryKeys.flatMap((pk) => pk.columns),
  ];
  if (columns.length !== 1) {
    throw new ConfigError(
      `Table ${getTableName(table)} needs a single-column primary key for ${why} (found ${columns.length})`,
    );
  }
  return columns[0]!;
}
