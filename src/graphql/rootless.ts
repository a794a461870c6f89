/**
 * A schema without a `Query` type (spec 4.2.5: no query methods → no `Query` type, and
 * introspection reports `queryType: null`).
 *
 * graphql-js 16 can construct such a schema, but `validateSchema` reports "Query root type
 * must be provided." and `execute` refuses query operations — introspection included. So the
 * schema is validated once at build time with that one message tolerated, then marked valid
 * (`assumeValid`), and query operations run against a hidden root that offers only the
 * introspection fields. `getQueryType()` stays undefined, which is what introspection reports;
 * graphql-js 16 declares `__Schema.queryType` non-null, so that root's `__schema` uses a copy
 * of `__Schema` where it is nullable.
 */
import {
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  OperationTypeNode,
  __Schema,
  __Type,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type GraphQLSchemaConfig,
} from 'graphql';
import { metaFieldsOnRoot } from './versions.js';

export const MISSING_QUERY_MESSAGE = 'Query root type must be provided.';

const nullableQuerySchemaType = new GraphQLObjectType({
  name: __Schema.name,
  description: __Schema.description,
  fields: () =>
    Object.fromEntries(
      Object.values(__Schema.getFields()).map((field) => [
        field.name,
        { type: field.name === 'queryType' ? __Type : field.type, description: field.description, resolve: field.resolve },
      ]),
    ),
});

export class RootlessQuerySchema extends GraphQLSchema {
  private readonly introspectionRoot = new GraphQLObjectType({
    name: 'Query',
    fields: {
      [SchemaMetaFieldDef.name]: { type: new GraphQLNonNull(nullableQuerySchemaType), description: SchemaMetaFieldDef.description, resolve: SchemaMetaFieldDef.resolve },
      [TypeMetaFieldDef.name]: {
        type: TypeMetaFieldDef.type,
        description: TypeMetaFieldDef.description,
        args: { name: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: TypeMetaFieldDef.resolve,
      },
    },
  });

  /** `config` must already have passed `validateSchema` apart from the missing query type. */
  constructor(config: Omit<GraphQLSchemaConfig, 'query' | 'assumeValid'>) {
    super({ ...config, assumeValid: true });
    metaFieldsOnRoot(this, this.introspectionRoot);
  }

  override getRootType(operation: OperationTypeNode): GraphQLObjectType | null | undefined {
    return operation === OperationTypeNode.QUERY ? this.introspectionRoot : super.getRootType(operation);
  }
}
