/**
 * Order profiles on the GraphQL surface: the `<Entity>Order` enum of published profile names,
 * the shared `PageDirection` enum, and how a request picks its ordering term. Callers choose a
 * profile and may flip it; they never order by arbitrary columns (spec 8, rule 5).
 */
import { GraphQLEnumType, GraphQLError } from 'graphql';
import { OrderTerm, type BatchPageConfig, type Direction } from '../er/orders.js';
import type { TypeRegistry } from './registry.js';

export const DIRECTION_ENUM = 'PageDirection';
export const orderEnumName = (entity: string) => `${entity}Order`;

/** `PageDirection { ASC DESC }`, shared by members and mounters (same owner string, same type). */
export function directionEnum(types: TypeRegistry): GraphQLEnumType {
  return types.once(
    DIRECTION_ENUM,
    'the page direction enum',
    () =>
      new GraphQLEnumType({
        name: DIRECTION_ENUM,
        description: "Flips an order profile's direction (and its nulls placement): the strict reverse",
        values: { ASC: { value: 'ASC' }, DESC: { value: 'DESC' } },
      }),
  );
}

/** `<Entity>Order`: the published profile names. */
export function orderEnum(types: TypeRegistry, entity: string, profiles: readonly string[]): GraphQLEnumType {
  const name = orderEnumName(entity);
  return types.once(
    name,
    `the order profiles of entity ${entity}`,
    () => new GraphQLEnumType({ name, values: Object.fromEntries(profiles.map((p) => [p, { value: p }])) }),
  );
}

/**
 * The profile term for a request: its own direction, or the strict reverse when `direction`
 * differs. `entity` (the target whose profiles these are) only names the culprit in the error.
 */
export function termFor(
  entity: string,
  orders: BatchPageConfig,
  order: string | null | undefined,
  direction: Direction | null | undefined,
): OrderTerm {
  const name = order ?? orders.defaultOrder;
  // Own profiles only: `constructor` or `__proto__` from a client must not reach Object.prototype.
  const profile = Object.hasOwn(orders.orders, name) ? orders.orders[name] : undefined;
  if (!profile) {
    throw new GraphQLError(`Unknown order profile '${name}' of ${entity} (published: ${Object.keys(orders.orders).join(', ')})`, {
      extensions: { code: 'BAD_USER_INPUT', argument: 'order' },
    });
  }
  const term = profile.terms[0]!;
  const base = new OrderTerm(term.column, term.direction, term.nullsPlacement());
  return direction && direction !== base.direction ? base.flipped() : base;
}

/** Sort comparator for a term, nulls placed as the term says (in-memory pages). */
export function compareBy(term: OrderTerm): (a: unknown, b: unknown) => number {
  const sign = term.direction === 'ASC' ? 1 : -1;
  const nullsFirst = term.nullsPlacement() === 'FIRST';
  return (a, b) => {
    const x = (a as Record<string, unknown>)[term.column];
    const y = (b as Record<string, unknown>)[term.column];
    const xn = x === null || x === undefined;
    const yn = y === null || y === undefined;
    if (xn || yn) return xn && yn ? 0 : xn === nullsFirst ? -1 : 1;
    return (x as number) < (y as number) ? -sign : (x as number) > (y as number) ? sign : 0;
  };
}
