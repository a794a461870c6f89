/**
 * What normalized client caches need to hold the v6 groups. A group object (`User` of type
 * `UserQuery`) has no id, so a cache keeps it under its parent: Apollo's `InMemoryCache` then
 * replaces it with each query's result unless its type merges (two queries of `User`, and the
 * first reads back null), and urql's Graphcache embeds it but warns unless its keys say it has
 * none. These give the configuration from the schema, every group at once, so a query added later
 * is covered too. Relay needs nothing (its store keeps an id-less object's fields by name under a
 * client id of its parent).
 */
import { getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { groupTypeName, type GroupSuffix } from './names.js';

/** A schema, or anything holding one (a `GraphQLHandler`). */
type SchemaSource = GraphQLSchema | { readonly schema: GraphQLSchema };

const schemaOf = (source: SchemaSource): GraphQLSchema => ('getQueryType' in source ? source : source.schema);

/** The group types under a root: its fields `X` whose type is `X<suffix>` (`User: UserQuery`). */
function groupTypes(root: GraphQLObjectType | null | undefined, suffix: GroupSuffix): string[] {
  if (!root) return [];
  return Object.values(root.getFields()).flatMap((field) => {
    const type = getNamedType(field.type);
    return isObjectType(type) && type.name === groupTypeName(field.name, suffix) ? [type.name] : [];
  });
}

/**
 * Apollo Client's type policies for the schema's query groups: `{ UserQuery: { merge: true }, … }`,
 * for `new InMemoryCache({ typePolicies: { ...apolloTypePolicies(handler), ...yours } })`.
 * (Apollo keeps no fields of `ROOT_MUTATION`, so mutation groups need none.)
 */
export function apolloTypePolicies(source: SchemaSource): Record<string, { merge: true }> {
  const schema = schemaOf(source);
  return Object.fromEntries(groupTypes(schema.getQueryType(), 'Query').map((type) => [type, { merge: true as const }]));
}

/**
 * urql Graphcache's keys for the schema's groups, queries' and mutations': `{ UserQuery: () => null, … }`
 * (embedded in their parent, as Graphcache does with objects without a key, without its warning),
 * for `cacheExchange({ keys: { ...graphcacheKeys(handler), ...yours } })`.
 */
export function graphcacheKeys(source: SchemaSource): Record<string, () => null> {
  const schema = schemaOf(source);
  const types = [...groupTypes(schema.getQueryType(), 'Query'), ...groupTypes(schema.getMutationType(), 'Mutation')];
  return Object.fromEntries(types.map((type) => [type, () => null]));
}
