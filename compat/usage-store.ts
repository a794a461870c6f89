/**
 * Where use of old schema coordinates is kept: one row per coordinate × client × UTC day, with a
 * count and the first and last time it was seen. A store only ever *adds*: counts are summed and
 * first/last seen merged with min/max, so batches from several processes (whose clocks may
 * disagree) can arrive in any order and still add up to the same totals.
 *
 * Three implementations share this contract: `memoryUsageStore()` here (one process, gone on
 * restart), and `sqlUsageStore(db)` in `usage-sql.ts` for embedded PGlite and a PostgreSQL
 * server through the same Drizzle code. Each also keeps the operation catalog (`catalog.ts`),
 * written in the same batches as the counts.
 */
import { coalesce } from './coalesce.js';
import { byUse, catalogBounds, coalesceOperations, copyOperation, keptOperations, mergeOperation, operationKey, type CatalogBounds, type OperationQuery, type OperationRow } from './catalog.js';

/** One aggregated cell: how often `client` used `coordinate` on `day`. Times are epoch ms. */
export interface UsageRow {
  /** A schema coordinate, e.g. `Query.userGetAll` or a deprecated v6 field `User.fullName`. */
  coordinate: string;
  client: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

/** A coordinate the store tracks, and what replaces it: the report lists these even when unused. */
export interface TrackedCoordinate {
  coordinate: string;
  /** The v6 replacement, e.g. `User.getAll` (or a deprecation reason). */
  replacement: string;
  /** How to select the replacement, e.g. `{ User { getAll } }`. */
  usage?: string;
  /** When it was first tracked (epoch ms; stores keep the earliest). Set by the store when omitted. */
  since?: number;
}

/** All-time use of a coordinate by a client. */
export type UsageTotal = Omit<UsageRow, 'day'>;

export interface UsageSnapshot {
  tracked: TrackedCoordinate[];
  /** Rows whose day is on or after the requested one (no upper bound: a clock running ahead still counts). */
  rows: UsageRow[];
  /** Per coordinate × client over every day kept, so "last used 45 days ago" is known beyond the window. */
  totals: UsageTotal[];
}

export interface UsageStore {
  /** Where the data lives, without credentials (for reports and error messages). */
  readonly description: string;
  /** Register the coordinates being served (idempotent; replacements are updated). */
  track(coordinates: readonly TrackedCoordinate[]): Promise<void>;
  /**
   * Add a batch: counts summed, first/last seen merged, per coordinate × client × day. All or
   * nothing. With a `flushId`, a batch already added under that id adds nothing: a writer that
   * saw its write fail (perhaps after the commit, when only the reply was lost) sends the same
   * batch again under the same id and it counts once. `operations` (stores that keep a catalog)
   * are merged into the catalog in the same all-or-nothing write, which then applies its bound.
   */
  add(rows: readonly UsageRow[], flushId?: string, operations?: readonly OperationRow[]): Promise<void>;
  /** Rows from `sinceDay` (`YYYY-MM-DD`) on, every tracked coordinate, and all-time totals. */
  read(sinceDay: string): Promise<UsageSnapshot>;
  /**
   * The operation catalog, most used first. A store without this method keeps no catalog: the
   * recorder then records no operations and the report gives the verdict on counts alone.
   */
  readOperations?(query?: OperationQuery): Promise<OperationRow[]>;
  close(): Promise<void>;
}

export const rowKey = (r: Pick<UsageRow, 'coordinate' | 'client' | 'day'>): string => `${r.day}\u0000${r.client}\u0000${r.coordinate}`;

/** Fold `row` into `into` (same key): the merge every store applies. */
export function mergeRow(into: UsageRow | UsageTotal, row: UsageRow | UsageTotal): void {
  into.count += row.count;
  if (row.firstSeen < into.firstSeen) into.firstSeen = row.firstSeen;
  if (row.lastSeen > into.lastSeen) into.lastSeen = row.lastSeen;
}

/** Rows with equal keys merged into one, sorted by key (`coalesce`). */
export const coalesceRows = (rows: readonly UsageRow[]): UsageRow[] => coalesce(rows, rowKey, mergeRow, (row) => ({ ...row }));

/** All-time totals per coordinate × client from day rows. */
export function totalsOf(rows: Iterable<UsageRow>): UsageTotal[] {
  const byKey = new Map<string, UsageTotal>();
  for (const { day: _day, ...row } of rows) {
    const key = `${row.client}\u0000${row.coordinate}`;
    const seen = byKey.get(key);
    if (seen) mergeRow(seen, row);
    else byKey.set(key, { ...row });
  }
  return [...byKey.values()];
}

export interface MemoryUsageStoreOptions {
  /** The operation catalog's bounds (default 1000 operations, 4 MiB of texts). */
  catalog?: CatalogBounds;
}

/** The process-local store: what the compat layer counted before a database was configured. */
export function memoryUsageStore(options: MemoryUsageStoreOptions = {}): UsageStore {
  const bounds = catalogBounds(options.catalog);
  const rows = new Map<string, UsageRow>();
  let operations = new Map<string, OperationRow>();
  const tracked = new Map<string, TrackedCoordinate>();
  // Nothing is lost between a memory write and its "reply", but the contract is the same; the
  // newest ids are enough, as a writer resends a batch before it sends the next one.
  const flushIds = new Set<string>();
  return {
    description: 'memory (this process only, lost on restart)',
    async track(coordinates) {
      const now = Date.now();
      for (const c of coordinates) {
        const since = Math.min(c.since ?? now, tracked.get(c.coordinate)?.since ?? Infinity);
        tracked.set(c.coordinate, { ...c, since });
      }
    },
    async add(batch, flushId, ops = []) {
      if (flushId !== undefined) {
        if (flushIds.has(flushId)) return;
        flushIds.add(flushId);
        if (flushIds.size > 1000) flushIds.delete(flushIds.values().next().value!);
      }
      for (const row of coalesceRows(batch)) {
        const key = rowKey(row);
        const seen = rows.get(key);
        if (seen) mergeRow(seen, row);
        else rows.set(key, row);
      }
      if (ops.length === 0) return;
      const merged = new Map(operations);
      for (const op of coalesceOperations(ops)) {
        const key = operationKey(op);
        const seen = merged.get(key);
        if (seen) {
          const copy = copyOperation(seen);
          mergeOperation(copy, op);
          merged.set(key, copy);
        } else merged.set(key, op);
      }
      operations = new Map(keptOperations(merged.values(), bounds).map((op) => [operationKey(op), op]));
    },
    async readOperations(query = {}) {
      return [...operations.values()]
        .filter((op) => (query.client === undefined || op.client === query.client) && (query.since === undefined || op.lastSeen >= query.since))
        .sort(byUse)
        .map(copyOperation);
    },
    async read(sinceDay) {
      const all = [...rows.values()];
      return {
        tracked: [...tracked.values()].map((t) => ({ ...t })),
        rows: all.filter((r) => r.day >= sinceDay).map((r) => ({ ...r })),
        totals: totalsOf(all),
      };
    },
    async close() {},
  };
}
