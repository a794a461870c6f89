/**
 * One execution: the request context, the run's loader pool (shared with `resolveTree` for
 * response models), and the level scheduler. It is graphql-js's `contextValue`, so every
 * resolver of the run sees the same one.
 */
import type { GraphQLResolveInfo } from 'graphql';

type Path = GraphQLResolveInfo['path'];
import type { ErDiagram } from '../er/diagram.js';
import type { Page } from '../er/relationship.js';
import { isModelClass, isModelInstance, type AnyModelClass } from '../er/model.js';
import { planFor } from '../resolver/plan.js';
import { LoaderPool } from '../resolver/pool.js';
import { Cancellation } from '../resolver/cancel.js';
import { RunTrace } from '../resolver/tracing.js';
import { resolveTree } from '../resolver/resolver.js';
import { Budget, type ExecutionBudget } from './budget.js';
import { LevelScheduler } from './levels.js';

export interface Run {
  readonly context: Record<string, unknown>;
  readonly pool: LoaderPool;
  readonly levels: LevelScheduler;
  readonly diagram: ErDiagram;
  /** Convert method results that are not instances of the declared model (`new Model(value)`). */
  readonly fromAttributes: boolean;
  /** Types that wrap a page; they add no tree level. */
  readonly resultTypes: ReadonlySet<string>;
  /** Time and result size this run may take; spent, it stops the work. */
  readonly budget: Budget;
  /** The run's spans (operation, levels, loader batches) and, with `debug`, its timings. */
  readonly trace: RunTrace;
  /** Aborts when the caller's signal does (client gone) or the budget is spent; made on first read. */
  readonly signal: AbortSignal;
}

// A brand on the prototype rather than a WeakSet: `isRun` is asked on every resolver call of a
// schema handed to another executor, and a property read is the cheapest check.
const RUN: unique symbol = Symbol('ergraph.run');

/** Whether `value` is a run made by `createRun` (and not a context some other executor passes). */
export const isRun = (value: unknown): value is Run => typeof value === 'object' && value !== null && (value as { [RUN]?: true })[RUN] === true;

// A class, not an object literal with a getter and a defined brand: those made every run's
// object slow to create and read (about a microsecond of each operation's fixed cost).
class OperationRun implements Run {
  declare readonly [RUN]: true;
  readonly pool: LoaderPool;
  readonly budget: Budget;
  private scheduler: LevelScheduler | undefined;

  constructor(
    readonly diagram: ErDiagram,
    readonly context: Record<string, unknown>,
    readonly fromAttributes: boolean,
    readonly resultTypes: ReadonlySet<string>,
    budget: ExecutionBudget | undefined,
    readonly trace: RunTrace,
    signal: AbortSignal | undefined,
    startedAt: number | undefined,
  ) {
    const cancellation = new Cancellation(signal);
    this.pool = new LoaderPool({ context }, trace, cancellation);
    this.budget = new Budget(budget, cancellation, startedAt);
  }

  /** Aborts when the caller's signal does or the budget is spent; made on first read. */
  get signal(): AbortSignal {
    return this.budget.cancellation.signal;
  }

  // Made on first use: the compiled executor needs it only for resolvers it does not know.
  get levels(): LevelScheduler {
    return (this.scheduler ??= new LevelScheduler((values) => {
      // graphql-js mode: the budget sees loaded values, and a spent one stops the next level
      this.budget.count(countValues(values));
      return settleModels(this, values);
    }));
  }
}
Object.defineProperty(OperationRun.prototype, RUN, { value: true });

export function createRun(
  diagram: ErDiagram,
  context: Record<string, unknown> | undefined,
  options: {
    fromAttributes: boolean;
    resultTypes: ReadonlySet<string>;
    budget?: ExecutionBudget;
    debug?: boolean;
    signal?: AbortSignal;
    /** `performance.now()` at the start, when the caller has it: the budget's deadline counts from it. */
    startedAt?: number;
  },
): Run {
  const trace = new RunTrace('graphql.operation', {}, options.debug ?? false);
  return new OperationRun(diagram, context ?? {}, options.fromAttributes, options.resultTypes, options.budget, trace, options.signal, options.startedAt);
}

/** Response models among one batch of loaded values are resolved together, with the run's pool. */
export function settleModels(run: Run, values: readonly unknown[]): Promise<void> | undefined {
  let models: unknown[] | undefined;
  // A batch's items are mostly of one class: its plan is looked up once, not per item (two
  // WeakMap reads per item, 20,000 of them for a batch of model rows).
  let lastClass: unknown;
  let lastNeeds = false;
  const needs = (item: unknown): boolean => {
    if (item === null || typeof item !== 'object') return false;
    const kls = item.constructor;
    if (kls !== lastClass) {
      lastClass = kls;
      lastNeeds = isModelClass(kls) && !planFor(kls, run.diagram).trivial;
    }
    return lastNeeds;
  };
  for (const value of values) {
    // Failed keys (Error values) have no models; their fields fail with the error.
    if (value instanceof Error) continue;
    const items = isPage(value) ? value.items : Array.isArray(value) ? value : undefined;
    if (!items) {
      if (Array.isArray(value) ? needsResolve(run, value) : needs(value)) (models ??= []).push(value);
      continue;
    }
    for (const item of items) if (Array.isArray(item) ? needsResolve(run, item) : needs(item)) (models ??= []).push(item);
  }
  return models ? resolveModels(run, models) : undefined;
}

/** Loaded values as the result will hold them: one per item of a list or page, one otherwise. */
export function countValues(values: readonly unknown[]): number {
  let n = 0;
  for (const value of values) n += isPage(value) ? value.items.length : Array.isArray(value) ? value.length : value instanceof Error ? 0 : 1;
  return n;
}

const isPage = (value: unknown): value is Page =>
  value !== null && typeof value === 'object' && Array.isArray((value as Page).items) && 'hasMore' in value;

/**
 * The tree level of a field: named path segments, not counting list indices nor the `items`
 * of a page wrapper. `{ User { getAll { tasks { owner } } } }`: getAll 2, tasks 3, owner 4.
 */
export function levelOf(run: Run, path: Path): number {
  let depth = 0;
  for (let p: Path | undefined = path; p; p = p.prev) {
    if (typeof p.key === 'string' && !(p.typename !== undefined && run.resultTypes.has(p.typename))) depth++;
  }
  return depth;
}

/** Run `resolveX` / `postX` of response models in `value` (one model, or a list) with the run's pool. */
export async function resolveModels(run: Run, value: unknown): Promise<void> {
  const roots = (Array.isArray(value) ? value : [value]).filter(
    (item) => isModelInstance(item) && !planFor(item.constructor as AnyModelClass, run.diagram).trivial,
  );
  if (roots.length) await resolveTree(roots, run.diagram, run.pool);
}

/** Whether `value` (one model, or a list) holds a model needing `resolveTree`; saves a promise when not. */
export function needsResolve(run: Run, value: unknown): boolean {
  if (Array.isArray(value)) {
    // A loop, not `some` with a closure: asked of every method's result (issue 31.1).
    for (const item of value) if (needsResolve(run, item)) return true;
    return false;
  }
  return isModelInstance(value) && !planFor(value.constructor as AnyModelClass, run.diagram).trivial;
}
