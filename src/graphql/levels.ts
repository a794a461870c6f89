/**
 * Level synchronisation for GraphQL execution.
 *
 * graphql-js calls field resolvers as soon as their parent value is ready, so with plain
 * DataLoaders a relationship reached through two branches that finish at different times is
 * loaded in two batches. Here every relationship load is queued at its tree level. A level is
 * dispatched once nothing shallower is still running (root methods, loads of upper levels): by
 * then every parent of that level exists, graphql-js has called every resolver of the level,
 * and each loader receives all keys of the level at once — one call per loader per level.
 *
 * "Nothing shallower is running" is checked from `setImmediate`, i.e. after the microtask
 * queue has drained, which is when graphql-js has finished walking the values that arrived.
 * Fields asking for the same key at one level share one promise, like DataLoader's cache.
 */
import type DataLoader from 'dataloader';

type Loader = DataLoader<unknown, unknown>;

/** One key of one loader at one level, shared by every field asking for it. */
interface Entry {
  key: unknown;
  promise: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Column pruning: a load that needs only some fields of its targets says which, and how to get
 * the DataLoader reading a given field list (the SQL integration's `loaderFor`).
 */
export interface Narrow {
  /** The target fields this load's selection reads, sorted. */
  fields: readonly string[];
  /** The DataLoader reading `fields` (plus whatever keys the loader needs itself). */
  loader(fields: readonly string[]): Loader;
}

/** The keys one loader gets at one level; `ifMissing` stands in for a null result. */
interface Group {
  loader: Loader;
  ifMissing: unknown;
  entries: Map<unknown, Entry>;
  /**
   * The union of the fields the group's loads need; `null` once one load needs every field
   * (or cannot narrow). The group is dispatched to the DataLoader for the union, so fields that
   * ask for different columns of one relationship at one level still share one batch.
   */
  fields: Set<string> | null;
  narrow?: Narrow;
}

/** Runs over the values of one group before its fields get them (resolving response models). */
export type SettleHook = (values: unknown[]) => Promise<void> | undefined;

const groupKey = (key: unknown) => (key !== null && typeof key === 'object' ? JSON.stringify(key) : key);

export class LevelScheduler {
  /** Unsettled work per depth: root methods, and loads queued or in flight. */
  private readonly running: number[] = [];
  private readonly queued = new Map<number, Map<Loader, Map<unknown, Group>>>();
  private checkQueued = false;

  constructor(private readonly settleHook?: SettleHook) {}

  /** Count `promise` as running at `depth` until it settles (root methods). */
  track<T>(depth: number, promise: Promise<T>): Promise<T> {
    this.running[depth] = (this.running[depth] ?? 0) + 1;
    promise.then(
      () => this.finished(depth, 1),
      () => this.finished(depth, 1),
    );
    return promise;
  }

  /**
   * Load `key` with `loader` together with every other load of the same level. With `narrow`,
   * the level's loads of `loader` go to `narrow.loader(<union of their fields>)` instead.
   */
  load(depth: number, loader: Loader, key: unknown, ifMissing: unknown, narrow?: Narrow): Promise<unknown> {
    let level = this.queued.get(depth);
    if (!level) {
      this.queued.set(depth, (level = new Map()));
      this.queueCheck();
    }
    let byMissing = level.get(loader);
    if (!byMissing) level.set(loader, (byMissing = new Map()));
    let group = byMissing.get(ifMissing);
    if (!group) {
      byMissing.set(ifMissing, (group = { loader, ifMissing, entries: new Map(), fields: narrow ? new Set() : null, narrow }));
    }
    if (!narrow) group.fields = null;
    else if (group.fields) for (const field of narrow.fields) group.fields.add(field);
    const id = groupKey(key);
    const existing = group.entries.get(id);
    if (existing) return existing.promise;
    this.running[depth] = (this.running[depth] ?? 0) + 1;
    let resolve!: (value: unknown) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    group.entries.set(id, { key, promise, resolve, reject });
    return promise;
  }

  private finished(depth: number, count: number): void {
    this.running[depth]! -= count;
    this.queueCheck();
  }

  private queueCheck(): void {
    if (this.checkQueued) return;
    this.checkQueued = true;
    setImmediate(() => {
      this.checkQueued = false;
      this.dispatchReady();
    });
  }

  private dispatchReady(): void {
    if (!this.queued.size) return;
    const depths = [...this.queued.keys()].sort((a, b) => a - b);
    let shallower = 0;
    let at = 0;
    for (const depth of depths) {
      for (; at < depth; at++) shallower += this.running[at] ?? 0;
      if (shallower > 0) return;
      const level = this.queued.get(depth)!;
      this.queued.delete(depth);
      for (const byMissing of level.values()) for (const group of byMissing.values()) this.dispatch(depth, group);
    }
  }

  /** All keys of a group go to its DataLoader in this tick, so they form one batch. */
  private dispatch(depth: number, group: Group): void {
    const loader = group.fields && group.narrow ? group.narrow.loader([...group.fields].sort()) : group.loader;
    const entries = [...group.entries.values()];
    const values: unknown[] = new Array(entries.length);
    let left = entries.length;
    const arrived = () => {
      if (--left === 0) void this.settle(depth, entries, values);
    };
    entries.forEach((entry, i) => {
      loader.load(entry.key).then(
        (value) => {
          values[i] = value === null || value === undefined ? group.ifMissing : value;
          arrived();
        },
        (error: unknown) => {
          values[i] = error instanceof Error ? error : new Error(String(error));
          arrived();
        },
      );
    });
  }

  private async settle(depth: number, entries: Entry[], values: unknown[]): Promise<void> {
    try {
      // The hook may throw (a spent budget): then every field of the group fails with it.
      const hook = this.settleHook?.(values);
      if (hook) await hook;
      entries.forEach((entry, i) => {
        const value = values[i];
        if (value instanceof Error) entry.reject(value);
        else entry.resolve(value);
      });
    } catch (error) {
      for (const entry of entries) entry.reject(error);
    } finally {
      this.finished(depth, entries.length);
    }
  }
}
