/**
 * Assembling the v6 schema from a diagram. Every piece is a function of (diagram, options,
 * contributions), so a handler can rebuild with extra contributions (federation adds remote
 * fields and `by_<key>_in` roots this way).
 */
import {
  GraphQLObjectType,
  GraphQLSchema,
  printSchema,
  validateSchema,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLSchemaConfig,
} from 'graphql';
import type { ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import { groupFields, type GroupFieldsContribution, type GroupInfo } from './operations.js';
import { objectTypeFor } from './output.js';
import { TypeRegistry, type ObjectFieldsContribution, type SchemaOptions } from './registry.js';
import { relationshipFields } from './relationships.js';
import { MISSING_QUERY_MESSAGE, RootlessQuerySchema } from './rootless.js';
import type { Run } from './run.js';

/** What an extension adds to the schema. */
export interface SchemaContribution {
  /** Extra fields on model / entity object types. */
  objectFields?: ObjectFieldsContribution;
  /** Extra root fields (not groups: validation leaves them to graphql-js). */
  queryFields?: (types: TypeRegistry) => GraphQLFieldConfigMap<unknown, Run>;
  mutationFields?: (types: TypeRegistry) => GraphQLFieldConfigMap<unknown, Run>;
  /**
   * Extra methods inside an entity's `<Entity>Query` / `<Entity>Mutation` group (federation's
   * `by_<key>_in` roots live there); a group is created for them when the entity has none.
   */
  groupFields?: GroupFieldsContribution;
  /** Extra named types to include even when nothing references them. */
  types?: (types: TypeRegistry) => GraphQLNamedType[];
}

export interface BuiltSchema {
  schema: GraphQLSchema;
  /** Root field name → group, per operation kind. */
  groups: { query: ReadonlyMap<string, GroupInfo>; mutation: ReadonlyMap<string, GroupInfo> };
  /** Page wrapper type names (they are not tree levels). */
  resultTypes: ReadonlySet<string>;
}

export function buildExecutableSchema(
  diagram: ErDiagram,
  options: SchemaOptions = {},
  contributions: readonly SchemaContribution[] = [],
): BuiltSchema {
  const types = new TypeRegistry(diagram, { enablePagination: options.enablePagination ?? false }, [
    relationshipFields,
    ...contributions.flatMap((c) => (c.objectFields ? [c.objectFields] : [])),
  ]);
  const entityTypes = [...diagram.entityInfos().values()].map((entity) => objectTypeFor(types, entity.kls));
  const grouped = contributions.flatMap((c) => (c.groupFields ? [c.groupFields] : []));
  const query = rootType(types, 'query', contributions.map((c) => c.queryFields), grouped);
  const mutation = rootType(types, 'mutation', contributions.map((c) => c.mutationFields), grouped);
  const extra = contributions.flatMap((c) => c.types?.(types) ?? []);
  const schema = finalize({ query: query.type, mutation: mutation.type, types: [...entityTypes, ...extra] });
  return { schema, groups: { query: query.groups, mutation: mutation.groups }, resultTypes: types.resultTypes };
}

function rootType(
  types: TypeRegistry,
  kind: 'query' | 'mutation',
  extra: readonly (((types: TypeRegistry) => GraphQLFieldConfigMap<unknown, Run>) | undefined)[],
  grouped: readonly GroupFieldsContribution[],
) {
  const { fields, groups } = groupFields(types, kind, grouped);
  for (const contribute of extra) {
    for (const [name, field] of Object.entries(contribute?.(types) ?? {})) {
      if (name in fields) throw new ConfigError(`Root ${kind} field ${name} is declared twice`);
      fields[name] = field;
    }
  }
  const name = kind === 'query' ? 'Query' : 'Mutation';
  if (!Object.keys(fields).length) return { type: undefined, groups };
  types.claim(name, `the root ${kind} type`);
  return { type: new GraphQLObjectType<unknown, Run>({ name, fields }), groups };
}

/** Build and validate once; every problem becomes a ConfigError at construction, never at request time. */
function finalize(config: GraphQLSchemaConfig): GraphQLSchema {
  const schema = new GraphQLSchema(config);
  const errors = validateSchema(schema).filter((e) => !(config.query === undefined && e.message === MISSING_QUERY_MESSAGE));
  if (errors.length) {
    throw new ConfigError(`The generated GraphQL schema is invalid:\n${errors.map((e) => `  - ${e.message}`).join('\n')}`);
  }
  return config.query ? schema : new RootlessQuerySchema(config);
}

/** `new SchemaBuilder(diagram, { enablePagination }).buildSchema()` → the schema as SDL. */
export class SchemaBuilder {
  constructor(
    readonly diagram: ErDiagram,
    readonly options: SchemaOptions = {},
  ) {}

  buildGraphQLSchema(): GraphQLSchema {
    return buildExecutableSchema(this.diagram, this.options).schema;
  }

  buildSchema(): string {
    return printSchema(this.buildGraphQLSchema());
  }
}
