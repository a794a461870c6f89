/** `ergraph/compat`: the v5 flat GraphQL surface served over the v6 engine, while clients migrate. */
export { createCompatHandler } from './handler.js';
export type {
  CompatHandler,
  CompatHandlerOptions,
  Deprecation,
  ExecuteOptions,
  ExecutionResponse,
  V6Handler,
} from './handler.js';
export { CompatConfigError, buildFlatSchema, type FlatSchema } from './flat-schema.js';
export { buildFlatIndex, type FlatIndex, type FlatTarget, type OperationKind } from './flat-index.js';
export { toV5CamelCase, v5FieldName } from './naming.js';
export type { FieldUsage, UsageReport } from './usage.js';
export { createV5McpAdapter } from './mcp.js';
export type { McpToolResult, V5ListEntry, V5McpAdaptation, V5McpAdapter } from './mcp.js';
export { compatApp, type CompatAppOptions } from './app.js';
