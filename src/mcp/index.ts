/**
 * ergraph/mcp: MCP tools over the grouped GraphQL schema of one or more apps, served over stdio
 * or Streamable HTTP.
 */
export { createMcpServer } from './server.js';
export type { McpServerOptions } from './server.js';
export type { V5CompatOptions, ListFormat, V5Compat } from './v5.js';
export type { McpOperations, PersistedOperation, ApolloPersistedQueryManifest } from './operations.js';
export type { McpApp, McpRequest, GraphQLAppHandler, GraphQLExecutionError } from './apps.js';
export type { OperationEntry } from './catalog.js';
export type { ToolResult, ErrorType } from './result.js';
export { mcpApp } from './http.js';
export type { McpAppOptions } from './http.js';
export { originGuard, LOOPBACK_HOSTS, type OriginPolicy } from './origin.js';
export { serveStdio } from './stdio.js';
