/** `ergraph-migrate`: the programmatic API of the codemods behind its command line (the package's main export). */
export { ParseError, type ManualItem, type RequiredOption, type Transform, type TransformOptions, type TransformResult } from './types.js';
export { applyTransform, applyToFiles, type FileOutcome } from './apply.js';
export { transforms, findTransform, upgradePath, compareVersions, missingOptions, MissingOptionError } from './registry.js';
export { runMigration, type MigrationOptions, type MigrationReport, type FileReport } from './runner/run.js';
export { toJson, toMarkdown, unifiedDiffs, summaryLine } from './runner/report.js';
export { loadSchema } from './v5-to-v6/schema.js';
export { main, EXIT } from './cli.js';
