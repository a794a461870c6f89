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
    options?: { context?: Record<string, unknown>; variables?: Record<string, unknown>; operationName?: string; signal?: AbortSignal },
  ): Promise<{ data?: unknown; errors?: ReadonlyArray<GraphQLExecutionError> | null }>;
}

/**
 * Where a tool call came from, for the context function. Over HTTP: the request's headers (an
 * `Authorization` to check) and URL. Over stdio the client spawned this process, and what it
 * passes a server — credentials included — is the environment it set: so `env`.
 */
export type McpRequest =
  | { transport: 'http'; headers: Headers; url: URL }
  | { transport: 'stdio'; env: Readonly<Record<string, string | undefined>> };

export interface McpApp {
  name: string;
  handler: GraphQLAppHandler;
  description?: string;
  /**
   * Builds the context each `graphql_query` / `graphql_mutation` runs with, from the request
   * (e.g. `request.transport === 'http' ? userOf(request.headers.get('authorization')) : ...`).
   * Defaults to `{}`. A throw refuses the call (the client gets `unauthorized` and no detail).
   */
  context?: (request: McpRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;
}
