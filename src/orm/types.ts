import { core, is } from './drizzle.js';
import type { PgColumn, PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** Any Drizzle PostgreSQL database: `drizzle-orm/pglite`, `drizzle-orm/node-postgres`, ... */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SqlDatabase = PgDatabase<PgQueryResultHKT, any>;

/** SQL spelling of a sort direction (Drizzle's `asc()`/`desc()`); order profiles spell it `'ASC' | 'DESC'` (`Direction` in the root). */
export type SqlDirection = 'asc' | 'desc';

/** How a list relationship is ordered: a column, or a column with direction and nulls placement. */
export type OrderBy = PgColumn | { column: PgColumn; direction?: SqlDirection; nulls?: 'first' | 'last' };

export interface NormalizedOrder {
  column: PgColumn;
  direction: SqlDirection;
  nulls: 'first' | 'last';
}

export function normalizeOrder(order: OrderBy): NormalizedOrder {
  const spec = is(order, core().Column) ? { column: order as PgColumn } : (order as Exclude<OrderBy, PgColumn>);
  const direction = spec.direction ?? 'asc';
  // PostgreSQL's own default: nulls sort as if larger than any value.
  return { column: spec.column, direction, nulls: spec.nulls ?? (direction === 'asc' ? 'last' : 'first') };
}

/** The strict reverse: flipping the direction flips the nulls placement with it. */
export function flipped(order: NormalizedOrder): NormalizedOrder {
  return { column: order.column, direction: order.direction === 'asc' ? 'desc' : 'asc', nulls: order.nulls === 'first' ? 'last' : 'first' };
}
