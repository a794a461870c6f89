/**
 * The v6 schema some transforms need (v5-to-v6), as runner options: loaded by the v5-to-v6
 * transform's `loadSchema` (it owns the `--schema` formats and their errors), and carried to
 * worker threads as SDL.
 */
import { buildSchema, GraphQLSchema, printSchema } from 'graphql';

// Kept as the runner's entry point (ergraph/migrate re-exports it from here).
export { loadSchema } from '../v5-to-v6/schema.js';

/** Transform options cross to worker threads by structured clone, which a schema does not survive. */
export function cloneableOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schema, ...rest } = options;
  return schema instanceof GraphQLSchema ? { ...rest, schemaSdl: printSchema(schema) } : options;
}

export function revivedOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schemaSdl, ...rest } = options;
  return typeof schemaSdl === 'string' ? { ...rest, schema: buildSchema(schemaSdl) } : options;
}
