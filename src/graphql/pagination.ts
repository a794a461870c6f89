/**
 * Limit/offset pagination of one-to-many relationship fields (spec 2.6 and 8): the
 * `<Entity>Result` / `Pagination` types, argument checks, and pages loaded per parent — through
 * the relationship's page loader when it has one (asking for the total only when `total_count`
 * is selected), otherwise sliced from the batch loader's full list.
 */
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLResolveInfo,
} from 'graphql';
import type { ResolvedRelationship } from '../er/diagram.js';
import type { Page } from '../er/relationship.js';
import { PAGINATION_TYPE, resultTypeName } from './names.js';
import { objectTypeFor } from './output.js';
import type { TypeRegistry } from './registry.js';
import type DataLoader from 'dataloader';
import { keyOf, MISSING } from './keys.js';
import { levelOf, type Run } from './run.js';
import { selectionOf } from './selections.js';
import { nativeExtensions, type FieldSelection, type LoadSource } from './native.js';
import { narrowLoads, narrowPages } from './narrow.js';
import { paginationOrdersOf, type BatchPageConfig, type Direction } from '../er/orders.js';
import { compareBy, directionEnum, orderEnum, termFor } from './orders.js';
import { className } from '../er/names.js';

export interface PageResult {
  items: unknown[];
  pagination: { has_more: boolean; total_count: number | null };
}

/** The shared `Pagination` type (federation's remote pages reuse it). */
export function paginationType(types: TypeRegistry): GraphQLObjectType {
  return types.once(
    PAGINATION_TYPE,
    'the pagination info type',
    () =>
      new GraphQLObjectType({
        name: PAGINATION_TYPE,
        fields: {
          has_more: { type: new GraphQLNonNull(GraphQLBoolean), description: 'More items follow this page' },
          total_count: { type: GraphQLInt, description: 'Number of items over all pages; computed only when selected' },
        },
      }),
  );
}

function resultType(types: TypeRegistry, rel: ResolvedRelationship): GraphQLObjectType {
  const name = resultTypeName(className(rel.target, 'entity'));
  return types.once(name, `the page type of entity ${className(rel.target, 'entity')}`, () => {
    types.resultTypes.add(name);
    return new GraphQLObjectType({
      name,
      fields: () => ({
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectTypeFor(types, rel.target)))) },
        pagination: { type: new GraphQLNonNull(paginationType(types)) },
      }),
    });
  });
}

/**
 * Effective limit and offset of a page request: `defaultSize` when no limit is given, capped at
 * `maxSize`; a negative or non-integer value is a `BAD_USER_INPUT` error naming `where`
 * (`<Entity>.<field>`). Local relationships and federation batch roots share this one rule.
 */
export function checkWindow(
  where: string,
  limit: number | null | undefined,
  offset: number | null | undefined,
  defaultSize: number,
  maxSize: number,
): { limit: number; offset: number } {
  const l = limit ?? defaultSize;
  const o = offset ?? 0;
  for (const [name, value] of [
    ['limit', l],
    ['offset', o],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new GraphQLError(`${where}: ${name} must be a non-negative integer, got ${value}`, {
        extensions: { code: 'BAD_USER_INPUT', argument: name },
      });
    }
  }
  return { limit: Math.min(l, maxSize), offset: o };
}

/** Effective limit and offset: `defaultPageSize` when no limit is given, capped at `maxPageSize`. */
function pageWindow(rel: ResolvedRelationship, args: { limit?: number | null; offset?: number | null }): { limit: number; offset: number } {
  const r = rel.relationship;
  return checkWindow(`${rel.owner.name}.${r.name}`, args.limit, args.offset, r.defaultPageSize, r.maxPageSize);
}

function slice(list: readonly unknown[], limit: number, offset: number): PageResult {
  return {
    items: list.slice(offset, offset + limit),
    pagination: { has_more: offset + limit < list.length, total_count: list.length },
  };
}

const NO_ITEMS: readonly unknown[] = Object.freeze([]);
const EMPTY_PAGE: Page = { items: [], hasMore: false, total: 0 };

const emptyPage = (): PageResult => ({ items: [], pagination: { has_more: false, total_count: 0 } });

interface PageArgs {
  limit?: number | null;
  offset?: number | null;
  order?: string | null;
  direction?: Direction | null;
}

/** `order` / `direction` arguments when the target publishes order profiles (spec 2.7 rule 4). */
function orderArgs(types: TypeRegistry, target: string, orders: BatchPageConfig | undefined): GraphQLFieldConfigArgumentMap {
  if (!orders) return {};
  return {
    order: { type: orderEnum(types, target, Object.keys(orders.orders)), description: `Order profile (default ${orders.defaultOrder})` },
    direction: { type: directionEnum(types), description: "Direction (default: the profile's own; the other one is its strict reverse)" },
  };
}

export function pagedRelationshipField(types: TypeRegistry, rel: ResolvedRelationship): GraphQLFieldConfig<unknown, Run> {
  const r = rel.relationship;
  const orders = paginationOrdersOf(rel.target);
  /** The page every parent of one field gets: the window is checked before any key is read. */
  const source = (run: Run, args: PageArgs, selection: FieldSelection, info: GraphQLResolveInfo): LoadSource => {
    const { limit, offset } = pageWindow(rel, args);
    // Only a profile the caller chose goes to the loader; without one it keeps its own order.
    const term = orders && (args.order || args.direction) ? termFor(className(rel.target, 'entity'), orders, args.order, args.direction) : undefined;
    if (r.pageLoader) {
      const withTotal = selection.selects(['pagination', 'total_count']);
      const order = term ? (args.order ?? orders!.defaultOrder) : undefined;
      const request = { limit, offset, withTotal, ...(term ? { order, direction: term.direction } : {}) };
      const loader = run.pool.page(r.pageLoader, request) as DataLoader<unknown, unknown>;
      return { loader, missing: EMPTY_PAGE, finish: (page) => toResult(page as Page, withTotal), narrow: narrowPages(run, rel, info, request) };
    }
    return {
      loader: run.pool.get(r.loader!),
      missing: NO_ITEMS,
      narrow: narrowLoads(run, rel, info, ['items']),
      // A stable sort keeps the loader's order among ties, so pages stay deterministic.
      finish: (list) => slice(term ? [...(list as unknown[])].sort(compareBy(term)) : (list as unknown[]), limit, offset),
    };
  };
  return {
    type: new GraphQLNonNull(resultType(types, rel)),
    description: r.description,
    deprecationReason: r.deprecationReason,
    args: {
      limit: { type: GraphQLInt, description: `Page size (default ${r.defaultPageSize}, at most ${r.maxPageSize})` },
      offset: { type: GraphQLInt, description: 'Items to skip (default 0)' },
      ...orderArgs(types, className(rel.target, 'entity'), orders),
    },
    extensions: {
      ...nativeExtensions({ kind: 'load', relationship: r, empty: emptyPage, source }),
      // Read by the cost estimate of `limits.ts`: a page holds at most this many items.
      pageSize: { default: r.defaultPageSize, max: r.maxPageSize },
    },
    resolve(parent, args: PageArgs, run, info) {
      const { loader, missing, finish, narrow } = source(run, args, selectionOf(info), info);
      const key = keyOf(parent, r);
      if (key === MISSING) return emptyPage();
      return run.levels.load(levelOf(run, info.path), loader, key, missing, narrow).then(finish);
    },
  };
}

/** A loader's page on the wire: `total_count` is null unless it was selected (and so computed). */
export function toResult(page: Page, withTotal: boolean): PageResult {
  return { items: page.items, pagination: { has_more: page.hasMore, total_count: withTotal ? page.total : null } };
}
