/**
 * Dependencies of `resolveX` / `postX` methods, written as default parameters:
 *
 *   resolveOwner(loader = Loader(usersById)) { return loader.load(this.ownerId); }
 *
 * The resolver calls those methods with no arguments, so JavaScript evaluates the defaults
 * right then; each helper reads the call frame the resolver set up around that call.
 */
import type DataLoader from 'dataloader';
import { ConfigError } from '../er/errors.js';
import type { BatchLoadFn, LoaderClass } from '../er/relationship.js';
import type { LoaderPool } from './pool.js';

export interface Frame {
  pool: LoaderPool;
  /** The object whose method is being called, and its place in the tree. */
  where: string;
  parent: unknown;
  ancestorContext: Record<string, unknown>;
  /** Only in `postX`: values sent up by descendants, by collector name. */
  collect?: (name: string) => unknown[];
}

let current: Frame | undefined;

/** Run `fn` with `frame` as the call frame the dependency helpers read. */
export function withFrame<T>(frame: Frame, fn: () => T): T {
  const previous = current;
  current = frame;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

function frame(helper: string): Frame {
  if (!current) {
    throw new ConfigError(
      `${helper}() can only be used as a default parameter of a resolveX/postX method called by the Resolver`,
    );
  }
  return current;
}

/** The run's DataLoader for a batch function or a DataLoader subclass. */
export function Loader<K, V>(fn: BatchLoadFn<K, V>): DataLoader<K, V>;
export function Loader<L extends LoaderClass>(kls: L): InstanceType<L>;
export function Loader(ref: BatchLoadFn | LoaderClass): unknown {
  return frame('Loader').pool.get(ref);
}

/** The context object given to the Resolver (or to `handler.execute`). */
export function Context<T = Record<string, unknown>>(): T {
  const f = frame('Context');
  if (f.pool.context === undefined) {
    throw new ConfigError(`Context() is used by ${f.where} but the Resolver was created without a context`);
  }
  return f.pool.context as T;
}

/** The model instance holding this one (null at the top). */
export function Parent<T = unknown>(): T {
  return frame('Parent').parent as T;
}

/** Values exposed by ancestors through `static __expose__ = { field: 'alias' }`. */
export function AncestorContext<T = Record<string, unknown>>(): T {
  return frame('AncestorContext').ancestorContext as T;
}

export interface CollectorHandle<T = unknown> {
  values(): T[];
}

export interface CollectorOptions {
  /** Spread values that are arrays into the result (one level), instead of collecting each array as one value. */
  flat?: boolean;
}

/**
 * In `postX`: the values descendants send through `static __collect__ = { field: 'name' }` (or a
 * subset's `sendTo`). With `{ flat: true }`, a descendant's list field adds its items, not itself.
 */
export function Collector<T = unknown>(name: string, options: CollectorOptions = {}): CollectorHandle<T> {
  const f = frame('Collector');
  if (!f.collect) throw new ConfigError(`Collector('${name}') is only available in postX methods (${f.where})`);
  const collect = f.collect;
  if (!options.flat) return { values: () => collect(name) as T[] };
  return { values: () => collect(name).flatMap((value) => (Array.isArray(value) ? value : [value])) as T[] };
}
