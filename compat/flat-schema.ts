/**
 * The v5 schema rebuilt from a v6 one: the same named types, with every grouped method lifted
 * back onto the root under its flat name. It is used to validate and introspect v5 documents;
 * execution still happens in the v6 engine.
 */
import {
  GraphQLObjectType,
  GraphQLSchema,
  isIntrospectionType,
  printSchema,
  type GraphQLArgumentConfig,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLNamedType,
} from 'graphql';
import { RootlessQuerySchema } from '../src/graphql/rootless.js';
import { defaultConfig } from '../src/graphql/versions.js';
import { CompatConfigError } from './errors.js';
import { buildFlatIndex, groupsOf, rootType, type FlatIndex, type FlatTarget, type OperationKind } from './flat-index.js';

export { CompatConfigError } from './errors.js';

export interface FlatSchema {
  schema: GraphQLSchema;
  /** Flat root field name → its v6 method, per operation kind. */
  targets: Record<OperationKind, ReadonlyMap<string, FlatTarget>>;
  index: FlatIndex;
}

function argsOf(target: FlatTarget): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const arg of target.field.args) {
    const config: GraphQLArgumentConfig = {
      type: arg.type,
      description: arg.description,
      ...defaultConfig(arg),
      deprecationReason: arg.deprecationReason,
      astNode: arg.astNode,
    };
    args[arg.name] = config;
  }
  return args;
}

function flatRoot(
  v6: GraphQLSchema,
  index: FlatIndex,
  operation: OperationKind,
): { type: GraphQLObjectType | undefined; targets: Map<string, FlatTarget> } {
  const targets = new Map<string, FlatTarget>();
  const root = rootType(v6, operation);
  if (!root) return { type: undefined, targets };
  const conflicts: string[] = [];
  for (const [flatName, list] of index[operation]) {
    if (list.length > 1) conflicts.push(`${flatName} ← ${list.map((t) => `${t.entity}.${t.method}`).join(', ')}`);
    else targets.set(flatName, list[0]!);
  }
  if (conflicts.length > 0) {
    throw new CompatConfigError(
      `the v6 ${operation} methods cannot be served under v5 flat names, several map to one name: ${conflicts.join('; ')}`,
    );
  }
  if (targets.size === 0) return { type: undefined, targets };
  const type = new GraphQLObjectType({
    name: root.name,
    description: root.description,
    fields: () => {
      const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {};
      const byMethod = new Map([...targets.values()].map((t) => [`${t.entity}.${t.method}`, t]));
      // Schema order (group by group, method by method) keeps introspection stable and matches
      // the order v5 generated its root fields in.
      for (const { entity, groupType } of groupsOf(v6, operation)) {
        for (const method of Object.keys(groupType.getFields())) {
          const t = byMethod.get(`${entity}.${method}`);
          if (!t) continue;
          // Not marked deprecated: v5 introspection reported these as live fields, and clients
          // listing `fields` without `includeDeprecated` would lose them.
          fields[t.flatName] = { type: t.field.type, description: t.field.description, args: argsOf(t) };
        }
      }
      return fields;
    },
  });
  return { type, targets };
}

/** Build the v5 flat schema served over a v6 schema. Throws `CompatConfigError` on name clashes. */
export function buildFlatSchema(v6: GraphQLSchema): FlatSchema {
  const index = buildFlatIndex(v6);
  const query = flatRoot(v6, index, 'query');
  const mutation = flatRoot(v6, index, 'mutation');
  const skip = new Set<GraphQLNamedType>();
  for (const op of ['query', 'mutation'] as const) {
    const root = rootType(v6, op);
    if (root) skip.add(root);
    for (const { groupType } of groupsOf(v6, op)) skip.add(groupType);
  }
  const types = Object.values(v6.getTypeMap()).filter((t) => !skip.has(t) && !isIntrospectionType(t));
  const config = { description: v6.description, mutation: mutation.type, types, directives: v6.getDirectives() };
  // No query methods: no Query type, as in v6 (spec 4.2 item 5). A plain GraphQLSchema would then
  // refuse every query operation, introspection and `{ __typename }` included, so the flat schema
  // is rootless the way v6's is: introspection still runs and reports `queryType: null`. The
  // types come from the v6 schema, which passed validation when it was built.
  const schema = query.type ? new GraphQLSchema({ ...config, query: query.type }) : new RootlessQuerySchema(config);
  return { schema, targets: { query: query.targets, mutation: mutation.targets }, index };
}

/** The SDL of the v5 flat schema served over a v6 handler (`ergraph schema print --v5`). */
export const v5SchemaSdl = (v6: { schema: GraphQLSchema }): string => `${printSchema(buildFlatSchema(v6.schema).schema)}\n`;
