/**
 * What resolvers, methods and loaders hand the executors in one oracle case: values for a
 * GraphQL output type, read off the schema, decided per identity by the case's dice (random.ts).
 * Most are valid; with the case's anomaly rate a position instead holds null, a value of the
 * wrong type, a non-iterable where a list belongs, a Set, a method (called by the default
 * resolver) that returns or throws, or a thenable that resolves or rejects a few ticks later.
 */
import {
  getNamedType,
  GraphQLError,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import type { Dice } from './random.js';

/** One case's runtime choices; both executors run the case with the same one. */
export interface CaseEnv {
  readonly dice: Dice;
  /** Probability that a position holds an anomaly instead of a valid value. */
  readonly rate: number;
  /** Mutation methods in the order they ran (mutations must run in document order). */
  readonly calls: string[];
}

/**
 * Where a value sits: a property read by the default resolver, what a resolver or method
 * returned, a list item, a loader's value for one key, or what a thenable settled with.
 */
export type Where = 'prop' | 'result' | 'item' | 'loaded' | 'settled';

// Objects the oracle made, by identity: resolvers of contributed fields decide by their parent's.
const labels = new WeakMap<object, string>();

export function labelOf(value: unknown): string {
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') return labels.get(value as object) ?? 'foreign';
  return `${typeof value}:${String(value)}`;
}

const VALID: Record<string, readonly unknown[]> = {
  Int: [0, 1, 7, -3, 2147483647],
  Float: [0, 1.5, -2.25, 3],
  String: ['', 'a', 'héllo', 'x y'],
  Boolean: [true, false],
  ID: ['id-1', 42],
  DateTime: [new Date(0), '2024-05-01T12:00:00.000Z', 1_700_000_000_000],
  BigInt: [12n, 9_007_199_254_740_993n, '123', 5],
  JSON: [{ a: 1, b: [true, null] }, [1, 'x'], 'str', 3, null],
};

const WRONG: Record<string, readonly unknown[]> = {
  Int: ['x', 1.5, 2 ** 40, {}, [1]],
  Float: ['x', Number.NaN, {}, Number.POSITIVE_INFINITY],
  String: [{}, [1], { valueOf: () => 'v' }],
  Boolean: ['yes', 2, {}],
  ID: [true, {}, 1.5],
  DateTime: ['not a date', {}, Number.NaN],
  BigInt: [1.5, 'x', 2 ** 60],
  JSON: [Number.NaN, 10n, { a: Number.POSITIVE_INFINITY }],
};
const WRONG_ENUM = ['PURPLE', 1, 'red'];
const WRONG_OBJECT = ['oops', 12, true, []];
const NON_ITERABLE = [5, {}, 'abc', true];

export function thrown(env: CaseEnv, id: string): unknown {
  switch (env.dice.pick(id, 5, 'thrown')) {
    case 0:
      return new GraphQLError(`refused ${id}`);
    case 1:
      return 'a string was thrown';
    case 2:
      return new GraphQLError(`refused ${id}`, { extensions: { code: 'REFUSED' } });
    default:
      return new Error(`internal detail of ${id}`);
  }
}

/** A thenable that settles a few microtasks (or a macrotask) after each `then`: no promise exists before. */
export function later(env: CaseEnv, id: string, settle: () => unknown, fails: boolean): PromiseLike<unknown> {
  const ticks = env.dice.pick(id, 4, 'ticks');
  return {
    then(onFulfilled, onRejected) {
      const p = new Promise<unknown>((resolve, reject) => {
        const go = () => {
          try {
            if (fails) reject(thrown(env, id));
            else resolve(settle());
          } catch (error) {
            reject(error);
          }
        };
        if (ticks === 3) setImmediate(go);
        else {
          let chain: Promise<void> = Promise.resolve();
          for (let i = 0; i < ticks; i++) chain = chain.then(() => undefined);
          void chain.then(go);
        }
      });
      return p.then(onFulfilled, onRejected);
    },
  };
}

/** The value at `id` for `type`. */
export function valueOf(env: CaseEnv, type: GraphQLOutputType, id: string, depth: number, where: Where): unknown {
  const nonNull = isNonNullType(type);
  const inner = nonNull ? (type.ofType as GraphQLOutputType) : type;
  if (env.dice.roll(id, 'anomaly') < env.rate) {
    const anomaly = anomalyOf(env, inner, id, depth, nonNull ? `${where}!` : where);
    if (anomaly !== NONE) return anomaly;
  }
  return validValue(env, inner, id, depth);
}

const NONE: unique symbol = Symbol('none');

function anomalyOf(env: CaseEnv, type: GraphQLOutputType, id: string, depth: number, at: string): unknown {
  const where = at.replace('!', '') as Where;
  const kinds = ['null', 'wrong'];
  if (isListType(type)) kinds.push('nonIterable', 'set');
  if (where === 'prop') kinds.push('method', 'methodThrows', 'thenable', 'rejects');
  if (where === 'result') kinds.push('thenable', 'rejects');
  // Only where items may be null: graphql-js 16 leaves the rejection of a pending non-null item
  // unhandled when a later item fails synchronously (completeListValue does not wait for it).
  if (at === 'item') kinds.push('thenable');
  if (where === 'loaded') kinds.push('error', 'thenable');
  const next = `${id}'`;
  switch (env.dice.oneOf(id, kinds, 'kind')) {
    case 'null':
      return env.dice.roll(id, 'undef') < 0.3 ? undefined : null;
    case 'wrong':
      return wrongValue(env, type, id);
    case 'nonIterable':
      return env.dice.oneOf(id, NON_ITERABLE, 'nonIterable');
    case 'error': {
      const error = thrown(env, id);
      return error instanceof Error ? error : new Error(String(error));
    }
    case 'set':
      return new Set(validValue(env, type, id, depth) as unknown[]);
    case 'method': {
      const method = () => valueOf(env, type, next, depth, 'result');
      labels.set(method, id);
      return method;
    }
    case 'methodThrows':
      return () => {
        throw thrown(env, id);
      };
    case 'thenable':
      return later(env, id, () => valueOf(env, type, next, depth, 'settled'), false);
    case 'rejects':
      return later(env, id, () => null, true);
  }
  return NONE;
}

function wrongValue(env: CaseEnv, type: GraphQLOutputType, id: string): unknown {
  if (isListType(type)) return env.dice.oneOf(id, NON_ITERABLE, 'wrong');
  const named = getNamedType(type) as GraphQLNamedType;
  if (isObjectType(named)) return env.dice.oneOf(id, WRONG_OBJECT, 'wrong');
  if (isEnumType(named)) return env.dice.oneOf(id, WRONG_ENUM, 'wrong');
  return env.dice.oneOf(id, WRONG[named.name] ?? WRONG.String!, 'wrong');
}

function validValue(env: CaseEnv, type: GraphQLOutputType, id: string, depth: number): unknown {
  if (isNonNullType(type)) return validValue(env, type.ofType as GraphQLOutputType, id, depth);
  if (isListType(type)) {
    const length = depth > 6 ? 0 : env.dice.pick(id, 4, 'length');
    return Array.from({ length }, (_, i) => valueOf(env, type.ofType as GraphQLOutputType, `${id}[${i}]`, depth + 1, 'item'));
  }
  if (isObjectType(type)) return depth > 6 ? null : objectValue(env, type, id, depth);
  if (isEnumType(type)) return env.dice.oneOf(id, type.getValues().map((v) => v.value), 'enum');
  return env.dice.oneOf(id, VALID[type.name] ?? VALID.String!, 'valid');
}

/**
 * An object of `type` whose plain fields are read lazily (a getter per field, its value made
 * once): objects of cyclic models are only as deep as a document reads them.
 */
export function objectValue(env: CaseEnv, type: GraphQLObjectType, id: string, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  labels.set(out, id);
  for (const field of Object.values(type.getFields())) {
    if (field.resolve || field.extensions.ergraph) continue; // relationships and contributed fields resolve themselves
    let made = false;
    let value: unknown;
    Object.defineProperty(out, field.name, {
      enumerable: true,
      get() {
        if (!made) {
          value = valueOf(env, field.type, `${id}.${field.name}`, depth + 1, 'prop');
          made = true;
        }
        return value;
      },
    });
  }
  return out;
}
