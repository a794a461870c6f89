/**
 * Root queries generated for every table-backed entity, and the hook a handler calls with its
 * federation-capable options. The core never imports this module: the handler only knows the
 * `DiagramExtension` shape, so `ergraph` stays usable without Drizzle installed.
 */
import type { PgTable } from 'drizzle-orm/pg-core';
import { asc, eq, getTableColumns, getTableName, is, pgCore } from './drizzle.js';
import { z } from 'zod';
import { Entity, ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { AnyModelClass } from '../er/model.js';
import { QueryConfig } from '../er/operations.js';
import { ref } from '../er/schema.js';
import { columnKey, primaryKeyColumns, tiebreakColumns } from './keys.js';
import { columnSchema, tableEntryOf, type TableEntry } from './table-model.js';
import { traced } from './trace.js';
import type { SqlDatabase } from './types.js';
import { cancellable } from './cancel.js';
import type { LoaderInfo } from '../er/relationship.js';
import { className } from '../er/names.js';

/** Returns the database a request runs on; receives the request context. */
export type SessionFactory = (context?: Record<string, unknown>) => SqlDatabase;

/** What a handler passes to `autoQueryConfig.extend(...)`. */
export interface ExtendOptions {
  /** The Drizzle schema module; only entities whose table is in it get generated queries. */
  base?: Record<string, unknown>;
  sessionFactory?: SessionFactory;
  serviceName?: string;
}

/** The protocol between a handler and a diagram extension (`AutoQueryConfig` implements it). */
export interface DiagramExtension {
  extend(diagram: ErDiagram, options: ExtendOptions): ErDiagram;
}

export interface AutoQueryOptions {
  /** `limit` of `getAll` when the client omits it. */
  defaultLimit?: number;
  /** The largest `limit` `getAll` accepts; larger values are a validation error, not a slow query. */
  maxLimit?: number;
  generateById?: boolean;
  generateGetAll?: boolean;
}

export class AutoQueryConfig implements DiagramExtension {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly generateById: boolean;
  readonly generateGetAll: boolean;

  constructor(options: AutoQueryOptions = {}) {
    this.defaultLimit = options.defaultLimit ?? 20;
    this.maxLimit = options.maxLimit ?? 1000;
    this.generateById = options.generateById ?? true;
    this.generateGetAll = options.generateGetAll ?? true;
    if (this.defaultLimit < 0 || this.defaultLimit > this.maxLimit) {
      throw new ConfigError(`AutoQueryConfig: defaultLimit ${this.defaultLimit} is outside 0..${this.maxLimit}`);
    }
  }

  /**
   * A new diagram whose table-backed entities also have `getAll(limit, offset)` and `byId(id)`.
   * Operations an entity already declares under those names win.
   */
  extend(diagram: ErDiagram, options: ExtendOptions): ErDiagram {
    const { sessionFactory, base } = options;
    if (!sessionFactory) throw new ConfigError('autoQueryConfig needs sessionFactory: (context) => drizzle database');
    const tables = base ? new Set(Object.values(base).filter((v): v is PgTable => is(v, pgCore().PgTable))) : undefined;
    const entities = diagram.entities.map((entity) => {
      const entry = tableEntryOf(entity.kls);
      if (!entry || (tables && !tables.has(entry.table))) return entity;
      const taken = new Set(diagram.entityOf(entity.kls)?.queries.map((q) => q.name) ?? []);
      const generated = this.queriesFor(entity.kls, entry, sessionFactory).filter((q) => !taken.has(q.operation.name));
      return new Entity({
        kls: entity.kls,
        relationships: entity.relationships,
        queries: [...entity.queries, ...generated],
        mutations: entity.mutations,
        module: entity.module,
      });
    });
    return new ErDiagram({ entities });
  }

  private queriesFor(kls: AnyModelClass, entry: TableEntry, session: SessionFactory): QueryConfig[] {
    const { table, decode } = entry;
    const order = tiebreakColumns(table);
    const keyColumns = primaryKeyColumns(table);
    const pk = keyColumns.length === 1 ? keyColumns[0] : undefined;
    const orderNames = order.map((c) => columnKey(table, c)).join(', ');
    const Kls = kls as unknown as new (data: object) => unknown;
    const queries: QueryConfig[] = [];
    if (this.generateGetAll) {
      queries.push(
        new QueryConfig({
          name: 'getAll',
          description: `${className(kls, 'entity')} rows ordered by ${orderNames}`,
          args: {
            limit: z.int().min(0).max(this.maxLimit).default(this.defaultLimit),
            offset: z.int().min(0).default(0),
          },
          returns: () => [kls],
          method: async ({ limit, offset }: { limit: number; offset: number }, context?: Record<string, unknown>, info?: LoaderInfo) => {
            // The run's signal (third argument): a cancelled run cancels this statement on the server.
            const rows = await cancellable(session(context), info && (() => info.signal), (db) => {
              const query = db.select().from(table).orderBy(...order.map((c) => asc(c))).limit(limit).offset(offset);
              return traced(getTableName(table), undefined, () => query.toSQL().sql, () => query);
            });
            return rows.map((row) => new Kls(decode(row)));
          },
        }),
      );
    }
    // byId needs one key column; a join table (composite key) only gets getAll.
    if (this.generateById && pk) {
      const pkKey = columnKey(table, pk);
      const idSchema = columnSchema(table, pkKey, getTableColumns(table)[pkKey]!);
      queries.push(
        new QueryConfig({
          name: 'byId',
          description: `The ${className(kls, 'entity')} with this ${pkKey}, or null`,
          args: { id: idSchema },
          returns: () => z.nullable(refOf(kls)),
          method: async ({ id }: { id: unknown }, context?: Record<string, unknown>, info?: LoaderInfo) => {
            const [row] = await cancellable(session(context), info && (() => info.signal), (db) => {
              const query = db.select().from(table).where(eq(pk, id)).limit(1);
              return traced(getTableName(table), undefined, () => query.toSQL().sql, () => query);
            });
            return row ? new Kls(decode(row)) : null;
          },
        }),
      );
    }
    return queries;
  }
}

const refOf = (kls: AnyModelClass) => ref(() => kls);
