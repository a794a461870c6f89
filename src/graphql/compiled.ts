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
 */
import {
  getArgumentValues,
  GraphQLError,
  locatedError,
  type GraphQLResolveInfo,
} from 'graphql';
import type DataLoader from 'dataloader';
import { BudgetExceeded } from './budget.js';
import type { Completion, FieldPlan, Plan, Selection } from './compile.js';
import { keyOf, MISSING } from './keys.js';
import type { LoadSource } from './native.js';
import { settleModels, type Run } from './run.js';

type Obj = Record<string, unknown>;

/** A position in the response that holds an object or a list, like graphql-js's `Path`. */
class Pos {
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
const BUBBLE: unique symbol = Symbol('bubble');
type Completed = unknown | typeof BUBBLE;

/** A field whose value arrives later: it is completed by the next level. */
interface Slot {
  field: FieldPlan;
  /** Where the completed value goes: `out[key]` (the field's object, or a list for an item). */
  out: Obj | unknown[];
  /** The position of the object (or list) holding the value (undefined: the root). */
  pos: Pos | undefined;
  /** A list item's completion and index; a field's own completion and key when absent. */
  completion?: Completion;
  key?: number;
  load?: LoadSource;
  group?: LoadGroup;
  at?: number;
  value?: unknown;
  error?: unknown;
  failed?: boolean;
}

/** All keys one loader gets at one level. */
interface LoadGroup {
  loader: DataLoader<unknown, unknown>;
  keys: unknown[];
  index: Map<unknown, number>;
  values?: unknown[];
  /**
   * Column pruning: the union of the target fields the group's fields read, or null once one of
   * them needs every field; the level then loads through `narrow.loader(union)` (as levels.ts).
   */
  fields: Set<string> | null;
  narrow?: LoadSource['narrow'];
  /** Sources already unioned (one per field and run: the union is taken once, not per parent). */
  fieldsFrom?: Set<LoadSource>;
}

class Level {
  readonly slots: Slot[] = [];
  readonly groups = new Map<DataLoader<unknown, unknown>, LoadGroup>();
  readonly waiting: Promise<void>[] = [];
  get empty(): boolean {
    return this.slots.length === 0;
  }
}

/** Per run and field: argument values read from variables, and a load field's source. */
interface FieldRun {
  args?: Record<string, unknown>;
  argsError?: unknown;
  source?: LoadSource;
  sourceError?: unknown;
  /** The load group the field last joined, and at which level. */
  level?: Level;
  group?: LoadGroup;
}

const groupKey = (key: unknown) => (key !== null && typeof key === 'object' ? JSON.stringify(key) : key);

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';

export interface CompiledResult {
  data: Obj | null;
  errors: GraphQLError[];
}

export async function executePlan(plan: Plan, run: Run, variables: Record<string, unknown>, rootValue: unknown): Promise<CompiledResult> {
  const execution = new Execution(plan, run, variables, rootValue);
  try {
    await execution.walk();
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    execution.errors.push(error.error);
    execution.stop();
  }
  return { data: execution.data, errors: execution.errors };
}

class Execution {
  data: Obj | null;
  readonly errors: GraphQLError[] = [];
  /** Some position was nulled: queued fields check they still reach the response. */
  private nulled = false;
  /** `data` is null: nothing more runs. */
  private stopped = false;
  private level = new Level();
  private readonly fieldRuns: (FieldRun | undefined)[];

  constructor(
    private readonly plan: Plan,
    private readonly context: Run,
    private readonly variables: Record<string, unknown>,
    private readonly rootValue: unknown,
  ) {
    this.fieldRuns = new Array(plan.fieldCount);
    this.data = { ...plan.root.template };
  }

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

  stop(): void {
    this.data = null;
    this.stopped = true;
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
      await this.context.trace.level(++this.levels, level.slots.length, () => this.settle(level));
      for (const slot of level.slots) {
        if (this.stopped) return;
        this.complete(slot);
      }
    }
  }

  /** Send the level's loads, wait for everything it queued, resolve response models among loaded values. */
  private async settle(level: Level): Promise<void> {
    const waiting = level.waiting;
    for (const group of level.groups.values()) {
      const loader = group.fields && group.narrow ? group.narrow.loader([...group.fields].sort()) : group.loader;
      waiting.push(
        this.context.pool.loadAll(loader, group.keys).then((values) => {
          group.values = values;
        }),
      );
    }
    if (waiting.length) await this.context.budget.race<unknown>(waiting.length === 1 ? waiting[0]! : Promise.all(waiting));
    const settling: Promise<void>[] = [];
    for (const group of level.groups.values()) {
      const settled = settleModels(this.context, group.values!);
      if (settled) {
        settling.push(
          settled.then(undefined, (error: unknown) => {
            group.values = group.values!.map(() => (error instanceof Error ? error : new Error(String(error))));
          }),
        );
      }
    }
    if (settling.length) await this.context.budget.race(Promise.all(settling));
  }

  /** Values completed since the budget last saw them, and how many more before it looks again. */
  private spent = 0;
  private allowance = 0;

  /** Tell the budget about the values completed so far; throws `BudgetExceeded` once it is spent. */
  private spendValues(): void {
    const budget = this.context.budget;
    budget.count(this.spent);
    this.spent = 0;
    this.allowance = Math.min(1024, budget.valuesLeft + 1);
  }

  private spend(values: number): void {
    this.spent += values;
    if (this.spent >= this.allowance) this.spendValues();
  }

  /** Complete a queued field with what arrived for it. */
  private complete(slot: Slot): void {
    if (this.nulled && !reaches(slot.pos)) return;
    let { value } = slot;
    let failed = slot.failed === true;
    let error = slot.error;
    if (slot.group) {
      value = slot.group.values![slot.at!];
      if (value instanceof Error) {
        failed = true;
        error = value;
      } else {
        const load = slot.load!;
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
    }
    const { field, out, pos } = slot;
    const c = slot.completion ?? field.completion;
    const key = slot.key ?? field.key;
    const result = failed ? this.fail(field, error, pos, key, c) : this.value(c, value, field, pos, out, key);
    if (result === BUBBLE) this.nullify(pos);
    else (out as Record<string | number, unknown>)[key] = result;
  }

  /** Null the nearest nullable position at or above `pos`; above the root that is `data`. */
  private nullify(pos: Pos | undefined): void {
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

  /** Complete an object's fields; queued ones get a placeholder so keys keep selection order. */
  private object(selection: Selection, source: unknown, out: Obj, pos: Pos | undefined): Completed {
    for (const field of selection.fields) {
      const result = this.field(field, source, out, pos);
      if (result === BUBBLE) return BUBBLE;
    }
    return out;
  }

  private field(field: FieldPlan, source: unknown, out: Obj, pos: Pos | undefined): Completed {
    let value: unknown;
    switch (field.kind) {
      case 'typename':
        out[field.key] = field.parentType.name;
        return undefined;
      case 'property':
        // graphql-js's default resolver reads properties of objects only: a string has no `length` here.
        value = (typeof source === 'object' && source !== null) || typeof source === 'function' ? (source as Obj)[field.name] : undefined;
        if (typeof value === 'function') return this.resolved(field, source, out, pos, () => this.callProperty(field, source, pos));
        break;
      case 'group':
        value = source;
        break;
      case 'operation': {
        const args = this.args(field, pos);
        if (args === undefined) return this.argsFailed(field, out, pos);
        const invoke = (field.native as Extract<FieldPlan['native'], { kind: 'operation' }>).invoke;
        return this.resolved(field, source, out, pos, () => invoke(args, this.context));
      }
      case 'load':
        return this.load(field, source, out, pos);
      case 'resolve':
        return this.resolved(field, source, out, pos, () => {
          const args = this.args(field, pos);
          if (args === undefined) throw this.fieldRun(field).argsError;
          return field.def.resolve!(source, args, this.context, this.info(field, pos));
        });
    }
    if (isThenable(value)) return this.wait(field, out, pos, value);
    const result = this.value(field.completion, value, field, pos, out, field.key);
    if (result === BUBBLE) return BUBBLE;
    out[field.key] = result;
    return undefined;
  }

  /** A field whose argument values failed: that error, as if its resolver had thrown it. */
  private argsFailed(field: FieldPlan, out: Obj, pos: Pos | undefined): Completed {
    const result = this.fail(field, this.fieldRun(field).argsError, pos);
    if (result === BUBBLE) return BUBBLE;
    out[field.key] = result;
    return undefined;
  }

  /** Call a resolver-like function: its value now, or later when it returns a promise. */
  private resolved(field: FieldPlan, _source: unknown, out: Obj, pos: Pos | undefined, call: () => unknown): Completed {
    let value: unknown;
    try {
      value = call();
    } catch (error) {
      const result = this.fail(field, error, pos);
      if (result === BUBBLE) return BUBBLE;
      out[field.key] = result;
      return undefined;
    }
    if (isThenable(value)) return this.wait(field, out, pos, value);
    const result = this.value(field.completion, value, field, pos, out, field.key);
    if (result === BUBBLE) return BUBBLE;
    out[field.key] = result;
    return undefined;
  }

  private wait(field: FieldPlan, out: Obj | unknown[], pos: Pos | undefined, promise: PromiseLike<unknown>, item?: { c: Completion; key: number }): undefined {
    // `out` came from the selection's template or builder: the key is there, null, until completed.
    const slot: Slot = item ? { field, out, pos, completion: item.c, key: item.key } : { field, out, pos };
    this.level.slots.push(slot);
    this.level.waiting.push(
      Promise.resolve(promise).then(
        (value) => {
          slot.value = value;
        },
        (error: unknown) => {
          slot.failed = true;
          slot.error = error;
        },
      ),
    );
    return undefined;
  }

  private load(field: FieldPlan, parent: unknown, out: Obj, pos: Pos | undefined): Completed {
    const native = field.native as Extract<FieldPlan['native'], { kind: 'load' }>;
    const run = this.fieldRun(field);
    if (!run.source && run.sourceError === undefined) {
      const args = this.args(field, pos);
      if (args === undefined) run.sourceError = run.argsError;
      else {
        try {
          run.source = native.source(this.context, args, field.selection!, this.info(field, pos));
        } catch (error) {
          run.sourceError = error ?? new Error('load source failed');
        }
      }
    }
    if (!run.source) {
      const result = this.fail(field, run.sourceError, pos);
      if (result === BUBBLE) return BUBBLE;
      out[field.key] = result;
      return undefined;
    }
    const key = keyOf(parent, native.relationship);
    if (key === MISSING) {
      const result = this.value(field.completion, native.empty(), field, pos, out, field.key);
      if (result === BUBBLE) return BUBBLE;
      out[field.key] = result;
      return undefined;
    }
    const source = run.source;
    // The field's group at this level, remembered on its run: found (and its fields unioned) once
    // per field and level, not per parent.
    let group = run.level === this.level ? run.group! : undefined;
    if (!group) {
      group = this.level.groups.get(source.loader);
      if (!group) {
        const narrow = source.narrow;
        this.level.groups.set(source.loader, (group = { loader: source.loader, keys: [], index: new Map(), fields: narrow ? new Set() : null, narrow }));
      }
      if (group.fields) {
        if (!source.narrow) group.fields = null;
        else if (!group.fieldsFrom?.has(source)) {
          (group.fieldsFrom ??= new Set()).add(source);
          for (const name of source.narrow.fields) group.fields.add(name);
        }
      }
      run.level = this.level;
      run.group = group;
    }
    const id = groupKey(key);
    let at = group.index.get(id);
    if (at === undefined) {
      at = group.keys.length;
      group.keys.push(key);
      group.index.set(id, at);
    }
    this.level.slots.push({ field, out, pos, load: source, group, at });
    return undefined;
  }

  private fieldRun(field: FieldPlan): FieldRun {
    let run = this.fieldRuns[field.id];
    if (!run) this.fieldRuns[field.id] = run = {};
    return run;
  }

  /** Argument values, read from variables once per run; undefined when they fail (see argsError). */
  private args(field: FieldPlan, _pos: Pos | undefined): Record<string, unknown> | undefined {
    if (field.args) return field.args;
    const run = this.fieldRun(field);
    if (!run.args && run.argsError === undefined) {
      try {
        run.args = getArgumentValues(field.def, field.nodes[0]!, this.variables);
      } catch (error) {
        run.argsError = error;
      }
    }
    return run.args;
  }

  private callProperty(field: FieldPlan, source: unknown, pos: Pos | undefined): unknown {
    // graphql-js's default resolver calls a function-valued property as a method.
    const args = this.args(field, pos);
    if (args === undefined) throw this.fieldRun(field).argsError;
    return (source as Record<string, (...a: unknown[]) => unknown>)[field.name]!(args, this.context, this.info(field, pos));
  }

  private info(field: FieldPlan, pos: Pos | undefined): GraphQLResolveInfo {
    const { plan } = this;
    return {
      fieldName: field.name,
      fieldNodes: field.nodes,
      returnType: field.def.type,
      parentType: field.parentType,
      path: { prev: pos, key: field.key, typename: field.parentType.name },
      schema: plan.schema,
      fragments: plan.fragments,
      rootValue: this.rootValue,
      operation: plan.operation,
      variableValues: this.variables,
    };
  }

  /** Record a field (or list item) error; a nullable position becomes null, a non-null one bubbles. */
  private fail(field: FieldPlan, error: unknown, pos: Pos | undefined, key: string | number = field.key, c: Completion = field.completion): Completed {
    this.errors.push(locatedError(error, field.nodes, pathAt(pos, key)));
    return c.nonNull ? BUBBLE : null;
  }

  /**
   * Complete `value` for completion `c` of `field`; `prev` is the position of the object the
   * field belongs to, `holder[key]` where the value will sit. Returns the value or BUBBLE.
   */
  private value(c: Completion, value: unknown, field: FieldPlan, prev: Pos | undefined, holder: Obj | unknown[], key: string | number): Completed {
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
        // Items an object builder completes whole need no position: it is made for the first that does not.
        const whole = item.kind === 'object' && item.selection.builder && !item.selection.builder.rest.length ? item.selection.builder : undefined;
        let pos: Pos | undefined;
        for (let i = 0; i < items.length; i++) {
          if (whole) {
            const v = items[i];
            const built = v === null || v === undefined || isThenable(v) ? undefined : whole.build(v);
            if (built) {
              list[i] = built;
              this.spend(whole.values + 1);
              continue;
            }
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

  private error(c: Completion, message: string, field: FieldPlan, prev: Pos | undefined, key: string | number): typeof BUBBLE | null {
    this.errors.push(locatedError(new GraphQLError(message), field.nodes, pathAt(prev, key)));
    return c.nonNull ? BUBBLE : null;
  }
}

/** Whether nothing between `pos` and the root has been nulled. */
function reaches(pos: Pos | undefined): boolean {
  for (let p = pos; p; p = p.prev) if (p.dead) return false;
  return true;
}

function pathAt(prev: Pos | undefined, key: string | number): (string | number)[] {
  const path: (string | number)[] = [key];
  for (let p = prev; p; p = p.prev) path.push(p.key);
  return path.reverse();
}
