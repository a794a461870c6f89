/**
 * Order profiles (specification 2.7): the orderings an entity publishes for its pages. They are
 * declarations of the ER graph: local one-to-many pagination reads them (2.7 rule 4) as well as
 * a federation member's `page_by_<key>_in` roots.
 */
import { ConfigError } from './errors.js';
import { modelFields, type AnyModelClass } from './model.js';
import { classLabel } from './names.js';

export type Direction = 'ASC' | 'DESC';

/** One ordering column; `nulls` defaults to PostgreSQL's own placement for the direction. */
export class OrderTerm {
  constructor(
    readonly column: string,
    readonly direction: Direction = 'ASC',
    readonly nulls?: 'FIRST' | 'LAST',
  ) {
    if (direction !== 'ASC' && direction !== 'DESC') {
      throw new ConfigError(`OrderTerm(${column}): direction must be 'ASC' or 'DESC', got '${String(direction)}'`);
    }
  }

  /** The strict reverse: direction flipped and nulls placement flipped with it. */
  flipped(): OrderTerm {
    return new OrderTerm(this.column, this.direction === 'ASC' ? 'DESC' : 'ASC', this.nullsPlacement() === 'FIRST' ? 'LAST' : 'FIRST');
  }

  nullsPlacement(): 'FIRST' | 'LAST' {
    // PostgreSQL sorts nulls as larger than any value: last ascending, first descending.
    return this.nulls ?? (this.direction === 'ASC' ? 'LAST' : 'FIRST');
  }
}

export class PageOrder {
  constructor(readonly terms: readonly OrderTerm[]) {}
}

export interface BatchPageConfigOptions {
  defaultOrder: string;
  orders: Record<string, PageOrder>;
}

/** The order profiles an entity publishes; callers may pick one by name and flip its direction. */
export class BatchPageConfig {
  readonly defaultOrder: string;
  readonly orders: Readonly<Record<string, PageOrder>>;
  constructor(options: BatchPageConfigOptions) {
    this.defaultOrder = options.defaultOrder;
    this.orders = options.orders;
  }

  /** Reject what the specification rejects at member startup; `owner` names the entity. */
  validate(owner: string, columns: ReadonlySet<string>): void {
    const names = Object.keys(this.orders);
    if (!names.length) throw new ConfigError(`${owner}.__pagination_orders__ publishes no order profile`);
    if (!(this.defaultOrder in this.orders)) {
      throw new ConfigError(`${owner}.__pagination_orders__: default order '${this.defaultOrder}' is not one of ${names.join(', ')}`);
    }
    for (const [name, order] of Object.entries(this.orders)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new ConfigError(`${owner}.__pagination_orders__: profile name '${name}' is not a valid GraphQL enum value`);
      }
      if (order.terms.length !== 1) {
        throw new ConfigError(
          `${owner}.__pagination_orders__: profile '${name}' has ${order.terms.length} columns; a profile orders by exactly one`,
        );
      }
      const column = order.terms[0]!.column;
      if (!columns.has(column)) throw new ConfigError(`${owner}.__pagination_orders__: profile '${name}' orders by unknown field '${column}'`);
    }
  }
}

/**
 * The order profiles an entity class publishes, validated: read by the member's batch roots and
 * by local one-to-many pagination alike (spec 2.7 rule 4).
 */
export function paginationOrdersOf(kls: AnyModelClass): BatchPageConfig | undefined {
  const declared = (kls as { __pagination_orders__?: unknown }).__pagination_orders__;
  if (declared === undefined || declared === null) return undefined;
  if (!(declared instanceof BatchPageConfig)) {
    throw new ConfigError(`${classLabel(kls)}.__pagination_orders__ must be a BatchPageConfig, got ${String(declared)}`);
  }
  declared.validate(classLabel(kls), new Set(modelFields(kls).map((f) => f.key)));
  return declared;
}
