/**
 * `createUsageRecorder(store)`: counts use of retiring schema coordinates on the request path
 * (a few map updates, no I/O) and writes them to a `UsageStore` in batches, off that path: every
 * `flushIntervalMs` and on `close()`.
 *
 * It knows nothing about v5: `record(coordinates, client)` takes any schema coordinates. The compat
 * handler calls it with the flat fields an operation used; counting deprecated v6 fields is one
 * more call of the same method (see `deprecatedCoordinates` in `usage-deprecated.ts`).
 *
 * Failure: a store that throws never fails a request. The batch stays pending and is sent again
 * with the next one, so a store that is down for a while loses nothing while the pending rows fit
 * in `maxPendingRows`; what does not fit, or is still pending when `close()` cannot write it, is
 * counted as lost and reported through `onError` and `status()`.
 */
import { recordCoordinateUse } from '../src/telemetry/metrics.js';
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
  /** Pending rows kept while the store fails; beyond this a failed batch is dropped and reported (default 100 000). */
  maxPendingRows?: number;
  /** Told about every failed write; default: one console warning per failure streak, and one on recovery. */
  onError?: (error: unknown, info: FlushFailure) => void;
  /** The clock (epoch ms). A process's own clock: skew between processes moves uses across day boundaries, never loses them. */
  now?: () => number;
}

export interface FlushFailure {
  store: string;
  /** Uses in the batch that failed. */
  uses: number;
  /** `kept`: pending, sent with the next flush. `lost`: dropped (pending limit, or at close). */
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
  lastFlushAt: string | null;
  lastError: { message: string; at: string } | null;
}

export interface UsageRecorder {
  readonly store: UsageStore;
  /** Count one use of each coordinate by `client` (raw header text is fine: it is cut and escaped here). */
  record(coordinates: readonly string[], client?: string | null): void;
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
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let failing = false;
  const stats = { flushes: 0, failedFlushes: 0, lostUses: 0, lastFlushAt: null as number | null, lastError: null as null | { message: string; at: number } };

  const onError =
    options.onError ??
    ((error: unknown, info: FlushFailure) => {
      if (info.outcome === 'kept' && failing) return;
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
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await store.add([...batch.values()]);
      stats.flushes++;
      stats.lastFlushAt = now();
      if (failing) {
        failing = false;
        if (!options.onError) console.warn(`ergraph compat: usage store ${store.description} is writable again`);
      }
    } catch (error) {
      stats.failedFlushes++;
      stats.lastError = { message: messageOf(error), at: now() };
      const uses = countOf(batch.values());
      // Keep the failed batch for the next flush unless that would pass the pending limit.
      const keep = batch.size + pending.size <= maxPendingRows;
      if (keep) {
        for (const [key, row] of batch) {
          const seen = pending.get(key);
          if (seen) mergeRow(seen, row);
          else pending.set(key, row);
        }
      } else stats.lostUses += uses;
      onError(error, { store: store.description, uses, outcome: keep ? 'kept' : 'lost' });
      failing = true;
    }
  }

  function flush(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await writeOnce();
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 10_000);
  timer.unref?.();

  return {
    store,
    record(coordinates, client) {
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
        } else pending.set(key, { coordinate, client: name, day, count: 1, firstSeen: at, lastSeen: at });
      }
      recordCoordinateUse(memo.named, name);
    },
    track(coordinates) {
      toTrack = [...(toTrack ?? []), ...coordinates];
      void flush();
    },
    flush,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await flush();
      if (pending.size > 0) {
        const uses = countOf(pending.values());
        stats.lostUses += uses;
        pending = new Map();
        onError(new Error(stats.lastError?.message ?? 'store not writable at close'), { store: store.description, uses, outcome: 'lost' });
      }
    },
    status() {
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      return {
        store: store.description,
        pendingUses: countOf(pending.values()),
        flushes: stats.flushes,
        failedFlushes: stats.failedFlushes,
        lostUses: stats.lostUses,
        lastFlushAt: iso(stats.lastFlushAt),
        lastError: stats.lastError ? { message: stats.lastError.message, at: iso(stats.lastError.at)! } : null,
      };
    },
  };
}
