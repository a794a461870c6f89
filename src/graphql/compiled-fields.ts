/**
 * The compiled executor's fields: each resolved the way its plan says (a property, a resolver, a
 * root method, a relationship load), completed now when its value is there, or queued on the
 * level when it must be waited for: a promise, or a key that joins its loader's group.
 */
import { getArgumentValues, type GraphQLResolveInfo } from 'graphql';
import type DataLoader from 'dataloader';
import { BUBBLE, Completer, isThenable, type Completed, type Obj, type Pos } from './compiled-values.js';
import { keyOf, MISSING } from './keys.js';
import type { LoadSource } from './native.js';
import type { Completion, FieldPlan, Plan, Selection } from './plan.js';
import type { Run } from './run.js';
import { infoSignal, type Variables } from './versions.js';

/**
 * A field's loads at one level: what they share (every load of a field at a level joins one
 * group), kept once, not per load.
 */
export class Loading {
  constructor(
    readonly field: FieldPlan,
    readonly load: LoadSource,
    readonly group: LoadGroup,
  ) {}
}

/** A field (or list item) waiting for a promise; `completion` and `key` are a list item's, or the field's own when absent. */
export class Waiting {
  value: unknown;
  error: unknown;
  failed = false;
  constructor(
    readonly field: FieldPlan,
    readonly completion: Completion | undefined,
    readonly key: number | undefined,
  ) {}
}

/** All keys one loader gets at one level. */
export interface LoadGroup {
  loader: DataLoader<unknown, unknown>;
  keys: unknown[];
  /**
   * Each key's cache id (see `groupKey`), in the order of `keys`; undefined while every key is
   * a primitive, its own id (then `keys` is the list of ids).
   */
  ids: unknown[] | undefined;
  /** Position by id, made once the group outgrows a scan of the ids (see `positionOf`). */
  index: Map<unknown, number> | undefined;
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

/** Entries per queued field in a chunk of `Level.queue`. */
export const STRIDE = 4;

/**
 * Entries per chunk: an array grown by `push` stays below V8's large-object size (128 kB, 16,384
 * pointers), so it is copied within the young generation, not promoted whole with everything
 * it holds when a scavenge finds it alive (issue 31.1).
 */
const CHUNK = 8192;

export class Level {
  /**
   * The fields queued to be completed by the next level, in order, in chunks of flat entries,
   * `STRIDE` each: its `Loading` or `Waiting`, the object (or list) the value goes into, that
   * container's position (undefined: the root), and a load's position in its group. Flat, not
   * an object per field: a 1,000-root operation queues thousands of loads, all alive until their
   * level completes, and an object literal per load was the largest part of what a scavenge
   * inside an operation found alive (issue 31.1).
   */
  readonly queue: unknown[][] = [];
  private tail: unknown[] | undefined;
  size = 0;
  /** Made with the level's first load (most levels of a small operation load nothing, or are its last). */
  groups: Map<DataLoader<unknown, unknown>, LoadGroup> | undefined;
  readonly waiting: Promise<void>[] = [];
  get empty(): boolean {
    return this.size === 0;
  }
  enqueue(queued: Loading | Waiting, out: Obj | unknown[], pos: Pos | undefined, at: number): void {
    let tail = this.tail;
    if (!tail || tail.length >= CHUNK) this.queue.push((tail = this.tail = []));
    tail.push(queued, out, pos, at);
    this.size++;
  }
}

/** Per run and field: argument values read from variables, and a load field's source. */
interface FieldRun {
  args?: Record<string, unknown>;
  argsError?: unknown;
  source?: LoadSource;
  sourceError?: unknown;
  /** The field's loads at the level it last loaded at, and that level. */
  level?: Level;
  loading?: Loading;
}

/**
 * Keys of a small group are found by a scan, not a Map: a level of a small operation has a few
 * keys per loader, and a Map's growth and stores were the hottest line of a 10-root operation's
 * profile (issue 31.1). Past this many keys the group gets its Map.
 */
const SCAN = 16;

function positionOf(group: LoadGroup, id: unknown): number | undefined {
  if (group.index) return group.index.get(id);
  // NaN is never `===` itself; the Map finds it (SameValueZero), as it did for every group.
  if (id !== id) return (group.index = indexOf(group)).get(id);
  const ids = group.ids ?? group.keys;
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return i;
  return undefined;
}

const indexOf = (group: LoadGroup) => new Map((group.ids ?? group.keys).map((k, i) => [k, i]));

const groupKey = (key: unknown) => (key !== null && typeof key === 'object' ? JSON.stringify(key) : key);

/** Resolves and completes fields, queueing on the current level what must be waited for. */
export abstract class FieldWalk extends Completer {
  protected level = new Level();
  private readonly fieldRuns: (FieldRun | undefined)[];

  constructor(
    plan: Plan,
    context: Run,
    protected readonly variables: Variables,
    protected readonly rootValue: unknown,
  ) {
    super(plan, context);
    this.fieldRuns = new Array(plan.fieldCount);
  }

  /** Complete an object's fields; queued ones get a placeholder so keys keep selection order. */
  protected object(selection: Selection, source: unknown, out: Obj, pos: Pos | undefined): Completed {
    for (const field of selection.fields) {
      const result = this.field(field, source, out, pos);
      if (result === BUBBLE) return BUBBLE;
    }
    return out;
  }

  protected override field(field: FieldPlan, source: unknown, out: Obj, pos: Pos | undefined): Completed {
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
        // Literal arguments are the plan's own object: the method may keep their parse.
        const stable = args === field.args;
        return this.resolved(field, source, out, pos, () => invoke(args, this.context, stable));
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
  protected argsFailed(field: FieldPlan, out: Obj, pos: Pos | undefined): Completed {
    const result = this.fail(field, this.fieldRun(field).argsError, pos);
    if (result === BUBBLE) return BUBBLE;
    out[field.key] = result;
    return undefined;
  }

  /** Call a resolver-like function: its value now, or later when it returns a promise. */
  protected resolved(field: FieldPlan, _source: unknown, out: Obj, pos: Pos | undefined, call: () => unknown): Completed {
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

  protected wait(field: FieldPlan, out: Obj | unknown[], pos: Pos | undefined, promise: PromiseLike<unknown>, item?: { c: Completion; key: number }): undefined {
    // `out` came from the selection's template or builder: the key is there, null, until completed.
    const waiting = new Waiting(field, item?.c, item?.key);
    this.level.enqueue(waiting, out, pos, 0);
    this.level.waiting.push(
      Promise.resolve(promise).then(
        (value) => {
          waiting.value = value;
        },
        (error: unknown) => {
          waiting.failed = true;
          waiting.error = error;
        },
      ),
    );
    return undefined;
  }

  protected load(field: FieldPlan, parent: unknown, out: Obj, pos: Pos | undefined): Completed {
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
    // The field's loads at this level, remembered on its run: its group found (and its fields
    // unioned) once per field and level, not per parent.
    let loading = run.level === this.level ? run.loading! : undefined;
    if (!loading) {
      let group = this.level.groups?.get(source.loader);
      if (!group) {
        const narrow = source.narrow;
        (this.level.groups ??= new Map()).set(source.loader, (group = { loader: source.loader, keys: [], ids: undefined, index: undefined, fields: narrow ? new Set() : null, narrow }));
      }
      if (group.fields) {
        if (!source.narrow) group.fields = null;
        else if (!group.fieldsFrom?.has(source)) {
          (group.fieldsFrom ??= new Set()).add(source);
          for (const name of source.narrow.fields) group.fields.add(name);
        }
      }
      run.level = this.level;
      run.loading = loading = new Loading(field, source, group);
    }
    const { group } = loading;
    const id = groupKey(key);
    let at = positionOf(group, id);
    if (at === undefined) {
      at = group.keys.length;
      // The first key that is not its own id: the ids so far are the keys.
      if (id !== key && !group.ids) group.ids = group.keys.slice();
      group.keys.push(key);
      group.ids?.push(id);
      if (group.index) group.index.set(id, at);
      else if (at >= SCAN) group.index = indexOf(group);
    }
    this.level.enqueue(loading, out, pos, at);
    return undefined;
  }

  private fieldRun(field: FieldPlan): FieldRun {
    let run = this.fieldRuns[field.id];
    if (!run) this.fieldRuns[field.id] = run = {};
    return run;
  }

  /** Argument values, read from variables once per run; undefined when they fail (see argsError). */
  protected args(field: FieldPlan, _pos: Pos | undefined): Record<string, unknown> | undefined {
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

  protected callProperty(field: FieldPlan, source: unknown, pos: Pos | undefined): unknown {
    // graphql-js's default resolver calls a function-valued property as a method.
    const args = this.args(field, pos);
    if (args === undefined) throw this.fieldRun(field).argsError;
    return (source as Record<string, (...a: unknown[]) => unknown>)[field.name]!(args, this.context, this.info(field, pos));
  }

  protected info(field: FieldPlan, pos: Pos | undefined): GraphQLResolveInfo {
    const { plan } = this;
    const info: Omit<GraphQLResolveInfo, 'getAbortSignal' | 'getAsyncHelpers'> = {
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
    return Object.assign(info, infoSignal(this.context.budget)) as unknown as GraphQLResolveInfo;
  }
}
