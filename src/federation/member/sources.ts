/**
 * Where a member reads entities by federation key. Table-backed entities (`tableModel`) query
 * SQL: `WHERE key IN (...)`, and for pages the same per-key LATERAL statement as local
 * relationship pages (src/orm/queries.ts; count only when asked), reading only the fields the
 * selection needs. Other entities use the loader the member registers with
 * `buildFederableApp(handler, { keyLoaders })`; their pages are cut in memory.
 */
import { compareBy } from '../../graphql/orders.js';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ConfigError } from '../../er/errors.js';
import { toModel, type AnyModelClass } from '../../er/model.js';
import type { Page } from '../../er/relationship.js';
import { getTableColumns } from '../../orm/drizzle.js';
import { primaryKeyColumn } from '../../orm/keys.js';
import { keyId, pagesByKey, rowsByKey } from '../../orm/queries.js';
import { tableEntryOf } from '../../orm/table-model.js';
import type { SqlDatabase } from '../../orm/types.js';
import type { OrderTerm } from '../../er/orders.js';
import { classLabel } from '../../er/names.js';

/** Rows of an entity whose `key` is one of `values` (any order; instances or plain objects). */
export type KeyLoader = (key: string, values: readonly unknown[], context: Record<string, unknown>) => Promise<readonly object[]>;

export interface PageAsk {
  limit: number;
  offset: number;
  withTotal: boolean;
  /** Absent: the primary key order (ORM) or the loader's order (others). */
  term?: OrderTerm;
}

/** `fields`: the entity fields the caller reads (sorted); absent: all. Sources may return more. */
export interface KeySource {
  /** Every match, as model instances. */
  byKey(key: string, values: readonly unknown[], context: Record<string, unknown>, fields?: readonly string[]): Promise<unknown[]>;
  /** One page per value, in value order. */
  pagesByKey(
    key: string,
    values: readonly unknown[],
    page: PageAsk,
    context: Record<string, unknown>,
    fields?: readonly string[],
  ): Promise<Page[]>;
}

export type SessionFactory = (context?: Record<string, unknown>) => unknown;

export function keySourceFor(kls: AnyModelClass, session: SessionFactory | undefined, loader: KeyLoader | undefined): KeySource {
  if (loader) return loaderSource(kls, loader);
  const entry = tableEntryOf(kls);
  if (entry && session) return sqlSource(kls, entry.table, entry.decode, session);
  throw new ConfigError(
    `${classLabel(kls)} declares __federation_keys__ but is neither a tableModel entity of a handler with sessionFactory ` +
      `nor given a loader: pass buildFederableApp(handler, { keyLoaders: { ${classLabel(kls)}: (key, values, context) => rows } })`,
  );
}

function sqlSource(
  kls: AnyModelClass,
  table: PgTable,
  decode: (row: Record<string, unknown>) => Record<string, unknown>,
  session: SessionFactory,
): KeySource {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const column = (key: string) => {
    const c = columns[key];
    if (!c) throw new ConfigError(`${classLabel(kls)}: federation key '${key}' is not a column of its table`);
    return c;
  };
  const make = (row: Record<string, unknown>) => toModel(kls, decode(row));
  return {
    async byKey(key, values, context, fields) {
      if (!values.length) return [];
      const rows = await rowsByKey(session(context) as SqlDatabase, table, column(key), values, fields && new Set(fields), `${classLabel(kls)}.by_${key}_in`);
      return rows.map(make);
    },
    async pagesByKey(key, values, page, context, fields) {
      if (!values.length) return [];
      const term = page.term;
      const order = term && {
        column: column(term.column),
        direction: term.direction === 'ASC' ? ('asc' as const) : ('desc' as const),
        nulls: term.nullsPlacement() === 'FIRST' ? ('first' as const) : ('last' as const),
      };
      const source = { target: table, parentKey: column(key), order, primaryKey: primaryKeyColumn(table, `paging ${classLabel(kls)}`) };
      const pages = await pagesByKey(
        session(context) as SqlDatabase,
        source,
        values,
        { limit: page.limit, offset: page.offset, withTotal: page.withTotal },
        fields && new Set(fields),
        `${classLabel(kls)}.page_by_${key}_in`,
        make,
      );
      return pages;
    },
  };
}

function loaderSource(kls: AnyModelClass, loader: KeyLoader): KeySource {
  const load = async (key: string, values: readonly unknown[], context: Record<string, unknown>) => {
    const rows = await loader(key, values, context);
    if (!Array.isArray(rows)) throw new ConfigError(`The key loader of ${classLabel(kls)} must return an array of rows, got ${typeof rows}`);
    return rows.map((row) => toModel(kls, row));
  };
  return {
    byKey: (key, values, context) => (values.length ? load(key, values, context) : Promise.resolve([])),
    async pagesByKey(key, values, page, context) {
      const rows = values.length ? await load(key, values, context) : [];
      const byKey = new Map<string, unknown[]>();
      for (const row of rows) {
        const id = keyId((row as Record<string, unknown>)[key]);
        const list = byKey.get(id);
        if (list) list.push(row);
        else byKey.set(id, [row]);
      }
      return values.map((value) => {
        const all = [...(byKey.get(keyId(value)) ?? [])];
        // A stable sort keeps the loader's order among ties: pages stay deterministic.
        if (page.term) all.sort(compareBy(page.term));
        return {
          items: all.slice(page.offset, page.offset + page.limit),
          hasMore: page.offset + page.limit < all.length,
          total: page.withTotal ? all.length : null,
        };
      });
    },
  };
}
