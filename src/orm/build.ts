/**
 * `buildRelationship`: Drizzle tables and relations become ergraph entities whose
 * relationships load with one SQL statement per relationship per tree level, and whose list
 * relationships page per parent in SQL. With a `sessionFactory` every loader runs on the
 * database of the request it serves.
 */
import DataLoader from 'dataloader';
import { eq, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Entity, type ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import {
  Relationship,
  type FieldSelectingRelationship,
  type LoaderClass,
  type LoaderRef,
  type PageLoadFn,
  type PageRequest,
} from '../er/relationship.js';
import { buildObject } from '../resolver/loaders.js';
import type { SessionFactory } from './auto-query.js';
import { columnKey, primaryKeyColumn, tiebreakColumns } from './keys.js';
import { keyId, listsByKey, pagesByKey, rowsByKey, type Fields, type ListSource } from './queries.js';
import { orderProfiles, type OrderProfiles } from './profiles.js';
import { readSchema, type Edge, type EdgeKind } from './relations.js';
import { tableEntry, tableEntryOf, type TableEntry } from './table-model.js';
import { flipped, normalizeOrder, type NormalizedOrder, type OrderBy, type SqlDatabase } from './types.js';
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

/** A relationship built from SQL metadata; knows whether it can be paginated. */
export class SqlRelationship extends Relationship implements FieldSelectingRelationship {
  readonly kind: EdgeKind;
  /** `'<tableKey>.<relationName>'` of the Drizzle relation (or of the many-to-many declaration). */
  readonly relation: string;
  readonly ordered: boolean;

  readonly loaderFor: (fields: readonly string[]) => LoaderRef;
  /**
   * Lists: where the rows come from, and the orders pages can take (`orderBy` as `default`,
   * then the target's profiles by name). `ergraph doctor` checks each has an index.
   */
  readonly listSource?: ListSource;
  readonly pageOrders: ReadonlyMap<string, NormalizedOrder>;

  constructor(
    options: Omit<ConstructorParameters<typeof Relationship>[0], 'loader'> & {
      kind: EdgeKind;
      relation: string;
      ordered: boolean;
      /** The loader reading every column, and the loader reading a sorted field list (plus keys). */
      loaders: { all: LoaderRef; loaderFor(fields: readonly string[]): LoaderRef };
      listSource?: ListSource;
      pageOrders?: ReadonlyMap<string, NormalizedOrder>;
    },
  ) {
    const { kind, relation, ordered, loaders, listSource, pageOrders, ...rest } = options;
    super({ ...rest, loader: loaders.all });
    this.kind = kind;
    this.relation = relation;
    this.ordered = ordered;
    this.loaderFor = loaders.loaderFor;
    this.listSource = listSource;
    this.pageOrders = pageOrders ?? new Map();
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
      if (rel instanceof SqlRelationship) rel.assertPaginable(`${classLabel(entity.kls)}.${rel.name}`);
    }
  }
}

interface Resolved {
  entries: Map<PgTable, TableEntry & { kls: AnyModelClass }>;
  /** The database for a request context (`undefined` outside a request, e.g. a bare call). */
  session: (context: Record<string, unknown> | undefined) => SqlDatabase;
  /** Batch loaders must see the request context: build them as DataLoader subclasses. */
  perRequest: boolean;
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

type ContextBatch = (keys: readonly unknown[], context: Record<string, unknown> | undefined) => Promise<unknown[]>;

// Composite keys arrive as objects: cache them by value, as the pool does for function loaders.
const cacheKeyFn = (key: unknown) => (key !== null && typeof key === 'object' ? keyId(key) : key);

/**
 * The loader of one relationship. A batch function cannot see the request, so with a
 * `sessionFactory` it is a DataLoader subclass instead: the resolver's pool makes one instance
 * per request and fills its `_context`, which picks the database. One class per relationship
 * keeps relationships from sharing a DataLoader (and its cache) within a request.
 */
function loaderRef(ctx: Resolved, name: string, batch: ContextBatch): LoaderRef {
  if (!ctx.perRequest) return named((keys: readonly unknown[]) => batch(keys, undefined), name);
  const kls = class extends DataLoader<unknown, unknown> {
    // Initialised so it is an own field: the pool fills only declared fields.
    _context: Record<string, unknown> | undefined = undefined;
    constructor() {
      // The batch runs after construction, when `self` is set; `this` cannot be captured in super().
      let self: { _context: Record<string, unknown> | undefined } | undefined;
      super((keys) => batch(keys, self!._context), { cacheKeyFn });
      self = this;
    }
  };
  return named(kls, name) as LoaderClass;
}

/**
 * Loaders by field list, made on first use: one per distinct selection shape. The number of
 * shapes is bounded by the schema's selections, but a client can vary them, so the memo is
 * capped (a cleared memo only costs re-creating loader classes).
 */
function byFields(make: (fields: Fields) => LoaderRef): { all: LoaderRef; loaderFor(fields: readonly string[]): LoaderRef } {
  const all = make(undefined);
  const memo = new Map<string, LoaderRef>();
  return {
    all,
    loaderFor(fields) {
      const id = fields.join(',');
      let ref = memo.get(id);
      if (!ref) {
        if (memo.size >= MAX_FIELD_SHAPES) memo.clear();
        memo.set(id, (ref = make(new Set(fields))));
      }
      return ref;
    },
  };
}

const MAX_FIELD_SHAPES = 256;

function singleLoader(ctx: Resolved, edge: Edge) {
  const target = ctx.entries.get(edge.target)!;
  const make = instances(target);
  const key = columnKey(edge.target, edge.targetKey);
  const name = `${edge.id} (by ${getTableName(edge.target)}.${edge.targetKey.name})`;
  return byFields((fields) =>
    loaderRef(ctx, name, (keys, context) => {
      const db = ctx.session(context);
      return chunked(keys, async (chunk) => {
        const rows = await rowsByKey(db, edge.target, edge.targetKey, chunk, fields, name);
        return buildObject(rows, chunk.map(keyId), (row) => keyId(row[key])).map((row) => (row ? make(row) : null));
      });
    }),
  );
}

function listLoaders(
  ctx: Resolved,
  edge: Edge,
  source: ListSource,
  profiles: OrderProfiles | undefined,
): { loaders: ReturnType<typeof byFields>; pageLoader?: PageLoadFn } {
  const make = instances(ctx.entries.get(edge.target)!);
  const loaders = byFields((fields) =>
    loaderRef(ctx, edge.id, (keys, context) => {
      const db = ctx.session(context);
      return chunked(keys, async (chunk) => {
        const byKey = await listsByKey(db, source, chunk, fields, edge.id);
        return chunk.map((k) => (byKey.get(keyId(k)) ?? []).map(make));
      });
    }),
  );
  const base = source.order;
  if (!base) return { loaders };
  const name = `${edge.id} (page)`;
  // Page loaders are handed the request context by the pool, so they stay functions.
  const pageLoader: PageLoadFn = named(async (keys: readonly unknown[], page: PageRequest, context?: Record<string, unknown>) => {
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
    const db = ctx.session(context);
    const fields = page.fields && new Set(page.fields);
    return chunked(keys, (chunk) => pagesByKey(db, source, chunk, { ...page, order }, fields, name, make));
  }, name);
  return { loaders, pageLoader };
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
