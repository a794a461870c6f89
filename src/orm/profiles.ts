/**
 * Order profiles an entity publishes in `static __pagination_orders__` (a `BatchPageConfig` of
 * `ergraph/federation`). Local list relationships to that entity page by them too (spec 2.7,
 * rule 4). Read by shape so the SQL integration does not depend on the federation module.
 */
import { getTableColumns, getTableName } from './drizzle.js';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import type { NormalizedOrder } from './types.js';
import { classLabel } from '../er/names.js';

interface TermShape {
  column: string;
  direction?: 'ASC' | 'DESC';
  nulls?: 'FIRST' | 'LAST';
}

interface ProfilesShape {
  defaultOrder: string;
  orders: Record<string, { terms: readonly TermShape[] }>;
}

export interface OrderProfiles {
  defaultOrder: string;
  orders: ReadonlyMap<string, NormalizedOrder>;
}

export function orderProfiles(kls: AnyModelClass, table: PgTable): OrderProfiles | undefined {
  const declared = (kls as unknown as { __pagination_orders__?: ProfilesShape }).__pagination_orders__;
  if (!declared) return undefined;
  const where = `${classLabel(kls)}.__pagination_orders__`;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const orders = new Map<string, NormalizedOrder>();
  for (const [name, order] of Object.entries(declared.orders ?? {})) {
    const [term, ...rest] = order.terms ?? [];
    if (!term || rest.length) throw new ConfigError(`${where}: profile '${name}' must order by exactly one column`);
    const column = columns[term.column];
    if (!column) throw new ConfigError(`${where}: profile '${name}' orders by '${term.column}', not a column of ${getTableName(table)}`);
    const direction = term.direction === 'DESC' ? 'desc' : 'asc';
    const nulls = term.nulls ? (term.nulls === 'FIRST' ? 'first' : 'last') : direction === 'asc' ? 'last' : 'first';
    orders.set(name, { column, direction, nulls });
  }
  if (!orders.has(declared.defaultOrder)) throw new ConfigError(`${where}: default order '${declared.defaultOrder}' is not a profile`);
  return { defaultOrder: declared.defaultOrder, orders };
}
