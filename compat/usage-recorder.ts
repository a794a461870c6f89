/**
 * `createUsageRecorder(store)`: counts use of retiring schema coordinates on the request path
 * (a few map updates, no I/O) and writes them to a `UsageStore` in batches, off that path: every
 * `flushIntervalMs` and on `close()`.
 *
 * It knows nothing about v5: `record(coordinates, client)` takes any schema coordinates. The compat
 * handler calls it with the flat fields an operation used; counting deprecated v6 fields is one
 * more call of the same method (see `deprecatedCoordinates` in `usage-deprecated.ts`).
 *
 * Failure: a store that throws never fails a request. A batch whose write failed is kept as it
 * is, under the id it was first sent with, and sent again (after 1 s, then doubling up to
 * `maxRetryDelayMs`) before anything newer: a store that committed it but whose reply was lost
 * (`UsageStore.add`'s `flushId`) does not count it twice. Uses recorded meanwhile wait in memory.
 * Nothing is dropped while the failed batch and the waiting rows fit in `maxPendingRows`; uses of
 * rows beyond that, and what is still unwritten when `close()` gives up, are counted as lost and
 * reported through `onError` and `status()`.
 *
 * With a store that keeps the operation catalog, `record` also counts the operation a request ran
 * (`catalog.ts`) and `recordShadow` the verdict of a shadow run; both travel in the same batches.
 */
import { randomUUID } from 'node:crypto';
import { recordCoordinateUse } from '../src/telemetry/metrics.js';
import { catalogBounds, PendingOperations, type CatalogBounds, type CatalogEntry, type OperationRow, type PersistedUse, type ShadowOutcome } from './catalog.js';
import { clientName } from './client-name.js';
import { mergeRow, rowKey, type TrackedCoordinate, type UsageRow, type UsageStore } from './usage-store.js';

/**
 * Client names and coordinates past their cap for the day are counted under this name, so
 * invented `x-client-name` values (or coordinates) cannot grow memory, the store or its report.
 */
export const OTHER = '(other)';
/** @deprecated the same as `OTHER` (clients and coordinates share it). */
export const OTHER_CLIENTS = OTHER;

export interface UsageRecorderOptions {
  /** How often pending counts are written (default 10 000 ms). */
  flushIntervalMs?: number;
  /** Distinct client names kept per day; later ones are counted as `(other)` (default 1000). */
  maxClients?: number;
  /** Distinct coordinates kept per day; later ones are counted as `(other)` (default 10 000). */
  maxCoordinates?: number;
  /** Rows kept unwritten (the failed batch and what waits behind it); uses of further rows are dropped and reported (default 100 000). */
  maxPendingRows?: number;
  /** The longest wait between attempts while the store fails (default 60 000 ms; the first retry is after 1 s, or `flushIntervalMs` if shorter). */
  maxRetryDelayMs?: number;
  /**
   * Operations kept between writes (default: 1000 operations, 4 MiB of texts, as a catalog keeps):
   * a new one past either is not recorded, and counted in `status().droppedOperations`.
   */
  catalog?: CatalogBounds;
  /** Told about every failed write; default: one console warning per failure streak, and one on recovery. */
  onError?: (error: unknown, info: FlushFailure) => void;
  /** The clock (epoch ms). A process's own clock: skew between processes moves uses across day boundaries, never loses them. */
  now?: () => number;
}

export interface FlushFailure {
  store: string;
  /** Uses in the batch that failed. */
  uses: number;
  /** `kept`: the failed batch, sent again. `lost`: dropped (past `maxPendingRows`, or unwritten at close). */
  outcome: 'kept' | 'lost';
}

export interface UsageRecorderStatus {
  store: string;
  /** Uses counted but not yet written. */
  pendingUses: number;
  flushes: number;
  failedFlushes: number;
  /** Uses that could not be written and were dropped. */
  lostUses: number;
  /** Uses of operations not recorded in the catalog: the buffer between writes was full. */
  droppedOperations: number;
  lastFlushAt: string | null;
  lastError: { message: string; at: string } | null;
}

export interface UsageRecorder {
  readonly store: UsageStore;
  /**
   * Count one use of each coordinate by `client` (raw header text is fine: it is cut and escaped
   * here), and of `operation` in the catalog when the store keeps one.
   */
  record(coordinates: readonly string[], client?: string | null, operation?: CatalogEntry, persisted?: PersistedUse): void;
  /** The verdict of one shadow run of `operation`'s v6 form, for the catalog. */
  recordShadow(operation: CatalogEntry, client: string | null | undefined, outcome: ShadowOutcome): void;
  /** Register the coordinates being served, so reports list them even while unused. */
  track(coordinates: readonly TrackedCoordinate[]): void;
  /** Write what is pending now. Never throws; resolves once this flush (and any running one) is done. */
  flush(): Promise<void>;
  /** Stop the timer and write what is pending. Does not close the store (its owner does). */
  close(): Promise<void>;
  status(): UsageRecorderStatus;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createUsageRecorder(store: UsageStore, options: UsageRecorderOptions = {}): UsageRecorder {
  const now = options.now ?? Date.now;
  const maxClients = options.maxClients ?? 1000;
  const maxCoordinates = options.maxCoordinates ?? 10_000;
  const maxPendingRows = options.maxPendingRows ?? 100_000;
  let pending = new Map<string, UsageRow>();
  // Stores without a catalog get no operations: nothing is buffered for them.
  const operations = store.readOperations ? new PendingOperations(catalogBounds(options.catalog)) : null;
  // The names of the day (`capDay`): each set holds at most its cap, and starts over each day.
  let capDay = '';
  const clients = new Set<string>();
  const coordinatesOfDay = new Set<string>();
  const capped = (seen: Set<string>, max: number, name: string) => {
    if (seen.has(name)) return name;
    if (seen.size >= max) return OTHER;
    seen.add(name);
    return name;
  };
  let toTrack: TrackedCoordinate[] | null = null;
  /** The batch whose write failed: sent again as it is, under its id, before anything newer. */
  let unsent: { id: string; rows: UsageRow[]; operations: OperationRow[]; uses: number } | null = null;
  /** Uses dropped because the buffer was full, not yet reported. */
  let dropped = 0;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  /** Failed attempts in a row: the retry delay doubles with each. */
  let failures = 0;
  const stats = { flushes: 0, failedFlushes: 0, lostUses: 0, lastFlushAt: null as number | null, lastError: null as null | { message: string; at: number } };

  const onError =
    options.onError ??
    ((error: unknown, info: FlushFailure) => {
      if (info.outcome === 'kept' && failures > 1) return;
      console.warn(
        `ergraph compat: usage store ${info.store} failed (${messageOf(error)}); ${info.uses} uses ${info.outcome === 'kept' ? 'kept for the next flush' : 'lost'}`,
      );
    });

  // The day of the last timestamp seen: formatting a date once a day, not once a request.
  let dayStart = 0;
  let dayEnd = -1;
  let dayText = '';
  const dayOf = (ms: number) => {
    if (ms < dayStart || ms >= dayEnd) {
      dayStart = ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
      dayEnd = dayStart + 86_400_000;
      dayText = new Date(dayStart).toISOString().slice(0, 10);
    }
    return dayText;
  };

  const keysOf = new WeakMap<readonly string[], { day: string; client: string; named: string[]; keys: string[] }>();

  const countOf = (rows: Iterable<UsageRow>) => {
    let n = 0;
    for (const r of rows) n += r.count;
    return n;
  };

  const reportDropped = () => {
    if (dropped === 0) return;
    const uses = dropped;
    dropped = 0;
    onError(new Error(`usage buffer full: ${maxPendingRows} rows unwritten (maxPendingRows) while the store fails`), { store: store.description, uses, outcome: 'lost' });
  };

  /** Whether `batch` is written (then `unsent` is cleared); a failure keeps it as `unsent`. */
  async function send(batch: NonNullable<typeof unsent>): Promise<boolean> {
    try {
      await (batch.operations.length > 0 ? store.add(batch.rows, batch.id, batch.operations) : store.add(batch.rows, batch.id));
    } catch (error) {
      unsent = batch;
      failures++;
      stats.failedFlushes++;
      stats.lastError = { message: messageOf(error), at: now() };
      onError(error, { store: store.description, uses: batch.uses, outcome: 'kept' });
      return false;
    }
    unsent = null;
    stats.flushes++;
    stats.lastFlushAt = now();
    if (failures > 0) {
      failures = 0;
      if (!options.onError) console.warn(`ergraph compat: usage store ${store.description} is writable again`);
    }
    return true;
  }

  async function writeOnce(): Promise<void> {
    if (toTrack) {
      const coordinates = toTrack;
      try {
        await store.track(coordinates);
        if (toTrack === coordinates) toTrack = null;
      } catch {
        // Tried again with the next flush; the use rows below report the failure.
      }
    }
    reportDropped();
    if (unsent && !(await send(unsent))) return;
    if (pending.size === 0 && !operations?.size) return;
    const rows = [...pending.values()];
    pending = new Map();
    await send({ id: randomUUID(), rows, operations: operations?.take() ?? [], uses: countOf(rows) });
  }

  const flushIntervalMs = options.flushIntervalMs ?? 10_000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The next flush: after the interval, or sooner-then-backing-off while the store fails. */
  const schedule = () => {
    clearTimeout(timer);
    if (closed) return;
    const delay = failures === 0 ? flushIntervalMs : Math.min(Math.min(1000, flushIntervalMs) * 2 ** (failures - 1), maxRetryDelayMs);
    timer = setTimeout(() => void flush(), delay);
    timer.unref?.();
  };

  function flush(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await writeOnce();
      } while (again && failures === 0);
    })().finally(() => {
      running = null;
      schedule();
    });
    return running;
  }

  schedule();

  return {
    store,
    record(coordinates, client, operation, persisted) {
      if (coordinates.length === 0) return;
      const at = now();
      const day = dayOf(at);
      if (day !== capDay) {
        capDay = day;
        clients.clear();
        coordinatesOfDay.clear();
      }
      const name = capped(clients, maxClients, clientName(client));
      // An operation's coordinates are one array for all its requests: its row keys are built
      // once per day and client, not joined again on every request.
      let memo = keysOf.get(coordinates);
      if (!memo || memo.day !== day || memo.client !== name) {
        const named = coordinates.map((coordinate) => capped(coordinatesOfDay, maxCoordinates, coordinate));
        keysOf.set(coordinates, (memo = { day, client: name, named, keys: named.map((coordinate) => rowKey({ day, client: name, coordinate })) }));
      }
      for (let i = 0; i < coordinates.length; i++) {
        const coordinate = memo.named[i]!;
        const key = memo.keys[i]!;
        const row = pending.get(key);
        if (row) {
          row.count++;
          if (at < row.firstSeen) row.firstSeen = at;
          if (at > row.lastSeen) row.lastSeen = at;
        } else if (pending.size + (unsent?.rows.length ?? 0) < maxPendingRows) {
          pending.set(key, { coordinate, client: name, day, count: 1, firstSeen: at, lastSeen: at });
        } else {
          // The buffer is full (the store has failed for long): counted, reported at the next flush.
          dropped++;
          stats.lostUses++;
        }
      }
      recordCoordinateUse(memo.named, name);
      if (operation && operations) operations.use(operation, name, at, persisted);
    },
    recordShadow(operation, client, outcome) {
      // The name its request was counted under (the day's cap already holds it, or it is `(other)`).
      if (operations) operations.shadow(operation, capped(clients, maxClients, clientName(client)), now(), outcome);
    },
    track(coordinates) {
      toTrack = [...(toTrack ?? []), ...coordinates];
      void flush();
    },
    flush,
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await flush();
      // One more attempt at once: a connection that broke is not reused, so the next may work.
      if (unsent || pending.size > 0 || operations?.size) await flush();
      reportDropped();
      const left = (unsent?.uses ?? 0) + countOf(pending.values());
      if (left > 0) {
        stats.lostUses += left;
        unsent = null;
        pending = new Map();
        onError(new Error(stats.lastError?.message ?? 'store not writable at close'), { store: store.description, uses: left, outcome: 'lost' });
      }
    },
    status() {
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      return {
        store: store.description,
        pendingUses: (unsent?.uses ?? 0) + countOf(pending.values()),
        flushes: stats.flushes,
        failedFlushes: stats.failedFlushes,
        lostUses: stats.lostUses,
        droppedOperations: operations?.dropped ?? 0,
        lastFlushAt: iso(stats.lastFlushAt),
        lastError: stats.lastError ? { message: stats.lastError.message, at: iso(stats.lastError.at)! } : null,
      };
    },
  };
}
