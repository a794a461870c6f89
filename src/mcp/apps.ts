/** The apps an MCP server exposes: each a name, a description and a v6 GraphQL handler. */
import type { GraphQLSchema } from 'graphql';

export interface GraphQLExecutionError {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
}

/**
 * What the MCP tools need from a handler: `GraphQLHandler` from 'ergraph' fits, and so does
 * anything else serving the grouped v6 shape.
 */
export interface GraphQLAppHandler {
  readonly schema: GraphQLSchema;
  execute(
    query: string,
    options?: { context?: Record<string, unknown>; variables?: Record<string, unknown>; operationName?: string },
  ): Promise<{ data?: unknown; errors?: ReadonlyArray<GraphQLExecutionError> | null }>;
}

export interface McpApp {
  name: string;
  handler: GraphQLAppHandler;
  description?: string;
  /** Builds the context each `graphql_query` / `graphql_mutation` runs with. Defaults to `{}`. */
  context?: () => Record<string, unknown> | Promise<Record<string, unknown>>;
}
