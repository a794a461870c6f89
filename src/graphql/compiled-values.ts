/**
 * The compiled executor's completion of values (graphql-js's `completeValue`): leaves serialised,
 * lists and objects walked, errors located at their path, and a failed non-null value nulling
 * the nearest nullable position above it. The budget counts every completed value.
 */
import { GraphQLError, locatedError } from 'graphql';
import type { Completion, FieldPlan, Plan } from './plan.js';
import type { Run } from './run.js';

export type Obj = Record<string, unknown>;

export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';

/** A position in the response that holds an object or a list, like graphql-js's `Path`. */
export class Pos {
  /** Nulled: nothing below it reaches the response any more. */
  dead = false;
  constructor(
    readonly prev: Pos | undefined,
    readonly key: string | number,
    readonly typename: string | undefined,
    /** The container the value sits in, to null it when a non-null error below reaches it. */
    readonly holder: Obj | unknown[],
    readonly nullable: boolean,
  ) {}
}

/** Returned up the synchronous walk when a non-null value failed: the parent is nulled instead. */
export const BUBBLE: unique symbol = Symbol('bubble');
export type Completed = unknown | typeof BUBBLE;

/** Completes values; the fields of an object are `field`'s, the levels the executor's (compiled.ts). */
export abstract class Completer {
  data: Obj | null;
  readonly errors: GraphQLError[] = [];
  /** Some position was nulled: queued fields check they still reach the response. */
  protected nulled = false;
  /** `data` is null: nothing more runs. */
  protected stopped = false;

  constructor(
    protected readonly plan: Plan,
    protected readonly context: Run,
  ) {
    this.data = { ...plan.root.template };
    // The budget is asked before each level (and each 1,024 values) anyway; a spent one (the
    // caller's signal aborted before the run) is asked at the first value.
    const budget = context.budget;
    this.allowance = budget.exceeded ? 0 : Math.min(1024, budget.valuesLeft + 1);
  }

  /** Complete one field of `source` into `out` (compiled-fields.ts); BUBBLE when a non-null one failed. */
  protected abstract field(field: FieldPlan, source: unknown, out: Obj, pos: Pos | undefined): Completed;
  /** Queue `promise` on the level: its value is completed as `out[key]` (a list item: `item`) when it arrives. */
  protected abstract wait(field: FieldPlan, out: Obj | unknown[], pos: Pos | undefined, promise: PromiseLike<unknown>, item?: { c: Completion; key: number }): undefined;

  stop(): void {
    this.data = null;
    this.stopped = true;
  }

  /** Values completed since the budget last saw them, and how many more before it looks again. */
  protected spent = 0;
  protected allowance = 0;

  /** Tell the budget about the values completed so far; throws `BudgetExceeded` once it is spent. */
  protected spendValues(): void {
    const budget = this.context.budget;
    budget.count(this.spent);
    this.spent = 0;
    this.allowance = Math.min(1024, budget.valuesLeft + 1);
  }

  protected spend(values: number): void {
    this.spent += values;
    if (this.spent >= this.allowance) this.spendValues();
  }

  /** Null the nearest nullable position at or above `pos`; above the root that is `data`. */
  protected nullify(pos: Pos | undefined): void {
    this.nulled = true;
    for (let p = pos; p; p = p.prev) {
      if (p.dead) return;
      if (p.nullable) {
        (p.holder as Obj)[p.key] = null;
        p.dead = true;
        return;
      }
    }
    this.stop();
  }

  /** Record a field (or list item) error; a nullable position becomes null, a non-null one bubbles. */
  protected fail(field: FieldPlan, error: unknown, pos: Pos | undefined, key: string | number = field.key, c: Completion = field.completion): Completed {
    this.errors.push(locatedError(error, field.nodes, pathAt(pos, key)));
    return c.nonNull ? BUBBLE : null;
  }

  /**
   * Complete `value` for completion `c` of `field`; `prev` is the position of the object the
   * field belongs to, `holder[key]` where the value will sit. Returns the value or BUBBLE.
   */
  protected value(c: Completion, value: unknown, field: FieldPlan, prev: Pos | undefined, holder: Obj | unknown[], key: string | number): Completed {
    if (++this.spent >= this.allowance) this.spendValues();
    if (value === null || value === undefined) {
      if (!c.nonNull) return null;
      return this.error(c, `Cannot return null for non-nullable field ${field.parentType.name}.${field.name}.`, field, prev, key);
    }
    switch (c.kind) {
      case 'leaf': {
        let serialized: unknown;
        try {
          serialized = c.type.serialize(value);
        } catch (error) {
          this.errors.push(locatedError(error, field.nodes, pathAt(prev, key)));
          return c.nonNull ? BUBBLE : null;
        }
        if (serialized === null || serialized === undefined) {
          return this.error(
            c,
            `Expected \`${c.type.name}.serialize(${String(value)})\` to return non-nullable value, returned: ${String(serialized)}`,
            field,
            prev,
            key,
          );
        }
        return serialized;
      }
      case 'object': {
        const { selection } = c;
        const { builder } = selection;
        let out = builder?.build(value);
        let fields = selection.fields;
        if (out) {
          this.spend(builder!.values);
          if (!builder!.rest.length) return out;
          fields = builder!.rest;
        } else out = { ...selection.template };
        const pos = new Pos(prev, key, typeof key === 'string' ? field.parentType.name : undefined, holder, !c.nonNull);
        for (const f of fields) {
          if (this.field(f, value, out, pos) !== BUBBLE) continue;
          pos.dead = true;
          this.nulled = true;
          return c.nonNull ? BUBBLE : null;
        }
        return out;
      }
      case 'list': {
        let items: ArrayLike<unknown>;
        if (Array.isArray(value)) items = value;
        else if (typeof value === 'object' && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function') items = Array.from(value as Iterable<unknown>);
        else return this.error(c, `Expected Iterable, but did not find one for field "${field.parentType.name}.${field.name}".`, field, prev, key);
        const list: unknown[] = new Array(items.length);
        const item = c.item;
        // Object items go through their builder in runs (buildAll): items it completes whole need
        // no position; those with fields left (relationships, resolvers) get theirs after the run.
        const builder = item.kind === 'object' ? item.selection.builder : undefined;
        let pos: Pos | undefined;
        for (let i = 0; i < items.length; i++) {
          if (builder) {
            const done = builder.buildAll(items, list, i);
            this.spend((done - i) * (builder.values + 1));
            for (let j = i; j < done && builder.rest.length; j++) {
              pos ??= new Pos(prev, key, typeof key === 'string' ? field.parentType.name : undefined, holder, !c.nonNull);
              if (this.rest(builder.rest, item, items[j], list, j, pos) !== BUBBLE) continue;
              pos.dead = true;
              this.nulled = true;
              return c.nonNull ? BUBBLE : null;
            }
            if ((i = done) === items.length) break;
          }
          pos ??= new Pos(prev, key, typeof key === 'string' ? field.parentType.name : undefined, holder, !c.nonNull);
          const v = items[i];
          // An item that is a promise (a resolver's `ids.map(load)`): completed when it arrives, as graphql-js does.
          if (isThenable(v)) {
            this.wait(field, list, pos, v, { c: item, key: i });
            list[i] = null;
            continue;
          }
          const completed = this.value(item, v, field, pos, list, i);
          if (completed === BUBBLE) {
            pos.dead = true;
            this.nulled = true;
            return c.nonNull ? BUBBLE : null;
          }
          list[i] = completed;
        }
        return list;
      }
    }
  }

  /** The fields a builder left of list item `list[at]` (built from `value`); BUBBLE when the item must be null and is non-null. */
  private rest(fields: readonly FieldPlan[], item: Completion, value: unknown, list: unknown[], at: number, listPos: Pos): Completed {
    const out = list[at] as Obj;
    const pos = new Pos(listPos, at, undefined, list, !item.nonNull);
    for (const f of fields) {
      if (this.field(f, value, out, pos) !== BUBBLE) continue;
      pos.dead = true;
      this.nulled = true;
      if (item.nonNull) return BUBBLE;
      list[at] = null;
      return null;
    }
    return out;
  }

  protected error(c: Completion, message: string, field: FieldPlan, prev: Pos | undefined, key: string | number): typeof BUBBLE | null {
    this.errors.push(locatedError(new GraphQLError(message), field.nodes, pathAt(prev, key)));
    return c.nonNull ? BUBBLE : null;
  }
}

/** Whether nothing between `pos` and the root has been nulled. */
export function reaches(pos: Pos | undefined): boolean {
  for (let p = pos; p; p = p.prev) if (p.dead) return false;
  return true;
}

function pathAt(prev: Pos | undefined, key: string | number): (string | number)[] {
  const path: (string | number)[] = [key];
  for (let p = prev; p; p = p.prev) path.push(p.key);
  return path.reverse();
}
