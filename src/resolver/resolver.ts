/**
 * The resolver walks a tree of model instances level by level. Every step of every instance at
 * one level starts before any is awaited, so each DataLoader sees all keys of that level in one
 * batch: one loader call per relationship per level, however many parents and however deep.
 * `postX` methods then run bottom-up, once everything below them is in place.
 */
import type { ErDiagram } from '../er/diagram.js';
import { LoaderError } from '../er/errors.js';
import { isModelInstance, SOURCE, toModel, type AnyModelClass } from '../er/model.js';
import type { FieldInfo } from '../er/schema.js';
import { withFrame, type Frame } from './depends.js';
import { planFor, type ClassPlan, type LoadStep, type MethodStep } from './plan.js';
import { checkLoaderPoolOptions, LoaderPool, loaderName, type LoaderPoolOptions } from './pool.js';
import { RunTrace, type Timings } from './tracing.js';
import { requestSignal } from './cancel.js';
import { classLabel } from '../er/names.js';

export interface ResolverOptions extends LoaderPoolOptions {
  /** Keep per-level and per-loader timings of the last `resolve` in `resolver.timings`. */
  debug?: boolean;
}

type Obj = Record<string | symbol, unknown>;

interface Node {
  obj: Obj;
  plan: ClassPlan;
  parent: Node | undefined;
  ancestorContext: Record<string, unknown>;
  /** Descendants that send values up, by collector name. */
  collected?: Map<string, Node[]>;
}

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export class Resolver {
  /** The diagram auto-loading reads; set by `configGlobalResolver` / `configResolver`. */
  static diagram: ErDiagram | undefined;

  readonly options: ResolverOptions;
  /** With `debug`: the timings of the last `resolve` (levels and loader batches). */
  timings: Timings | undefined;

  constructor(options: ResolverOptions = {}) {
    checkLoaderPoolOptions(options); // bad options fail here, not on the first resolve
    this.options = options;
  }

  /** Resolve a model instance or an array of them in place; returns the same value. */
  async resolve<T>(data: T): Promise<T> {
    const diagram = (this.constructor as typeof Resolver).diagram;
    const trace = new RunTrace('ergraph.resolve', {}, this.options.debug ?? false);
    const ambient = this.options.signal ? undefined : requestSignal();
    const pool = new LoaderPool(ambient ? { ...this.options, signal: ambient } : this.options, trace);
    try {
      await resolveTree(data, diagram, pool);
    } catch (error) {
      trace.end({}, error);
      throw error;
    } finally {
      pool.cancellation.dispose(); // stop listening to the caller's signal
    }
    this.timings = trace.end();
    return data;
  }
}

/** Bind the plain `Resolver` (and everything built on it) to one diagram. */
export function configGlobalResolver(diagram: ErDiagram): void {
  Resolver.diagram = diagram.validate();
}

/** A separate `Resolver` class bound to another diagram. */
export function configResolver(name: string, diagram: ErDiagram): typeof Resolver {
  const Bound = class extends Resolver {};
  Object.defineProperty(Bound, 'name', { value: name });
  Bound.diagram = diagram.validate();
  return Bound;
}

function convert(info: FieldInfo, value: unknown): unknown {
  if (!info.model || value === null || value === undefined) return value;
  const kls = info.model();
  return info.list && Array.isArray(value) ? value.map((v) => toModel(kls, v)) : toModel(kls, value);
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value === undefined ? 'undefined' : JSON.stringify(value));
  return value.constructor === Object ? 'a plain object' : `an instance of ${classLabel(value.constructor)}`;
}

/** Resolve a tree with a given loader pool (shared with GraphQL execution of the same request). */
export async function resolveTree(data: unknown, diagram: ErDiagram | undefined, pool: LoaderPool): Promise<void> {
  const roots = Array.isArray(data) ? data : [data];
  let level: Node[] = [];
  roots.forEach((obj, index) => {
    if (obj === null || obj === undefined) return;
    if (!isModelInstance(obj)) {
      const at = Array.isArray(data) ? ` at index ${index}` : '';
      throw new TypeError(
        `Resolver.resolve() takes model instances or arrays of them; got ${describe(obj)}${at} (build it with new YourModel(data))`,
      );
    }
    const plan = planFor(obj.constructor as AnyModelClass, diagram);
    if (!plan.trivial) level.push({ obj: obj as Obj, plan, parent: undefined, ancestorContext: EMPTY });
  });

  const levels: Node[][] = [];
  while (level.length) {
    levels.push(level);
    const current = level;
    if (pool.trace) await pool.trace.level(levels.length, current.length, () => runSteps(current, pool));
    else await runSteps(current, pool);
    level = expand(level, diagram);
  }
  for (let i = levels.length - 1; i >= 0; i--) await runPosts(levels[i]!, pool);
}

function frameOf(node: Node, field: string, pool: LoaderPool, post: boolean): Frame {
  return {
    pool,
    where: `${classLabel(node.plan.kls)}.${field}`,
    parent: node.parent?.obj ?? null,
    ancestorContext: node.ancestorContext,
    collect: post ? (name) => collectedValues(node, name) : undefined,
  };
}

async function runSteps(level: Node[], pool: LoaderPool): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const node of level) {
    for (const step of node.plan.steps) {
      const p = step.kind === 'load' ? load(node, step, pool) : call(node, step, pool, false);
      if (p) pending.push(p);
    }
  }
  if (pending.length) await Promise.all(pending);
}

async function runPosts(level: Node[], pool: LoaderPool): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const node of level) {
    for (const step of node.plan.posts) {
      const p = call(node, step, pool, true);
      if (p) pending.push(p);
    }
  }
  if (pending.length) await Promise.all(pending);
}

function call(node: Node, step: MethodStep, pool: LoaderPool, post: boolean): Promise<void> | undefined {
  const result = withFrame(frameOf(node, step.field, pool, post), () => step.method.call(node.obj));
  if (result instanceof Promise) {
    return result.then(
      (value) => {
        node.obj[step.field] = convert(step.info, value);
      },
      (error) => {
        throw located(error, node, step.field);
      },
    );
  }
  node.obj[step.field] = convert(step.info, result);
  return undefined;
}

function load(node: Node, step: LoadStep, pool: LoaderPool): Promise<void> | undefined {
  const rel = step.rel.relationship;
  const obj = node.obj;
  let raw = obj[rel.fk];
  if (raw === undefined) raw = (obj[SOURCE] as Obj | undefined)?.[rel.fk];
  if (raw === null || raw === undefined) {
    obj[step.field] = convert(step.info, rel.hasNoneDefault ? rel.noneDefault() : step.rel.list ? [] : null);
    return undefined;
  }
  const key = rel.fkFn ? rel.fkFn(raw) : raw;
  let loader;
  try {
    loader = pool.get(rel.loader!); // the plan refused relationships without a batch loader
  } catch (error) {
    throw located(error, node, step.field);
  }
  return loader
    .load(key)
    .then(
      (value) => {
        obj[step.field] = convert(step.info, value ?? (step.rel.list ? [] : null));
      },
      (error) => {
        throw located(error, node, step.field, loaderName(rel.loader!));
      },
    );
}

/** Say which model field a loader or method failure happened in. */
function located(error: unknown, node: Node, field: string, loader?: string): unknown {
  const where = `${classLabel(node.plan.kls)}.${field}`;
  if (error instanceof LoaderError) return new LoaderError(`${where}: ${error.message}`, { cause: error });
  if (error instanceof TypeError && /same length as the Array of keys/.test(error.message)) {
    return new LoaderError(`${where}: loader ${loader} did not return one value per key`, { cause: error });
  }
  return error;
}

function expand(level: Node[], diagram: ErDiagram | undefined): Node[] {
  const next: Node[] = [];
  for (const node of level) {
    const { plan, obj } = node;
    if (!plan.nested.length) continue;
    let ancestorContext = node.ancestorContext;
    if (plan.expose.length) {
      ancestorContext = { ...ancestorContext };
      for (const [field, alias] of plan.expose) ancestorContext[alias] = obj[field];
    }
    for (const { key } of plan.nested) {
      const value = obj[key];
      if (Array.isArray(value)) {
        for (const item of value) visit(item, node, ancestorContext, diagram, next);
      } else {
        visit(value, node, ancestorContext, diagram, next);
      }
    }
  }
  return next;
}

function visit(value: unknown, parent: Node, ancestorContext: Record<string, unknown>, diagram: ErDiagram | undefined, out: Node[]) {
  if (!isModelInstance(value)) return;
  const plan = planFor(value.constructor as AnyModelClass, diagram);
  if (plan.trivial) return;
  const node: Node = { obj: value as Obj, plan, parent, ancestorContext };
  // Once per collector name: a node sending several fields to one collector is read once, in collectedValues.
  for (const alias of new Set(plan.collect.map(([, a]) => a))) {
    for (let a: Node | undefined = parent; a; a = a.parent) {
      a.collected ??= new Map();
      const list = a.collected.get(alias);
      if (list) list.push(node);
      else a.collected.set(alias, [node]);
    }
  }
  out.push(node);
}

function collectedValues(node: Node, name: string): unknown[] {
  const values: unknown[] = [];
  for (const sender of node.collected?.get(name) ?? []) {
    for (const [field, alias] of sender.plan.collect) if (alias === name) values.push(sender.obj[field]);
  }
  return values;
}
