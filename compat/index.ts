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
export { loadPersistedMapping, DEFAULT_PERSISTED_BYTES, DEFAULT_PERSISTED_ENTRIES } from './persisted.js';
export type {
  PersistedMapping,
  PersistedMappingEntry,
  PersistedQueries,
  PersistedQueryOptions,
  PersistedResolution,
  PersistedErrorCode,
} from './persisted.js';
export { buildFlatIndex, type FlatIndex, type FlatTarget, type OperationKind } from './flat-index.js';
export { toV5CamelCase, v5FieldName } from './naming.js';
export { memoryUsageStore } from './usage-store.js';
export type { UsageStore, UsageRow, UsageSnapshot, UsageTotal, TrackedCoordinate, MemoryUsageStoreOptions } from './usage-store.js';
export { DEFAULT_CATALOG_BYTES, DEFAULT_CATALOG_OPERATIONS, normalizedOperation } from './catalog.js';
export type { CatalogBounds, OperationRow, OperationQuery, PathMove, ShadowTally, V6Form } from './catalog.js';
export { DEFAULT_SHADOW_BUDGET_MS, DEFAULT_SHADOW_CONCURRENCY, DEFAULT_SHADOW_SAMPLE } from './shadow.js';
export type { ShadowOptions, ShadowRunner, ShadowStatus } from './shadow.js';
// The SQL store loads drizzle-orm on first use, so this entry imports without the optional peers.
export { sqlUsageStore, openUsageStore } from './usage-open.js';
export type { OpenUsageStoreOptions } from './usage-open.js';
export type { SqlUsageStoreOptions } from './usage-sql.js';
export { createUsageRecorder, OTHER, OTHER_CLIENTS } from './usage-recorder.js';
export type { UsageRecorder, UsageRecorderOptions, UsageRecorderStatus, FlushFailure } from './usage-recorder.js';
export { retirementReport } from './usage-report.js';
export { reportMarkdown, compatReport } from './report-markdown.js';
export { compatKit, kitMarkdown, migrationKit } from './kit.js';
export type { CompatKitOptions, KitOperation, MigrationKit, MigrationKitOptions, OperationVerdict } from './kit.js';
export type { ClientProof, FieldProof } from './usage-proof.js';
export type {
  RetirementReport,
  RetirementReportOptions,
  FieldReport,
  ClientReport,
  ClientUse,
  Verdict,
  VerdictStatus,
  Trend,
} from './usage-report.js';
export { reportPage } from './usage-page.js';
export { usageRoute } from './usage-route.js';
export { clientName, UNKNOWN_CLIENT } from './client-name.js';
export { sunsetGate, SunsetConfigError } from './sunset.js';
export type { SunsetOptions, SunsetGateOptions, BrownoutWindow } from './sunset.js';
import { registerV5Compat } from '../src/mcp/v5.js';
import { v5McpCompat } from './mcp.js';

// The extension point of `createMcpServer({ v5Compat: true })`: the v6 engine never imports
// compat, so compat announces itself when it is loaded.
registerV5Compat(v5McpCompat);

export { createV5McpAdapter, v5McpCompat } from './mcp.js';
export type { McpToolResult, V5ListEntry, V5McpAdaptation, V5McpAdapter } from './mcp.js';
export { compatApp, type CompatAppOptions } from './app.js';
export { unusedCoordinates } from './usage-report.js';
export type { CompatReportOptions } from './report-markdown.js';
export { v5SchemaSdl } from './flat-schema.js';
export { deprecatedCoordinates, deprecatedFields, countDeprecatedUse } from './usage-deprecated.js';
export type { CountDeprecatedUseOptions } from './usage-deprecated.js';
