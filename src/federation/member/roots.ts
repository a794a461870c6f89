/**
 * The member's batch roots, added to each keyed entity's `<Entity>Query` group:
 *
 *   by_<key>_in(values: [T!]!): [Entity!]!
 *   page_by_<key>_in(<key>_list: [T!]!, order: <Entity>Order, direction: PageDirection,
 *                    limit: Int, offset: Int): [<Entity>By<Key>Page!]!
 *
 * A page package is `{ <key>, items, pagination { has_more total_count } }`, one per input
 * key in input order; `total_count` is computed only when selected.
 */
import {
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { objectTypeFor } from '../../graphql/output.js';
import { checkWindow, paginationType, toResult } from '../../graphql/pagination.js';
import type { TypeRegistry } from '../../graphql/registry.js';
import { levelOf, needsResolve, resolveModels, type Run } from '../../graphql/run.js';
import type { GroupFieldsContribution } from '../../graphql/operations.js';
import { selects } from '../../graphql/selections.js';
import { targetFields } from '../../graphql/fields.js';
import type { BatchPageConfig, Direction } from '../../er/orders.js';
import type { FederationKey, MemberEntity } from './declared.js';
import { directionEnum, orderEnum, termFor } from '../../graphql/orders.js';

import type { KeySource } from './sources.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** A batch root answers at most this many keys per call: a bound on the work of one request. */
export const MAX_KEYS = 10_000;

export const byRootName = (key: string) => `by_${key}_in`;
export const pageRootName = (key: string) => `page_by_${key}_in`;
export const pageTypeName = (entity: string, key: string) => `${entity}By${key.charAt(0).toUpperCase()}${key.slice(1)}Page`;

/** The page window of a batch root or remote page: the federation-wide default and cap. */
export const federationWindow = (where: string, limit: number | null | undefined, offset: number | null | undefined) =>
  checkWindow(where, limit, offset, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);

function checkKeys(where: string, values: readonly unknown[]) {
  if (values.length > MAX_KEYS) {
    throw new GraphQLError(`${where}: at most ${MAX_KEYS} keys per call, got ${values.length}`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
}

/** Run `resolveX` / `postX` of response models among loaded values, in the request's run. */
async function finish<T>(run: Run, value: T): Promise<T> {
  if (needsResolve(run, value)) await resolveModels(run, value);
  return value;
}

const keyList = (key: FederationKey) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(key.scalar)));

function byField(types: TypeRegistry, member: MemberEntity, key: FederationKey, source: KeySource): GraphQLFieldConfig<unknown, Run> {
  const where = `${member.info.name}.${byRootName(key.field)}`;
  return {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectTypeFor(types, member.info.kls)))),
    description: `${member.info.name} rows whose ${key.field} is one of values (federation batch root)`,
    args: { values: { type: keyList(key) } },
    resolve(_group, args: { values: unknown[] }, run, info) {
      checkKeys(where, args.values);
      const fields = targetFields(info, member.info.kls, run.diagram);
      const result = source.byKey(key.field, args.values, run.context, fields).then((items) => finish(run, items));
      return run.levels.track(levelOf(run, info.path), result);
    },
  };
}

function pageField(
  types: TypeRegistry,
  member: MemberEntity,
  key: FederationKey,
  orders: BatchPageConfig,
  source: KeySource,
): GraphQLFieldConfig<unknown, Run> {
  const entity = member.info.name;
  const where = `${entity}.${pageRootName(key.field)}`;
  const name = pageTypeName(entity, key.field);
  const pageType = types.once(
    name,
    `the federation page package of ${entity} by ${key.field}`,
    () =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          [key.field]: { type: new GraphQLNonNull(key.scalar) },
          items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectTypeFor(types, member.info.kls)))) },
          pagination: { type: new GraphQLNonNull(paginationType(types)) },
        }),
      }),
  );
  return {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(pageType))),
    description: `One page of ${entity} per ${key.field} in ${key.field}_list, in input order`,
    args: {
      [`${key.field}_list`]: { type: keyList(key) },
      order: { type: orderEnum(types, entity, Object.keys(orders.orders)), description: `Default: ${orders.defaultOrder}` },
      direction: { type: directionEnum(types), description: "Default: the profile's own direction" },
      limit: { type: GraphQLInt, description: `Page size per key (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})` },
      offset: { type: GraphQLInt },
    },
    resolve(_group, args: Record<string, unknown>, run, info) {
      const values = args[`${key.field}_list`] as unknown[];
      checkKeys(where, values);
      const window = federationWindow(where, args.limit as number | null, args.offset as number | null);
      const term = termFor(entity, orders, args.order as string | null, args.direction as Direction | null);
      const withTotal = selects(info, ['pagination', 'total_count']);
      const fields = targetFields(info, member.info.kls, run.diagram, ['items']);
      const result = source.pagesByKey(key.field, values, { ...window, withTotal, term }, run.context, fields).then(async (pages) => {
        const packages = pages.map((page, i) => ({ [key.field]: values[i], ...toResult(page, withTotal) }));
        await finish(run, packages.flatMap((p) => p.items));
        return packages;
      });
      return run.levels.track(levelOf(run, info.path), result);
    },
  };
}

/** The group contribution serving every keyed entity's batch roots. */
export function batchRoots(members: ReadonlyMap<string, MemberEntity>, sources: ReadonlyMap<string, KeySource>): GroupFieldsContribution {
  return (entity, kind, types) => {
    const member = members.get(entity.name);
    if (kind !== 'query' || !member || member.info.kls !== entity.kls) return undefined;
    const source = sources.get(entity.name)!;
    const fields: GraphQLFieldConfigMap<unknown, Run> = {};
    for (const key of member.keys) {
      fields[byRootName(key.field)] = byField(types, member, key, source);
      if (member.orders) fields[pageRootName(key.field)] = pageField(types, member, key, member.orders, source);
    }
    return fields;
  };
}
