/**
 * What differs between graphql 16 and 17, in one place.
 *
 * Coerced variable values. graphql-js's own functions
 * (`getArgumentValues`, `getDirectiveValues`) and `info.variableValues` take them in the installed
 * version's shape — graphql 16 a plain record of coerced values, graphql 17 `{ sources, coerced }`
 * — so the executors pass that shape along untouched and read plain values through `coercedValues`.
 */
import {
  getVariableValues,
  valueFromASTUntyped,
  type ConstValueNode,
  type ExecutionArgs,
  versionInfo,
  type GraphQLError,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import type { Budget } from './budget.js';

/** Coerced variables in the shape the installed graphql-js takes them. */
export type Variables = GraphQLResolveInfo['variableValues'];

/** graphql 17 wraps coerced values; `versionInfo` is the installed version's own. */
const WRAPPED = versionInfo.major >= 17;

type Coerced = Readonly<Record<string, unknown>>;

export const NO_VARIABLES: Variables = (WRAPPED ? Object.freeze({ sources: Object.freeze({}), coerced: Object.freeze({}) }) : Object.freeze({})) as unknown as Variables;

/** The request's variables coerced against the operation's definitions, or the errors that refuse them. */
export function coerceVariables(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[] | undefined,
  inputs: Readonly<Record<string, unknown>> | null | undefined,
): { variables: Variables; errors?: undefined } | { errors: readonly GraphQLError[] } {
  if (!definitions?.length) return { variables: NO_VARIABLES };
  const result = getVariableValues(schema, definitions, inputs ?? {}, { maxErrors: 50 }) as unknown as {
    errors?: readonly GraphQLError[];
    coerced?: Variables; // graphql 16
    variableValues?: Variables; // graphql 17
  };
  if (result.errors) return { errors: result.errors };
  return { variables: (result.variableValues ?? result.coerced)! };
}

/** The plain coerced values (by variable name) of either shape. */
export const coercedValues = (variables: Variables): Coerced => (WRAPPED ? (variables as unknown as { coerced: Coerced }).coerced : (variables as unknown as Coerced));

/**
 * graphql 17's `execute` takes an `abortSignal` and stops calling resolvers once it fires: the
 * budget's, so a spent budget ends graphql-js's walk as it ends the compiled one. graphql 16 has
 * no such argument (and the signal would cost an AbortController per operation for nothing).
 */
export const abortable = (budget: Budget): Partial<ExecutionArgs> => (WRAPPED ? ({ abortSignal: budget.signal } as Partial<ExecutionArgs>) : {});

/** `info.getAbortSignal` (graphql 17) for resolve infos the compiled executor builds. */
export const infoSignal = (budget: Budget): Record<string, unknown> => (WRAPPED ? { getAbortSignal: () => budget.signal, getAsyncHelpers } : {});

/** graphql 17's `info.getAsyncHelpers()`: the compiled executor awaits what resolvers return, so tracking adds nothing. */
const ASYNC_HELPERS = Object.freeze({
  promiseAll: <T>(values: readonly (PromiseLike<T> | T)[]) => Promise.all(values),
  track: (promises: readonly unknown[]) => {
    for (const p of promises) if (p && typeof (p as PromiseLike<unknown>).then === 'function') Promise.resolve(p).catch(() => undefined);
  },
});
const getAsyncHelpers = () => ASYNC_HELPERS;

/**
 * graphql 17 looks every field up through `schema.getField`, which offers `__schema` and `__type`
 * only on `getQueryType()`; a schema whose query root is hidden behind `getRootType` (rootless.ts)
 * must offer them on that root, or validation answers `Cannot query field "__schema"`. graphql 16
 * looks fields up itself and finds them among the root's own fields.
 */
export function metaFieldsOnRoot(schema: GraphQLSchema, root: GraphQLObjectType): void {
  if (!WRAPPED) return;
  type GetField = (parent: unknown, name: string) => GraphQLField<unknown, unknown> | undefined;
  const own = (schema as unknown as { getField: GetField }).getField.bind(schema);
  const getField: GetField = (parent, name) => (parent === root && (name === '__schema' || name === '__type') ? root.getFields()[name] : own(parent, name));
  Object.defineProperty(schema, 'getField', { value: getField });
}

/**
 * An argument's or input field's declared default. graphql 16 keeps it in `defaultValue`;
 * graphql 17 in `default` — `{ value }`, or `{ literal }` for schemas built from SDL, whose
 * `defaultValue` stays undefined — and still honours a `defaultValue` given in code.
 */
interface Defaulted {
  defaultValue?: unknown;
  default?: { value?: unknown; literal?: ConstValueNode } | undefined;
}
const defaultOf = (input: Defaulted) => (WRAPPED ? input.default : undefined);

export const hasDefault = (input: Defaulted): boolean => input.defaultValue !== undefined || defaultOf(input) !== undefined;

/** The default as a plain value (a literal read without its type: enough for numbers, strings, lists). */
export function defaultValueOf(input: Defaulted): unknown {
  if (input.defaultValue !== undefined) return input.defaultValue;
  const declared = defaultOf(input);
  if (!declared) return undefined;
  return declared.literal ? valueFromASTUntyped(declared.literal) : declared.value;
}

/** The default to copy into a new argument or input field config, in the installed version's shape. */
export const defaultConfig = (input: Defaulted): { defaultValue?: unknown } =>
  WRAPPED ? ({ defaultValue: input.defaultValue, default: input.default } as { defaultValue?: unknown }) : { defaultValue: input.defaultValue };
