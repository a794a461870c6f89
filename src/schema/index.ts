/** Schema checks: print, load (SDL, introspection JSON, URL) and diff with GraphQL Inspector. */
import { printSchema, type GraphQLSchema } from 'graphql';

export { loadSchema, SchemaSourceError, type LoadSchemaOptions } from './load.js';
export { schemaDiff, formatSchemaDiff } from './diff.js';
export type { ChangeLevel, SchemaChange, SchemaDiffResult, SchemaDiffOptions } from './diff.js';

/** The SDL of a schema or of a handler's schema (`ergraph schema print`). */
export const schemaSdl = (source: GraphQLSchema | { schema: GraphQLSchema }): string =>
  // Not `instanceof`: the schema may come from another copy of graphql.
  `${printSchema('getQueryType' in source ? source : source.schema)}\n`;
