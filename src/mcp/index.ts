/**
 * ergraph/mcp: MCP tools over the grouped GraphQL schema of one or more apps, served over stdio
 * or Streamable HTTP.
 */
export { createMcpServer } from './server.js';
export type { McpServerOptions } from './server.js';
export type { V5CompatOptions, ListFormat } from './v5.js';
export type { McpApp, GraphQLAppHandler, GraphQLExecutionError } from './apps.js';
export type { OperationEntry } from './catalog.js';
export type { ToolResult, ErrorType } from './result.js';
export { mcpApp } from './http.js';
export type { McpAppOptions } from './http.js';
export { serveStdio } from './stdio.js';
