/**
 * One DataLoader per loader per run: the unit that makes loading N+1-free. Function loaders are
 * checked for the "one value per key" contract; class loaders get their declared params and
 * the request context.
 */
import DataLoader from 'dataloader';
import { ConfigError, LoaderError } from '../er/errors.js';
import type { BatchLoadFn, LoaderClass, LoaderRef, Page, PageLoadFn, PageRequest } from '../er/relationship.js';
import type { RunTrace } from './tracing.js';
import { Cancellation, CancelledError, type LoaderInfo } from './cancel.js';
import { classLabel } from '../er/names.js';

export interface LoaderPoolOptions {
  /** Params per loader class, set on the instance's declared fields. */
  loaderParams?: ReadonlyMap<LoaderClass, Record<string, unknown>>;
  /** Params offered to every class loader that declares a field of that name. */
  globalLoaderParam?: Record<string, unknown>;
  context?: Record<string, unknown>;
  /**
   * Cancels the run when it aborts: no loader batch starts after it, and loaders get a signal
   * that aborts with it (`(keys, { signal, context })`, a page loader's fourth argument, a class
   * loader's declared `_signal` field).
   */
  signal?: AbortSignal;
  /**
   * Pre-built DataLoaders to use instead of new ones, keyed by the batch function or DataLoader
   * subclass they stand for: values primed into them (`loader.prime(key, value)`) are never
   * loaded again, and what the run loads stays in them for the caller.
   */
  loaderInstances?: ReadonlyMap<LoaderRef, DataLoader<unknown, unknown>>;
  /**
   * DataLoader options per batch function or page loader: `maxBatchSize` splits a level's keys
   * into several calls, `cache: false` loads a key again each time it is asked for. (A DataLoader
   * subclass passes its own options to `super(batch, options)`.)
   */
  loaderOptions?: ReadonlyMap<BatchLoadFn | PageLoadFn, LoaderOptions>;
}

/** The DataLoader options a loader may set; scheduling stays the resolver's (one batch per level). */
export interface LoaderOptions {
  /** Most keys per call (default: all keys of a level in one call). */
  maxBatchSize?: number;
  /** `false`: no per-run cache, every `load` reaches the batch function (default true). */
  cache?: boolean;
}

// Object keys (composite FKs) must hit the cache by value, not identity.
const cacheKeyFn = (key: unknown) => (key !== null && typeof key === 'object' ? JSON.stringify(key) : key);

let baseKeys: Set<string> | undefined;
/** Fields every DataLoader has; anything else a subclass declares is a param. */
const dataLoaderKeys = () => (baseKeys ??= new Set(Object.keys(new DataLoader(async (k: readonly unknown[]) => k))));

export function loaderName(ref: LoaderRef | PageLoadFn): string {
  return ref.name || 'anonymous loader';
}

function isLoaderClass(ref: LoaderRef): ref is LoaderClass {
  return typeof ref === 'function' && ref.prototype instanceof DataLoader;
}

/** `fn` called with the run's loader info, never after the run was cancelled, its result checked. */
function checked(fn: BatchLoadFn, info: LoaderInfo, cancellation: Cancellation): Batch {
  return async (keys) => {
    cancellation.throwIfAborted();
    const values = await fn(keys, info);
    if (!values || typeof (values as ArrayLike<unknown>).length !== 'number') {
      throw new LoaderError(`Loader ${loaderName(fn)} must return an array with one value per key, got ${typeof values}`);
    }
    if (values.length !== keys.length) {
      throw new LoaderError(
        `Loader ${loaderName(fn)} returned ${values.length} values for ${keys.length} keys (one value per key, in key order; see buildObject/buildList)`,
      );
    }
    return values;
  };
}

/** Throws a `ConfigError` naming the loader whose instance or options cannot be used. */
export function checkLoaderPoolOptions(options: LoaderPoolOptions): void {
  for (const [ref, loader] of options.loaderInstances ?? []) {
    if (!(loader instanceof DataLoader)) {
      throw new ConfigError(`loaderInstances: the value for ${loaderName(ref)} must be a DataLoader, got ${typeof loader}`);
    }
    if (isLoaderClass(ref) && !(loader instanceof ref)) {
      throw new ConfigError(`loaderInstances: the instance given for ${classLabel(ref)} is not a ${classLabel(ref)}`);
    }
  }
  for (const [ref, opts] of options.loaderOptions ?? []) {
    if (isLoaderClass(ref as LoaderRef)) {
      throw new ConfigError(
        `loaderOptions: ${classLabel(ref as unknown as LoaderClass)} is a DataLoader subclass; pass its options to super(batch, { maxBatchSize, cache })`,
      );
    }
    const unknown = Object.keys(opts).filter((k) => k !== 'maxBatchSize' && k !== 'cache');
    if (unknown.length) throw new ConfigError(`loaderOptions for ${loaderName(ref)}: unknown option ${unknown.join(', ')} (maxBatchSize, cache)`);
    const max = opts.maxBatchSize;
    if (max !== undefined && !(Number.isInteger(max) && max >= 1)) {
      throw new ConfigError(`loaderOptions for ${loaderName(ref)}: maxBatchSize must be a positive integer, got ${String(max)}`);
    }
  }
}

/** A cache entry that holds no value (a stored `undefined` is a value). */
const ABSENT: unique symbol = Symbol('absent');

/**
 * The cache of a DataLoader the pool makes itself (its `cacheMap` option). It keeps loaded
 * values as they are and makes a promise of one only when DataLoader's own `load` asks for it:
 * `loadAll` reads and writes values without a promise per key. An `Error` value stands for a
 * failed key, as in DataLoader's `prime`.
 *
 * A batch's values are kept as the batch (`keepBatch`) and entered into the map when the cache is
 * next read: most loaders of an operation are asked once, and a `Map.set` per loaded key was ~7%
 * of a 10-root operation's CPU profile (issue 31.1).
 */
class ValueCache implements DataLoader.CacheMap<unknown, Promise<unknown>> {
  private readonly entries = new Map<unknown, unknown>();
  /** Batches not yet in `entries`, in the order they arrived: call keys and their values. */
  private pending: { keys: readonly unknown[]; values: readonly unknown[] }[] | undefined;

  private settle(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    for (const { keys, values } of pending) {
      for (let j = 0; j < keys.length; j++) {
        const value = values[j];
        // A promise among a batch's values is kept by `adopt` once it settles.
        if (!isThenable(value)) this.entries.set(cacheKeyFn(keys[j]), value);
      }
    }
  }

  get(id: unknown): Promise<unknown> | undefined {
    this.settle();
    if (!this.entries.has(id)) return undefined;
    const entry = this.entries.get(id);
    if (entry instanceof Promise) return entry;
    const promise = entry instanceof Error ? Promise.reject(entry) : Promise.resolve(entry);
    promise.catch(() => {}); // as DataLoader's prime: a cached failure is not an unhandled rejection
    this.entries.set(id, promise);
    return promise;
  }
  set(id: unknown, promise: Promise<unknown>): void {
    this.settle();
    this.entries.set(id, promise);
  }
  delete(id: unknown): void {
    this.settle();
    this.entries.delete(id);
  }
  clear(): void {
    this.pending = undefined;
    this.entries.clear();
  }
  /** The value (or the pending promise) for `id`, or ABSENT. */
  peek(id: unknown): unknown {
    this.settle();
    const entry = this.entries.get(id);
    return entry !== undefined || this.entries.has(id) ? entry : ABSENT;
  }
  keep(id: unknown, value: unknown): void {
    this.settle();
    this.entries.set(id, value);
  }
  /** A batch's values for its call keys (promises among them are left to `adopt`). */
  keepBatch(keys: readonly unknown[], values: readonly unknown[]): void {
    (this.pending ??= []).push({ keys, values });
  }
}

/** A batch function as the pool calls it: its loader info already bound. */
type Batch = (keys: readonly unknown[]) => PromiseLike<ArrayLike<unknown>>;

/** A DataLoader the pool made from a batch function: what `loadAll` needs to load without it. */
interface Direct {
  batch: Batch;
  cache: ValueCache | undefined;
  maxBatchSize: number;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';

function adopt(value: PromiseLike<unknown>, values: unknown[], i: number, cache: ValueCache | undefined, id: unknown): Promise<void> {
  return Promise.resolve(value).then(
    (settled) => {
      values[i] = settled;
      cache?.keep(id, settled);
    },
    (error: unknown) => {
      values[i] = asError(error);
      cache?.keep(id, values[i]);
    },
  );
}

/**
 * Distinct `keys` through `direct`'s batch function, the way DataLoader would load them (cached
 * keys are not loaded again, calls of at most maxBatchSize keys, a failed call fails its keys and
 * caches nothing, an Error value fails its key and is cached) but without a promise per key.
 */
function loadDirect({ batch, cache, maxBatchSize }: Direct, keys: readonly unknown[]): Promise<unknown[]> {
  const values: unknown[] = new Array(keys.length);
  let missing: number[] | undefined;
  // Not async, and every wait resolves to `values`: one call with nothing pending costs one promise, its `then` (issue 31.1).
  const waits: Promise<unknown[]>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const entry = cache ? cache.peek(cacheKeyFn(keys[i])) : ABSENT;
    if (entry === ABSENT) (missing ??= []).push(i);
    else if (entry instanceof Promise) {
      const arrived = (value: unknown) => {
        values[i] = value;
        return values;
      };
      waits.push(entry.then(arrived, (error: unknown) => arrived(asError(error))));
    } else values[i] = entry;
  }
  for (let from = 0; missing && from < missing.length; from += maxBatchSize) {
    const at = maxBatchSize >= missing.length ? missing : missing.slice(from, from + maxBatchSize);
    // Every key missing and one call (the common case): the keys themselves, not a copy.
    const call = at.length === keys.length ? keys : at.map((i) => keys[i]);
    waits.push(
      // The pool's batch functions are async (checked()): a synchronous throw arrives as a rejection.
      Promise.resolve(batch(call)).then(
        (loaded) => {
          let adopted: Promise<void>[] | undefined;
          // A copy: the cache reads it later, and the array is the batch function's.
          const got = Array.prototype.slice.call(loaded) as unknown[];
          for (let j = 0; j < at.length; j++) {
            const value = got[j];
            // DataLoader resolves each key's promise with its value, so a promise among the
            // values is adopted: the key gets what it settles with (or fails with its error).
            if (isThenable(value)) (adopted ??= []).push(adopt(value, values, at[j]!, cache, cacheKeyFn(call[j])));
            else values[at[j]!] = value;
          }
          cache?.keepBatch(call, got);
          return adopted ? Promise.all(adopted).then(() => values) : values;
        },
        (error: unknown) => {
          for (const i of at) values[i] = asError(error);
          return values;
        },
      ),
    );
  }
  if (waits.length === 0) return Promise.resolve(values);
  return waits.length === 1 ? waits[0]! : Promise.all(waits).then(() => values);
}

/**
 * The `info` every loader call gets. A class with the getter on its prototype: an object literal
 * with a getter made a closure and an accessor pair per pool, ~0.9 µs against ~0.06 µs (process
 * CPU, 10^6 pools), in the fixed cost of every operation (a 10-root one takes ~13 µs). The
 * cancellation is private, so loaders see only `context` and `signal`.
 */
class PoolInfo implements LoaderInfo {
  readonly #cancellation: Cancellation;
  constructor(
    readonly context: Record<string, unknown> | undefined,
    cancellation: Cancellation,
  ) {
    this.#cancellation = cancellation;
  }
  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }
}

export class LoaderPool {
  // Made on first use: a Map is ~200 bytes and ~25 ns, and a small operation's run needed none of three (issue 31.1).
  private loaders: Map<LoaderRef, DataLoader<unknown, unknown>> | undefined;
  private direct: Map<DataLoader<unknown, unknown>, Direct> | undefined;
  private pages: Map<PageLoadFn, Map<string, DataLoader<unknown, Page>>> | undefined;
  /** Handed to every loader call: the run's signal (made on first read) and the request context. */
  readonly info: LoaderInfo;
  constructor(
    readonly options: LoaderPoolOptions = {},
    /** Spans (and timings) for each batch of the run's function and page loaders. */
    readonly trace?: RunTrace,
    /** The run's cancellation (the executor's, shared with its budget); default: from `options.signal`. */
    readonly cancellation: Cancellation = new Cancellation(options.signal),
  ) {
    checkLoaderPoolOptions(options);
    this.info = new PoolInfo(options.context, cancellation);
  }

  /** A DataLoader over `batch` with the options given for `ref`, which `loadAll` can load around. */
  private made(ref: BatchLoadFn | PageLoadFn, batch: Batch): DataLoader<unknown, unknown> {
    const own = this.options.loaderOptions?.get(ref);
    const cache = own?.cache === false ? undefined : new ValueCache();
    const loader = new DataLoader(batch, { cacheKeyFn, ...own, cacheMap: cache ?? null });
    (this.direct ??= new Map()).set(loader, { batch, cache, maxBatchSize: own?.maxBatchSize ?? Infinity });
    return loader;
  }

  /**
   * Values (an Error for a failed key) for distinct `keys`, as `loader.loadMany` gives them. The
   * DataLoaders the pool made from batch functions are loaded around DataLoader, which costs a
   * promise per key (the executor already has a level's keys together); given instances and
   * DataLoader subclasses, which may change how loading works, go through `loadMany`.
   */
  loadAll(loader: DataLoader<unknown, unknown>, keys: readonly unknown[]): Promise<unknown[]> {
    const direct = this.direct?.get(loader);
    return direct ? loadDirect(direct, keys) : (loader.loadMany(keys) as Promise<unknown[]>);
  }

  private traced(name: string, batch: Batch): Batch {
    const trace = this.trace;
    return trace ? (keys) => trace.batch(name, keys.length, () => batch(keys)) : batch;
  }

  get context(): Record<string, unknown> | undefined {
    return this.options.context;
  }

  /** The run's DataLoader for a batch function or DataLoader subclass. */
  get<K = unknown, V = unknown>(ref: LoaderRef): DataLoader<K, V> {
    let loader = this.loaders?.get(ref);
    if (!loader) {
      loader =
        this.options.loaderInstances?.get(ref) ??
        (isLoaderClass(ref)
          ? this.instantiate(ref)
          : this.made(ref as BatchLoadFn, this.traced(loaderName(ref), checked(ref as BatchLoadFn, this.info, this.cancellation))));
      (this.loaders ??= new Map()).set(ref, loader);
    }
    return loader as DataLoader<K, V>;
  }

  /**
   * Forget every value loaded so far: a mutation changed the data, and what runs after it (the
   * next mutation's selection) must read the data as it is now, not as the cache remembers it.
   */
  clearAll(): void {
    for (const loader of this.loaders?.values() ?? []) loader.clearAll();
    for (const byRequest of this.pages?.values() ?? []) for (const loader of byRequest.values()) loader.clearAll();
  }

  /** A DataLoader of pages for one page request shape: all parents asking the same page share a call. */
  page<K = unknown, V = unknown>(fn: PageLoadFn<K, V>, request: PageRequest): DataLoader<K, Page<V>> {
    let byRequest = this.pages?.get(fn);
    if (!byRequest) (this.pages ??= new Map()).set(fn, (byRequest = new Map()));
    const id = `${request.limit}:${request.offset}:${request.withTotal}:${request.order ?? ''}:${request.direction ?? ''}:${request.fields?.join(',') ?? '*'}`;
    let loader = byRequest.get(id);
    if (!loader) {
      const info = this.info;
      const batch = checked(((keys: readonly K[]) => fn(keys, request, this.context, info)) as BatchLoadFn, info, this.cancellation);
      Object.defineProperty(batch, 'name', { value: loaderName(fn) });
      loader = this.made(fn as PageLoadFn, this.traced(loaderName(fn), batch)) as DataLoader<unknown, Page>;
      byRequest.set(id, loader);
    }
    return loader as unknown as DataLoader<K, Page<V>>;
  }

  private instantiate(kls: LoaderClass): DataLoader<unknown, unknown> {
    const loader = new kls() as DataLoader<unknown, unknown> & Record<string, unknown>;
    const own = this.options.loaderParams?.get(kls) ?? {};
    const global = this.options.globalLoaderParam ?? {};
    const skip = dataLoaderKeys();
    for (const key of Object.keys(loader)) {
      if (skip.has(key)) continue;
      if (key === '_context') {
        loader._context = this.options.context;
        continue;
      }
      if (key === '_signal') {
        // An accessor: the signal is made only when the loader reads it.
        const cancellation = this.cancellation;
        Object.defineProperty(loader, '_signal', { get: () => cancellation.signal, enumerable: true });
        continue;
      }
      if (key in own) loader[key] = own[key];
      else if (key in global) loader[key] = global[key];
      if (loader[key] === undefined) {
        throw new LoaderError(
          `Loader ${classLabel(kls)} needs param '${key}': pass it in loaderParams (keyed by ${classLabel(kls)}) or globalLoaderParam`,
        );
      }
    }
    // A subclass hands its batch function to super(), out of reach but for DataLoader 2's own
    // `_batchLoadFn` field (stable through 2.x, the peer range); wrapping it gives class loaders
    // the same batch spans and timings as function loaders. Without that field, no spans.
    // The same field lets a cancelled run start no batch of a class loader either.
    const trace = this.trace;
    const cancellation = this.cancellation;
    const batch = loader._batchLoadFn;
    if (typeof batch === 'function') {
      const name = classLabel(kls);
      // A rejection, not a throw: DataLoader reports a synchronous throw as a misdeclared loader.
      const call = (keys: readonly unknown[]) =>
        cancellation.aborted ? Promise.reject(new CancelledError(cancellation.cause)) : (batch as Batch).call(loader, keys);
      loader._batchLoadFn = trace ? (keys: readonly unknown[]) => trace.batch(name, keys.length, () => call(keys)) : call;
    }
    return loader;
  }
}
