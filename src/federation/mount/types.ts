/**
 * Remote types in the mounter's schema, under their bare names. Built per schema build from
 * the members' introspection; every field reads its value by *response key* because member
 * answers are keyed by the client's aliases (the selection is forwarded as written).
 */
import {
  getNullableType,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  Kind,
  parseType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLNullableType,
  type GraphQLOutputType,
  type TypeNode,
} from 'graphql';
import { resultTypeName } from '../../graphql/names.js';
import { paginationType } from '../../graphql/pagination.js';
import type { TypeRegistry } from '../../graphql/registry.js';
import type { Run } from '../../graphql/run.js';
import { GraphQLBigInt, GraphQLDateTime, GraphQLJSON } from '../../graphql/scalars.js';
import { DIRECTION_ENUM, directionEnum, orderEnum } from '../../graphql/orders.js';
import type { EntityDescription, TypeDescription } from '../protocol.js';

export interface Catalog {
  /** Remote entities by bare name, with the service they were reached through. */
  entities: Map<string, { description: EntityDescription; via: string }>;
  /** Remote object and enum types by bare name. */
  types: Map<string, { description: TypeDescription; via: string }>;
}

// The core's own scalar objects, not look-alikes: a mounter whose entities have JSON or BigInt
// fields already holds these, and graphql-js rejects two different types under one name.
const SCALARS: Record<string, GraphQLNamedType> = {
  Int: GraphQLInt,
  Float: GraphQLFloat,
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  ID: GraphQLID,
  DateTime: GraphQLDateTime,
  JSON: GraphQLJSON,
  BigInt: GraphQLBigInt,
};

const built = new WeakMap<TypeRegistry, Map<string, GraphQLNamedType>>();

/** Member answers are keyed like the client's selection (aliases included). */
export const byResponseKey = (parent: unknown, _args: unknown, _run: unknown, info: { path: { key: string | number } }) =>
  parent !== null && typeof parent === 'object' && Object.hasOwn(parent, info.path.key) ? (parent as Record<string, unknown>)[info.path.key as string] : undefined;

/** A GraphQL name that is safe as an object key: not reserved (`__typename`, `__proto__`). */
export const isPlainName = (name: unknown): name is string => typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith('__');

/** The named type for `name` in this schema build, or undefined when the mounter cannot offer it. */
export function remoteNamedType(types: TypeRegistry, catalog: Catalog, name: string): GraphQLNamedType | undefined {
  if (Object.hasOwn(SCALARS, name)) return SCALARS[name];
  if (name === 'Pagination') return paginationType(types);
  if (name === DIRECTION_ENUM) return directionEnum(types);
  let cache = built.get(types);
  if (!cache) built.set(types, (cache = new Map()));
  const cached = cache.get(name);
  if (cached) return cached;
  const entry = catalog.types.get(name);
  if (!entry) return undefined;
  const { description, via } = entry;
  const orderOf = [...catalog.entities.values()].find((e) => e.description.orders?.enum === name);
  let type: GraphQLNamedType;
  if (description.kind === 'ENUM' && orderOf) {
    type = orderEnum(types, orderOf.description.name, description.values ?? []);
  } else if (description.kind === 'ENUM') {
    type = types.once(name, `the remote enum ${name} of service ${via}`, () => new GraphQLEnumType({
      name,
      values: Object.fromEntries((description.values ?? []).map((v) => [v, { value: v }])),
    }));
  } else {
    const entityName = name.endsWith('Result') ? name.slice(0, -'Result'.length) : undefined;
    const owner =
      entityName && catalog.entities.has(entityName) && resultTypeName(entityName) === name
        ? `the page type of entity ${entityName}`
        : `the remote type ${name} of service ${via}`;
    type = types.once(name, owner, () => {
      if (owner.startsWith('the page type')) types.resultTypes.add(name);
      return new GraphQLObjectType<unknown, Run>({
        name,
        description: `${name} of service ${via}`,
        fields: () => remoteFields(types, catalog, description),
      });
    });
  }
  cache.set(name, type);
  return type;
}

function remoteFields(types: TypeRegistry, catalog: Catalog, description: TypeDescription): GraphQLFieldConfigMap<unknown, Run> {
  const fields: GraphQLFieldConfigMap<unknown, Run> = {};
  for (const field of description.fields ?? []) {
    // A field whose type the mounter cannot offer (an edge back into the mounter's own
    // entities) is left out rather than served half-working.
    // Names from the member become object keys: `__proto__` would replace the prototype (and
    // `__` names are reserved by GraphQL anyway).
    if (!isPlainName(field.name) || field.args?.some((a) => !isPlainName(a.name))) continue;
    const type = typeFromText(types, catalog, field.type) as GraphQLOutputType | undefined;
    if (!type) continue;
    const args: GraphQLFieldConfigArgumentMap = {};
    let complete = true;
    for (const arg of field.args ?? []) {
      const argType = typeFromText(types, catalog, arg.type) as GraphQLInputType | undefined;
      if (!argType) complete = false;
      else args[arg.name] = { type: argType };
    }
    if (complete) fields[field.name] = { type, args, resolve: byResponseKey };
  }
  return fields;
}

export function typeFromText(types: TypeRegistry, catalog: Catalog, text: string) {
  // graphql-js's wrapper types are generic; the text decides which kind this is.
  type AnyType = GraphQLOutputType & GraphQLInputType;
  const build = (node: TypeNode): AnyType | undefined => {
    if (node.kind === Kind.NON_NULL_TYPE) {
      const inner = build(node.type);
      return inner && (new GraphQLNonNull(getNullableType(inner) as GraphQLNullableType) as unknown as AnyType);
    }
    if (node.kind === Kind.LIST_TYPE) {
      const inner = build(node.type);
      return inner && (new GraphQLList(inner) as unknown as AnyType);
    }
    return remoteNamedType(types, catalog, node.name.value) as AnyType | undefined;
  };
  return build(parseType(text));
}
