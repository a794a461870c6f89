/**
 * The compiled executor: runs a plan (compile.ts) level by level.
 *
 * A level completes every value it has synchronously — leaves serialised, lists and nested
 * objects walked — and queues what needs waiting for: root methods, relationship loads, and
 * fields with resolvers that return promises. Then the queued loads go out, all keys of one
 * loader in one call (one loader call per relationship per level, by construction), and when
 * everything of the level has arrived, the next level completes the arrived values.
 *
 * Why not graphql-jit (or graphql-js) for this walk: both resolve a field as soon as its parent
 * value is ready, depth first, so one call per loader per level needs a scheduler that waits
 * for a macrotask before each level and costs a promise per key (levels.ts does that for the
 * graphql-js mode; over ergraph's schema graphql-jit ran 1.26x slower than with plain
 * DataLoaders). Both also resolve fields of one object in parallel, so neither can run the
 * methods inside a mutation group one after another with their selections, and graphql-jit
 * keeps running later mutations after a failure has nulled `data` (it trims nulls at the end).
 * Here a level stops as soon as nothing it would produce can reach the response.
 *
 * GraphQL semantics follow graphql-js 16: error messages, paths and locations, null propagation
 * to the nearest nullable position, leaf serialisation, argument and variable coercion (with
 * graphql-js's own `getVariableValues` / `getArgumentValues`).
 *
 * The parts: plan.ts (what runs), compiled-fields.ts (a field resolved now or queued on the
 * level), compiled-values.ts (a value completed); here the levels, and mutations in order.
 */
import type { GraphQLError } from 'graphql';
import { BudgetExceeded } from './budget.js';
import { FieldWalk, Level, Loading, STRIDE, type Waiting } from './compiled-fields.js';
import { BUBBLE, Pos, reaches, type Obj } from './compiled-values.js';
import type { Plan } from './plan.js';
import { settleModels, type Run } from './run.js';
import type { Variables } from './versions.js';

const RESOLVED: Promise<void> = Promise.resolve();

/** graphql-js's result shape: `errors` only when there are some. */
export interface CompiledResult {
  data: Obj | null;
  errors?: GraphQLError[];
}

export function executePlan(plan: Plan, run: Run, variables: Variables, rootValue: unknown): Promise<CompiledResult> {
  const execution = new Execution(plan, run, variables, rootValue);
  // Not async, nor is what it calls where it can help it: each async layer costs an operation a
  // promise and ticks, a tenth of a small operation's fixed cost (issue 31.1).
  const done = (): CompiledResult => (execution.errors.length ? { data: execution.data, errors: execution.errors } : { data: execution.data });
  const spent = (error: unknown): CompiledResult => {
    if (!(error instanceof BudgetExceeded)) throw error;
    execution.errors.push(error.error);
    execution.stop();
    return done();
  };
  let walked: Promise<void>;
  try {
    walked = execution.walk();
  } catch (error) {
    return Promise.resolve(spent(error));
  }
  return walked.then(done, spent);
}

/** One run of a plan: its levels, and mutations one after another. */
class Execution extends FieldWalk {
  /** Not async itself (each async layer costs the operation a promise and ticks); may throw `BudgetExceeded`. */
  walk(): Promise<void> {
    if (this.plan.serial) return this.walkSerially();
    if (this.object(this.plan.root, this.rootValue, this.data!, undefined) === BUBBLE) this.stop();
    return this.drain();
  }

  private async walkSerially(): Promise<void> {
    const { root } = this.plan;
    // Mutations: each root field, and each method inside a mutation group, completes with its
    // whole selection before the next one starts; once `data` is null nothing more runs. Each
    // starts with empty loader caches, so its selection reads what the mutations before it wrote.
    for (const field of root.fields) {
      if (this.stopped) return;
      const data = this.data!;
      const c = field.completion;
      if (field.native?.kind === 'group' && field.native.mutation && c.kind === 'object') {
        const out: Obj = { ...c.selection.template };
        data[field.key] = out;
        const pos = new Pos(undefined, field.key, root.type.name, data, !c.nonNull);
        for (const method of c.selection.fields) {
          if (this.stopped || pos.dead) break;
          this.context.pool.clearAll();
          if (this.field(method, this.rootValue, out, pos) === BUBBLE) this.nullify(pos);
          await this.drain();
        }
      } else {
        this.context.pool.clearAll();
        if (this.field(field, this.rootValue, data, undefined) === BUBBLE) this.stop();
        await this.drain();
      }
    }
  }

  private levels = 0;

  private drain(): Promise<void> {
    return this.level.empty || this.stopped ? Promise.resolve() : this.drainLevels();
  }

  private async drainLevels(): Promise<void> {
    while (!this.stopped && !this.level.empty) {
      this.spendValues();
      const level = this.level;
      this.level = new Level();
      await this.context.trace.level(++this.levels, level.size, () => this.settle(level));
      for (const chunk of level.queue) {
        for (let i = 0; i < chunk.length; i += STRIDE) {
          if (this.stopped) return;
          this.complete(chunk[i] as Loading | Waiting, chunk[i + 1] as Obj | unknown[], chunk[i + 2] as Pos | undefined, chunk[i + 3] as number);
        }
      }
    }
  }

  /** Send the level's loads, wait for everything it queued, resolve response models among loaded values. */
  private settle(level: Level): Promise<unknown> {
    const { waiting, groups } = level;
    const { budget, pool } = this.context;
    // One promise for the whole level where it can be: each `then` between a level's loads and
    // the next level costs a small operation a promise and a tick (issue 31.1).
    if (!groups) return waiting.length === 0 ? RESOLVED : budget.race<unknown>(waiting.length === 1 ? waiting[0]! : Promise.all(waiting));
    const loads: Promise<unknown>[] = [];
    for (const group of groups.values()) {
      const loader = group.fields && group.narrow ? group.narrow.loader([...group.fields].sort()) : group.loader;
      loads.push(pool.loadAll(loader, group.keys));
    }
    const one = loads.length === 1 && waiting.length === 0;
    return budget.race<unknown>(one ? loads[0]! : Promise.all([...loads, ...waiting])).then((arrived) => {
      let i = 0;
      for (const group of groups.values()) group.values = (one ? arrived : (arrived as unknown[])[i++]) as unknown[];
      return this.settleModels(level);
    });
  }

  /** Response models among the level's loaded values, resolved together; undefined when there are none. */
  private settleModels(level: Level): Promise<void> | undefined {
    let settling: Promise<void>[] | undefined;
    for (const group of level.groups?.values() ?? []) {
      const settled = settleModels(this.context, group.values!);
      if (settled) {
        (settling ??= []).push(
          settled.then(undefined, (error: unknown) => {
            group.values = group.values!.map(() => (error instanceof Error ? error : new Error(String(error))));
          }),
        );
      }
    }
    return settling && this.context.budget.race(Promise.all(settling)).then(() => undefined);
  }

  /** Complete a queued field with what arrived for it: `out`'s value at `pos`, a load's value at `at` of its group. */
  private complete(queued: Loading | Waiting, out: Obj | unknown[], pos: Pos | undefined, at: number): void {
    if (this.nulled && !reaches(pos)) return;
    const { field } = queued;
    let value: unknown;
    let failed = false;
    let error: unknown;
    let c = field.completion;
    let key: string | number = field.key;
    if (queued instanceof Loading) {
      value = queued.group.values![at];
      if (value instanceof Error) {
        failed = true;
        error = value;
      } else {
        const { load } = queued;
        if (value === null || value === undefined) value = load.missing;
        if (load.finish) {
          try {
            value = load.finish(value);
          } catch (e) {
            failed = true;
            error = e;
          }
        }
      }
    } else {
      ({ value, failed, error } = queued);
      if (queued.completion) c = queued.completion;
      if (queued.key !== undefined) key = queued.key;
    }
    const result = failed ? this.fail(field, error, pos, key, c) : this.value(c, value, field, pos, out, key);
    if (result === BUBBLE) this.nullify(pos);
    else (out as Record<string | number, unknown>)[key] = result;
  }
}
