/**
 * A named edge from one entity to another: which field holds the key, which entity it points
 * to, and the batch loader that fetches targets for many keys at once.
 */
import type DataLoader from 'dataloader';
import type { AnyModelClass } from './model.js';

/**
 * What a loader is handed besides its keys: the run's `signal` (aborts when the client goes away
 * or the operation's budget is spent: pass it on to what can stop early) and the request context.
 */
export interface LoaderInfo {
  readonly signal: AbortSignal;
  readonly context: Record<string, unknown> | undefined;
}

/** A batch function: one call for many keys, one value (or Error) per key, in key order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BatchLoadFn<K = any, V = any> = (keys: readonly K[], info: LoaderInfo) => PromiseLike<ArrayLike<V | Error>>;

/** A DataLoader subclass; declared instance fields are params filled from the resolver. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LoaderClass<K = any, V = any> = new () => DataLoader<K, V>;

export type LoaderRef = BatchLoadFn | LoaderClass;

export type TargetRef =
  | AnyModelClass
  | readonly [AnyModelClass]
  | string
  | readonly [string]
  | (() => AnyModelClass | readonly [AnyModelClass]);

/** One page of a one-to-many relationship for one parent. */
export interface PageRequest {
  limit: number;
  offset: number;
  /** Only true when the client selected `total_count`: counting costs a window function. */
  withTotal: boolean;
  /** A published order profile name and its direction, for loaders that support ordering. */
  order?: string;
  direction?: 'ASC' | 'DESC';
  /**
   * The target's fields the caller will read, sorted (column pruning); absent: all of them. A
   * loader may return more; the SQL integration reads just these plus the keys it needs.
   */
  fields?: readonly string[];
}

export interface Page<V = unknown> {
  items: V[];
  hasMore: boolean;
  total: number | null;
}

/** Pages for many parents in one call; one `Page` per key, in key order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PageLoadFn<K = any, V = any> = (
  keys: readonly K[],
  page: PageRequest,
  context?: Record<string, unknown>,
  info?: LoaderInfo,
) => Promise<Page<V>[]>;

/**
 * A relationship whose loader can read only some fields of its targets (the SQL integration's):
 * `loaderFor(fields)` is the loader for that sorted field list, the same reference for the
 * same list, so a run keeps one DataLoader (and cache) per list.
 */
export interface FieldSelectingRelationship {
  loaderFor(fields: readonly string[]): LoaderRef;
}

export interface RelationshipOptions {
  /** Field on this entity holding the key passed to the loader. */
  fk: string;
  target: TargetRef;
  /** Unique per entity: the GraphQL field name and the AutoLoad lookup key. */
  name: string;
  loader?: LoaderRef;
  /**
   * Transform applied to the FK value before loading. Declared as a method so a callback typed
   * for the field (`(id: number) => String(id)`) is accepted: the relationship cannot know the
   * field's type, and an untyped callback's parameter is `unknown`.
   */
  fkFn?(value: unknown): unknown;
  /** Value used when the FK is null or undefined (no load happens). */
  fkNoneDefault?: unknown;
  fkNoneDefaultFactory?: () => unknown;
  defaultPageSize?: number;
  maxPageSize?: number;
  /** SQL-level pagination per parent; without it pages are sliced from `loader`'s lists. */
  pageLoader?: PageLoadFn;
  description?: string;
  /** Marks the relationship field deprecated in the GraphQL schema (`@deprecated(reason:)`). */
  deprecationReason?: string;
}

export class Relationship {
  readonly fk: string;
  readonly target: TargetRef;
  readonly name: string;
  readonly loader?: LoaderRef;
  readonly fkFn?: (value: unknown) => unknown;
  readonly fkNoneDefault?: unknown;
  readonly fkNoneDefaultFactory?: () => unknown;
  readonly hasNoneDefault: boolean;
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  readonly pageLoader?: PageLoadFn;
  readonly description?: string;
  readonly deprecationReason?: string;

  constructor(options: RelationshipOptions) {
    this.fk = options.fk;
    this.target = options.target;
    this.name = options.name;
    this.loader = options.loader;
    this.fkFn = options.fkFn;
    this.fkNoneDefault = options.fkNoneDefault;
    this.fkNoneDefaultFactory = options.fkNoneDefaultFactory;
    this.hasNoneDefault = 'fkNoneDefault' in options || options.fkNoneDefaultFactory !== undefined;
    this.defaultPageSize = options.defaultPageSize ?? 20;
    this.maxPageSize = options.maxPageSize ?? 100;
    this.pageLoader = options.pageLoader;
    this.description = options.description;
    this.deprecationReason = options.deprecationReason;
  }

  /** The value used for a missing FK: the factory's, the default, or `null`. */
  noneDefault(): unknown {
    return this.fkNoneDefaultFactory ? this.fkNoneDefaultFactory() : this.fkNoneDefault ?? null;
  }
}
