/**
 * `buildRelationship`: Drizzle tables and relations become ergraph entities whose
 * relationships load with one SQL statement per relationship per tree level, and whose list
 * relationships page per parent in SQL. With a `sessionFactory` every loader runs on the
 * database of the request it serves. Its relationships are sql-relationship.ts, their loaders
 * loaders.ts.
 */
import { eq, getTableName } from './drizzle.js';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Entity } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import type { Relationship } from '../er/relationship.js';
import type { SessionFactory } from './auto-query.js';
import { columnKey, primaryKeyColumn, tiebreakColumns } from './keys.js';
import { listLoaders, singleLoader, type Resolved } from './loaders.js';
import type { ListSource } from './queries.js';
import { orderProfiles } from './profiles.js';
import { readSchema, type Edge } from './relations.js';
import { SqlRelationship } from './sql-relationship.js';
import { tableEntry, tableEntryOf } from './table-model.js';
import { normalizeOrder, type NormalizedOrder, type OrderBy, type SqlDatabase } from './types.js';
import { classLabel } from '../er/names.js';

/** A many-to-many relationship through a join table (Drizzle relations cannot express one). */
export interface ManyToMany {
  /** The table whose entity gets the relationship. */
  source: PgTable;
  /** The relationship (and GraphQL field) name. */
  name: string;
  target: PgTable;
  /** The join table. */
  through: PgTable;
  /** Join-table column holding the source's primary key. */
  sourceKey: PgColumn;
  /** Join-table column holding the target's primary key. */
  targetKey: PgColumn;
  orderBy?: OrderBy;
  description?: string;
}

export interface BuildRelationshipOptions<S extends Record<string, unknown>> {
  /** The database every loader runs on; may be left out when `sessionFactory` is given. */
  db?: SqlDatabase;
  /**
   * The database of one request, from its context: loaders then run on the request's
   * transaction, tenant schema or connection, like the generated root queries do. Without
   * it every loader uses `db`.
   */
  sessionFactory?: SessionFactory;
  /** The schema module: tables and their Drizzle `relations(...)`. */
  schema: S;
  /**
   * The entity classes (`tableModel(table)` or classes extending one). Tables without a class
   * here are not entities, and relations to them are left out. Default: every table of the
   * schema, each with its `tableModel`.
   */
  models?: readonly AnyModelClass[];
  /** Order of list relations, by `'<tableKey>.<relationName>'`; pagination requires one. */
  orderBy?: { readonly [relation: string]: OrderBy };
  manyToMany?: readonly ManyToMany[];
  defaultPageSize?: number;
  maxPageSize?: number;
}

function orderFor(options: BuildRelationshipOptions<Record<string, unknown>>, id: string, spec?: OrderBy): NormalizedOrder | undefined {
  const order = spec ?? options.orderBy?.[id];
  return order ? normalizeOrder(order) : undefined;
}

function relationshipFor(
  ctx: Resolved,
  edge: Edge,
  explicit: NormalizedOrder | undefined,
  description?: string,
): SqlRelationship {
  const targetKls = ctx.entries.get(edge.target)!.kls;
  const list = edge.kind === 'one-to-many' || edge.kind === 'many-to-many';
  const profiles = list ? orderProfiles(targetKls, edge.target) : undefined;
  // An explicit orderBy wins; otherwise the target's published default profile orders the list.
  const order = explicit ?? (profiles && profiles.orders.get(profiles.defaultOrder));
  const common = {
    kind: edge.kind,
    relation: edge.id,
    name: edge.name,
    fk: columnKey(edge.source, edge.sourceKey),
    ordered: order !== undefined,
    defaultPageSize: ctx.defaultPageSize,
    maxPageSize: ctx.maxPageSize,
    description,
  };
  if (edge.kind === 'many-to-one' || edge.kind === 'one-to-one') {
    return new SqlRelationship({ ...common, target: targetKls, loaders: singleLoader(ctx, edge) });
  }
  const source: ListSource = {
    target: edge.target,
    parentKey: edge.targetKey, // the FK on the target, or the join-table column for many-to-many
    order,
    primaryKey: tiebreakColumns(edge.target),
    through: edge.through && { table: edge.through.table, on: eq(edge.through.targetRef, edge.through.targetKey) },
  };
  const pageOrders = new Map<string, NormalizedOrder>();
  if (explicit) pageOrders.set('default', explicit);
  for (const [name, profile] of profiles?.orders ?? []) pageOrders.set(name, profile);
  return new SqlRelationship({ ...common, target: [targetKls] as const, ...listLoaders(ctx, edge, source, profiles), listSource: source, pageOrders });
}

function manyToManyEdge(m: ManyToMany, keyOf: Map<PgTable, string>): Edge {
  const id = `${keyOf.get(m.source) ?? getTableName(m.source)}.${m.name}`;
  return {
    kind: 'many-to-many',
    id,
    name: m.name,
    source: m.source,
    target: m.target,
    sourceKey: primaryKeyColumn(m.source, `the many-to-many ${id}`),
    targetKey: m.sourceKey,
    through: {
      table: m.through,
      targetKey: m.targetKey,
      targetRef: primaryKeyColumn(m.target, `the many-to-many ${id}`),
    },
  };
}

/**
 * Entities for the tables of a Drizzle schema, with one relationship per Drizzle relation (and
 * per `manyToMany` entry). Relationships a model class declares itself in `__relationships__`
 * are kept after the derived ones.
 */
export function buildRelationship<S extends Record<string, unknown>>(options: BuildRelationshipOptions<S>): Entity[] {
  const { keyOf, tables, edges } = readSchema(options.schema);
  const entries: Resolved['entries'] = new Map();
  const classes = options.models ?? tables.map((t) => tableEntry(t).model);
  for (const kls of classes) {
    const entry = tableEntryOf(kls);
    if (!entry) throw new ConfigError(`${classLabel(kls)} is not a table model: declare it with tableModel(table)`);
    const other = entries.get(entry.table);
    if (other) {
      throw new ConfigError(`${classLabel(kls)} and ${classLabel(other.kls)} both stand for the table ${getTableName(entry.table)}`);
    }
    entries.set(entry.table, { ...entry, kls });
  }
  const { defaultPageSize = 20, maxPageSize = 100 } = options;
  if (!Number.isInteger(maxPageSize) || maxPageSize < 1 || !Number.isInteger(defaultPageSize) || defaultPageSize < 1 || defaultPageSize > maxPageSize) {
    throw new ConfigError(`buildRelationship: need 1 <= defaultPageSize (${defaultPageSize}) <= maxPageSize (${maxPageSize}), both integers`);
  }
  const { db, sessionFactory } = options;
  if (!db && !sessionFactory) throw new ConfigError('buildRelationship needs db (a Drizzle database) or sessionFactory: (context) => database');
  const session: Resolved['session'] = sessionFactory
    ? (context) => {
        const chosen = sessionFactory(context);
        if (!chosen) throw new ConfigError('buildRelationship: sessionFactory returned no database for this request');
        return chosen;
      }
    : () => db!;
  const ctx: Resolved = { entries, session, perRequest: sessionFactory !== undefined, defaultPageSize, maxPageSize };
  const relationships = new Map<PgTable, SqlRelationship[]>();
  const add = (edge: Edge, spec?: OrderBy, description?: string) => {
    if (!entries.has(edge.source) || !entries.has(edge.target)) return;
    const order = orderFor(options as BuildRelationshipOptions<Record<string, unknown>>, edge.id, spec);
    if (order && (edge.kind === 'many-to-one' || edge.kind === 'one-to-one')) {
      throw new ConfigError(`orderBy '${edge.id}': a ${edge.kind} relation holds one row and takes no order`);
    }
    const list = relationships.get(edge.source) ?? [];
    list.push(relationshipFor(ctx, edge, order, description));
    relationships.set(edge.source, list);
  };
  const known = new Set(edges.map((e) => e.id));
  for (const edge of edges) add(edge);
  for (const m of options.manyToMany ?? []) {
    const edge = manyToManyEdge(m, keyOf);
    if (known.has(edge.id)) throw new ConfigError(`Relation ${edge.id} is declared twice (Drizzle relation and manyToMany)`);
    known.add(edge.id);
    add(edge, m.orderBy, m.description);
  }
  for (const id of Object.keys(options.orderBy ?? {})) {
    if (!known.has(id)) throw new ConfigError(`orderBy names '${id}', which is not a relation of the schema (use '<tableKey>.<relationName>')`);
  }
  return [...entries.values()].map(
    ({ table, kls }) =>
      new Entity({
        kls,
        relationships: [
          ...(relationships.get(table) ?? []),
          ...((kls as { __relationships__?: Relationship[] }).__relationships__ ?? []),
        ],
      }),
  );
}
