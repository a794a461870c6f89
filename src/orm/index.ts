/**
 * `ergraph/orm`: the Drizzle integration. Models from tables, relationships from relations,
 * batch loaders and per-parent SQL pagination, and generated root queries.
 */
import { drizzle } from './drizzle.js';

// Everything here works on Drizzle tables: without drizzle-orm (an optional peer) the import
// itself says so in one line, rather than the first call.
drizzle('ergraph/orm');

export { tableModel, tableOf, columnSchema } from './table-model.js';
export type { TableShape } from './table-model.js';
export { buildRelationship } from './build.js';
export { assertPaginable, SqlRelationship } from './sql-relationship.js';
export type { BuildRelationshipOptions, ManyToMany } from './build.js';
export { AutoQueryConfig } from './auto-query.js';
export type { AutoQueryOptions, DiagramExtension, ExtendOptions, SessionFactory } from './auto-query.js';
export type { SqlDatabase, OrderBy, SqlDirection } from './types.js';
export type { EdgeKind } from './relations.js';
