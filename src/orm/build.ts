/**
 * `buildRelationship`: Drizzle tables and relations become ergraph entities whose
 * relationships load with one SQL statement per relationship per tree level, and whose list
 * relationships page per parent in SQL.
 */
import { eq, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Entity, type ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import { Relationship, type BatchLoadFn, type PageLoadFn, type PageRequest } from '../er/relationship.js';
import { buildList, buildObject } from '../resolver/loaders.js';
import { columnKey, primaryKeyColumn, tiebreakColumns } from './keys.js';
import { keyId, listsByKey, pagesByKey, rowsByKey, type ListSource } from './queries.js';
import { orderProfiles, type OrderProfiles } from './profiles.js';
import { readSchema, type Edge, type EdgeKind } from './relations.js';
import { tableEntry, tableEntryOf, type TableEntry } from './table-model.js';
import { flipped, normalizeOrder, type NormalizedOrder, type OrderBy, type SqlDatabase } from './types.js';

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
  db: SqlDatabase;
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

/** A relationship built from SQL metadata; knows whether it can be paginated. */
export class SqlRelationship extends Relationship {
  readonly kind: EdgeKind;
  /** `'<tableKey>.<relationName>'` of the Drizzle relation (or of the many-to-many declaration). */
  readonly relation: string;
  readonly ordered: boolean;

  constructor(options: ConstructorParameters<typeof Relationship>[0] & { kind: EdgeKind; relation: string; ordered: boolean }) {
    const { kind, relation, ordered, ...rest } = options;
    super(rest);
    this.kind = kind;
    this.relation = relation;
    this.ordered = ordered;
  }

  /**
   * Pages are only stable over a total order, so a list without `orderBy` cannot be paginated.
   * A handler with `enablePagination` calls this for every relationship at startup.
   */
  assertPaginable(where: string): void {
    if (this.ordered || this.kind === 'many-to-one' || this.kind === 'one-to-one') return;
    throw new ConfigError(
      `${where}: the ${this.kind} relation ${this.relation} has no orderBy, so it cannot be paginated; ` +
        `give buildRelationship an orderBy for '${this.relation}'`,
    );
  }
}

/** Throw `ConfigError` naming `Entity.relationship` for the first list relationship that cannot be paginated. */
export function assertPaginable(diagram: ErDiagram): void {
  for (const entity of diagram.entities) {
    for (const rel of entity.relationships) {
      if (rel instanceof SqlRelationship) rel.assertPaginable(`${entity.kls.name}.${rel.name}`);
    }
  }
}

interface Resolved {
  entries: Map<PgTable, TableEntry & { kls: AnyModelClass }>;
  db: SqlDatabase;
  defaultPageSize?: number;
  maxPageSize?: number;
}

function instances(target: TableEntry & { kls: AnyModelClass }) {
  const Kls = target.kls as unknown as new (data: object) => unknown;
  return (row: Record<string, unknown>) => new Kls(target.decode(row));
}

/** PostgreSQL takes at most 65,535 parameters per statement: a larger batch becomes several statements. */
export const MAX_KEYS_PER_STATEMENT = 30_000;

async function chunked<V>(keys: readonly unknown[], load: (chunk: readonly unknown[]) => Promise<V[]>): Promise<V[]> {
  if (keys.length <= MAX_KEYS_PER_STATEMENT) return load(keys);
  const out: V[] = [];
  for (let i = 0; i < keys.length; i += MAX_KEYS_PER_STATEMENT) {
    out.push(...(await load(keys.slice(i, i + MAX_KEYS_PER_STATEMENT))));
  }
  return out;
}

function named<F extends Function>(fn: F, name: string): F {
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
}

function singleLoader(ctx: Resolved, edge: Edge): BatchLoadFn {
  const target = ctx.entries.get(edge.target)!;
  const make = instances(target);
  const key = columnKey(edge.target, edge.targetKey);
  return named(
    (keys: readonly unknown[]) =>
      chunked(keys, async (chunk) => {
        const rows = await rowsByKey(ctx.db, edge.target, edge.targetKey, chunk);
        return buildObject(rows, chunk.map(keyId), (row) => keyId(row[key])).map((row) => (row ? make(row) : null));
      }),
    `${edge.id} (by ${getTableName(edge.target)}.${edge.targetKey.name})`,
  );
}

function listLoaders(
  ctx: Resolved,
  edge: Edge,
  source: ListSource,
  profiles: OrderProfiles | undefined,
): { loader: BatchLoadFn; pageLoader?: PageLoadFn } {
  const make = instances(ctx.entries.get(edge.target)!);
  const loader = named(
    (keys: readonly unknown[]) =>
      chunked(keys, async (chunk) => {
        const byKey = await listsByKey(ctx.db, source, chunk);
        return chunk.map((k) => (byKey.get(keyId(k)) ?? []).map(make));
      }),
    edge.id,
  );
  const base = source.order;
  if (!base) return { loader };
  const pageLoader: PageLoadFn = named(async (keys: readonly unknown[], page: PageRequest) => {
    let chosen = base;
    if (page.order !== undefined) {
      const profile = profiles?.orders.get(page.order);
      if (!profile) {
        const known = profiles ? [...profiles.orders.keys()].join(', ') : 'none';
        throw new RangeError(`${edge.id} has no order profile '${page.order}' (profiles: ${known})`);
      }
      chosen = profile;
    }
    checkPage(edge.id, page);
    const order = page.direction && page.direction.toLowerCase() !== chosen.direction ? flipped(chosen) : chosen;
    const pages = await chunked(keys, (chunk) => pagesByKey(ctx.db, source, chunk, { ...page, order }));
    return pages.map((p) => ({ ...p, items: p.items.map(make) }));
  }, `${edge.id} (page)`);
  return { loader, pageLoader };
}

function checkPage(where: string, page: PageRequest): void {
  for (const key of ['limit', 'offset'] as const) {
    const value = page[key];
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${where}: ${key} must be a non-negative integer, got ${String(value)}`);
    }
  }
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
    return new SqlRelationship({ ...common, target: targetKls, loader: singleLoader(ctx, edge) });
  }
  const source: ListSource = {
    target: edge.target,
    parentKey: edge.targetKey, // the FK on the target, or the join-table column for many-to-many
    order,
    primaryKey: tiebreakColumns(edge.target),
    through: edge.through && { table: edge.through.table, on: eq(edge.through.targetRef, edge.through.targetKey) },
  };
  return new SqlRelationship({ ...common, target: [targetKls] as const, ...listLoaders(ctx, edge, source, profiles) });
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
    if (!entry) throw new ConfigError(`${kls.name} is not a table model: declare it with tableModel(table)`);
    const other = entries.get(entry.table);
    if (other) {
      throw new ConfigError(`${kls.name} and ${other.kls.name} both stand for the table ${getTableName(entry.table)}`);
    }
    entries.set(entry.table, { ...entry, kls });
  }
  const { defaultPageSize = 20, maxPageSize = 100 } = options;
  if (!Number.isInteger(maxPageSize) || maxPageSize < 1 || !Number.isInteger(defaultPageSize) || defaultPageSize < 1 || defaultPageSize > maxPageSize) {
    throw new ConfigError(`buildRelationship: need 1 <= defaultPageSize (${defaultPageSize}) <= maxPageSize (${maxPageSize}), both integers`);
  }
  const ctx: Resolved = { entries, db: options.db, defaultPageSize, maxPageSize };
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
