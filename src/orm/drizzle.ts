/**
 * drizzle-orm, an optional peer, for every runtime use in ergraph: the other files import its
 * types only. Loaded on first use (src/peers/load.ts says how, and why not by `import`), so
 * `ergraph/federation` and `ergraph/compat`, which reach these files, import without it;
 * `ergraph/orm` asks for it as it loads.
 */
import type * as Core from 'drizzle-orm';
import type * as PgCore from 'drizzle-orm/pg-core';
import { loadPeers } from '../peers/load.js';

let loaded: { core: typeof Core; pg: typeof PgCore } | undefined;

/** drizzle-orm and its PostgreSQL core; `what` names what needs them when they are missing. */
export function drizzle(what = 'ergraph/orm'): { core: typeof Core; pg: typeof PgCore } {
  if (!loaded) {
    const [core, pg] = loadPeers(what, ['drizzle-orm', 'drizzle-orm/pg-core']) as [typeof Core, typeof PgCore];
    loaded = { core, pg };
  }
  return loaded;
}

/** drizzle-orm's root module (`sql`, `Column`, `entityKind`, ...). */
export const core = (): typeof Core => drizzle().core;
/** `drizzle-orm/pg-core` (`PgTable`, `PgDialect`, `QueryBuilder`, ...). */
export const pgCore = (): typeof PgCore => drizzle().pg;

let kindKey: typeof Core.entityKind | undefined;
/**
 * The key of a Drizzle class's kind (`entityKind`), read off the module once: every statement
 * asks which driver its session has, before it is sent, and a read of the module object there
 * measured 5–10 µs in a page batch on PostgreSQL (cold: once per batch; `getTableName`'s read).
 */
export const entityKind = (): typeof Core.entityKind => (kindKey ??= core().entityKind);

type Fn = (...args: never[]) => unknown;
type FnKeys<M> = { [K in keyof M]: M[K] extends Fn ? K : never }[keyof M];

/** A function of `module()`, loaded on its first call; its type is drizzle's own, generics included. */
function lazy<M, K extends FnKeys<M>>(module: () => M, name: K): M[K] {
  return ((...args: unknown[]) => (module()[name] as (...a: unknown[]) => unknown)(...args)) as M[K];
}

export const asc = lazy(core, 'asc');
export const eq = lazy(core, 'eq');
export const gte = lazy(core, 'gte');
export const lt = lazy(core, 'lt');
export const inArray = lazy(core, 'inArray');
export const is = lazy(core, 'is');
export const getTableColumns = lazy(core, 'getTableColumns');
export const getTableName = lazy(core, 'getTableName');
export const getTableConfig = lazy(pgCore, 'getTableConfig');
