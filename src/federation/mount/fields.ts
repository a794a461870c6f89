/**
 * Remote relationship fields on the mounter's entity types. A field's loads go through a
 * DataLoader per (run, field node, arguments), queued at the field's tree level like local
 * relationships, so all parents of a level share one batch; the batch becomes one part of the
 * member request of that level (see batch.ts).
 */
import DataLoader from 'dataloader';
import {
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type FieldNode,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLResolveInfo,
} from 'graphql';
import { SOURCE, type AnyModelClass } from '../../er/model.js';
import type { EntityInfo } from '../../er/diagram.js';
import { resultTypeName } from '../../graphql/names.js';
import { paginationType } from '../../graphql/pagination.js';
import type { ObjectFieldsContribution, TypeRegistry } from '../../graphql/registry.js';
import { levelOf, type Run } from '../../graphql/run.js';
import { keyId } from '../../orm/queries.js';
import { directionEnum, orderEnum } from '../../graphql/orders.js';
import { federationWindow } from '../member/roots.js';
import type { EntityDescription, KeyDescription } from '../protocol.js';
import type { RemoteRelationship } from '../remote.js';
import { MemberBatcher, type Part } from './batch.js';
import { forward, subSelections } from './forward.js';
import type { Member } from './http.js';
import { byResponseKey, remoteNamedType, type Catalog } from './types.js';
import { canonicalPagination } from './forward.js';

export interface MountedEdge {
  owner: string;
  rel: RemoteRelationship;
  member: Member;
  entity: EntityDescription;
  key: KeyDescription;
}

/** The join key comes back under this alias so flat `by_<key>_in` results can be grouped. */
const KEY_ALIAS = '_ergraph_key';

interface RunState {
  batchers: Map<string, MemberBatcher>;
  loaders: WeakMap<FieldNode, Map<string, DataLoader<unknown, unknown>>>;
}

const runs = new WeakMap<Run, RunState>();

function runState(run: Run): RunState {
  let state = runs.get(run);
  if (!state) runs.set(run, (state = { batchers: new Map(), loaders: new WeakMap() }));
  return state;
}

function batcherFor(run: Run, member: Member): MemberBatcher {
  const state = runState(run);
  let batcher = state.batchers.get(member.service);
  if (!batcher) state.batchers.set(member.service, (batcher = new MemberBatcher(member)));
  return batcher;
}

/** How many member requests a run has sent, by service (diagnostics; tests prove batching with it). */
export function memberRequests(run: Run): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [service, batcher] of runs.get(run)?.batchers ?? []) out[service] = batcher.requests;
  return out;
}

interface PageArgs {
  limit?: number | null;
  offset?: number | null;
  order?: string | null;
  direction?: 'ASC' | 'DESC' | null;
}

function partFor(edge: MountedEdge, info: GraphQLResolveInfo, args: PageArgs, keys: readonly unknown[]): Part {
  const { entity, key, rel } = edge;
  return {
    render(prefix) {
      const keysVar = `${prefix}_keys`;
      const definitions = [`$${keysVar}: [${key.type}!]!`];
      const variables: Record<string, unknown> = { [keysVar]: keys };
      let call: string;
      let selection: string;
      if (rel.pagination) {
        const { limit, offset } = federationWindow(`${edge.owner}.${rel.name}`, args.limit, args.offset);
        const extra = [`limit: ${limit}`, `offset: ${offset}`];
        if (args.order) extra.push(`order: ${args.order}`);
        if (args.direction) extra.push(`direction: ${args.direction}`);
        call = `${key.pageRoot}(${key.field}_list: $${keysVar}, ${extra.join(', ')})`;
        const sub = forward(info, subSelections(info), prefix);
        definitions.push(...sub.variables.map((v) => v.definition));
        for (const v of sub.variables) variables[v.name] = v.value;
        selection = `${KEY_ALIAS}: ${key.field} __typename ${sub.selection}`;
      } else {
        call = `${key.root}(values: $${keysVar})`;
        const sub = forward(info, subSelections(info), prefix);
        definitions.push(...sub.variables.map((v) => v.definition));
        for (const v of sub.variables) variables[v.name] = v.value;
        selection = `${KEY_ALIAS}: ${key.field} ${sub.selection}`;
      }
      return { field: `${entity.name} { r: ${call} { ${selection} } }`, definitions, variables };
    },
  };
}

function badShape(edge: MountedEdge, detail: string): GraphQLError {
  return new GraphQLError(`Member service '${edge.member.service}' (${edge.member.address}) answered an invalid response: ${detail}`, {
    extensions: { code: 'FEDERATION_MEMBER_BAD_RESPONSE', service: edge.member.service },
  });
}

/** Align the member's answer with the keys: one value per key, in key order. */
function align(edge: MountedEdge, keys: readonly unknown[], value: unknown): unknown[] {
  const where = `${edge.entity.name}.${edge.rel.pagination ? edge.key.pageRoot : edge.key.root}`;
  if (!Array.isArray(value)) throw badShape(edge, `${where} is not a list`);
  if (edge.rel.pagination) {
    if (value.length !== keys.length) throw badShape(edge, `${where} returned ${value.length} pages for ${keys.length} keys`);
    return value.map((page) => {
      // Keyed by the client's selection (aliases, maybe no pagination): only the shape is checked.
      if (!page || typeof page !== 'object' || Array.isArray(page)) throw badShape(edge, `${where} returned a page that is not an object`);
      return page;
    });
  }
  const byKey = new Map<string, unknown[]>();
  for (const item of value) {
    if (!item || typeof item !== 'object') throw badShape(edge, `${where} returned a non-object item`);
    const id = keyId((item as Record<string, unknown>)[KEY_ALIAS]);
    const list = byKey.get(id);
    if (list) list.push(item);
    else byKey.set(id, [item]);
  }
  return keys.map((k) => {
    const items = byKey.get(keyId(k)) ?? [];
    return edge.rel.list ? items : (items[0] ?? null);
  });
}

function loaderFor(run: Run, edge: MountedEdge, info: GraphQLResolveInfo, args: PageArgs): DataLoader<unknown, unknown> {
  const state = runState(run);
  const node = info.fieldNodes[0]!;
  let byArgs = state.loaders.get(node);
  if (!byArgs) state.loaders.set(node, (byArgs = new Map()));
  const id = `${edge.owner}.${edge.rel.name}:${JSON.stringify(args)}`;
  let loader = byArgs.get(id);
  if (!loader) {
    const batcher = batcherFor(run, edge.member);
    loader = new DataLoader(
      async (keys: readonly unknown[]) => {
        const value = await batcher.request(partFor(edge, info, args, keys));
        canonicalPagination(info, subSelections(info), value);
        return align(edge, keys, value);
      },
      { cacheKeyFn: keyId },
    );
    byArgs.set(id, loader);
  }
  return loader;
}

function joinValue(parent: unknown, fk: string): unknown {
  const obj = parent as Record<string | symbol, unknown>;
  const raw = obj[fk] !== undefined ? obj[fk] : (obj[SOURCE] as Record<string, unknown> | undefined)?.[fk];
  return raw ?? undefined;
}

function resultType(types: TypeRegistry, catalog: Catalog, entity: EntityDescription): GraphQLObjectType {
  const name = resultTypeName(entity.name);
  const existing = remoteNamedType(types, catalog, name);
  if (existing) return existing as GraphQLObjectType;
  return types.once(name, `the page type of entity ${entity.name}`, () => {
    types.resultTypes.add(name);
    const item = remoteNamedType(types, catalog, entity.name) as GraphQLObjectType;
    return new GraphQLObjectType({
      name,
      fields: () => ({
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))), resolve: byResponseKey },
        pagination: { type: new GraphQLNonNull(paginationType(types)), resolve: byResponseKey },
      }),
    });
  });
}

function edgeField(types: TypeRegistry, catalog: Catalog, edge: MountedEdge): GraphQLFieldConfig<unknown, Run> {
  const { rel, entity } = edge;
  const target = remoteNamedType(types, catalog, entity.name) as GraphQLObjectType;
  const description = rel.description ?? `${entity.name} of service ${edge.member.service} (by ${entity.name}.${rel.joinRemote})`;
  // Nullable on purpose: a member that fails nulls this field only, not the parent.
  if (rel.pagination) {
    const orders = entity.orders!;
    return {
      type: resultType(types, catalog, entity),
      description,
      args: {
        limit: { type: GraphQLInt, description: 'Page size per parent (default 20, at most 100)' },
        offset: { type: GraphQLInt },
        order: { type: orderEnum(types, entity.name, orders.profiles.map((p) => p.name)), description: `Default: ${orders.default}` },
        direction: { type: directionEnum(types), description: "Default: the profile's own direction" },
      },
      resolve(parent, args: PageArgs, run, info) {
        federationWindow(`${edge.owner}.${rel.name}`, args.limit, args.offset);
        const key = joinValue(parent, rel.fk);
        if (key === undefined) return { items: [], pagination: { has_more: false, total_count: 0 } };
        return run.levels.load(levelOf(run, info.path), loaderFor(run, edge, info, args), key, null);
      },
    };
  }
  return {
    type: rel.list ? new GraphQLList(new GraphQLNonNull(target)) : target,
    description,
    resolve(parent, _args, run, info) {
      const key = joinValue(parent, rel.fk);
      if (key === undefined) return rel.list ? [] : null;
      return run.levels.load(levelOf(run, info.path), loaderFor(run, edge, info, {}), key, rel.list ? [] : null);
    },
  };
}

/** Contribution: the remote fields of each mounter entity that declares remote relationships. */
export function remoteEdgeFields(edges: ReadonlyMap<AnyModelClass, MountedEdge[]>, catalog: Catalog): ObjectFieldsContribution {
  return (kls: AnyModelClass, entity: EntityInfo | undefined, types: TypeRegistry) => {
    const own = entity && entity.kls === kls ? edges.get(kls) : undefined;
    if (!own) return undefined;
    const fields: GraphQLFieldConfigMap<unknown, Run> = {};
    for (const edge of own) fields[edge.rel.name] = edgeField(types, catalog, edge);
    return fields;
  };
}
