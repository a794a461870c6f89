/**
 * Parsed arguments of a root method, kept per literal argument object of a compiled plan: a
 * client sending `getAll(limit: 10)` over and over had zod parse `{ limit: 10 }` on every call
 * (~13% of a 10-root operation's CPU profile, issue 31.1).
 *
 * Only where that cannot change what the method gets. Zod's parse of a value is a function of the
 * value alone when no user code runs in it: no transform or pipe, no refinement (`refine`,
 * `superRefine`, `check`), no `overwrite`, no `catch`. Defaults are user code too (a function
 * default runs on every parse), but they only run for a missing key: a result is kept only when
 * every key of the shape had a value, so no default ran. And only for shapes of primitive
 * values (strings, numbers, booleans, bigints, enums, literals, optional or nullable): the
 * method gets a fresh shallow copy each call, which is then as good as a fresh parse.
 */
import type { z } from 'zod';

type Shape = Readonly<Record<string, z.core.$ZodType>>;

/** Checks that only compare or test the value itself. */
const PURE_CHECKS = new Set([
  'greater_than',
  'less_than',
  'multiple_of',
  'number_format',
  'bigint_format',
  'max_length',
  'min_length',
  'length_equals',
  'string_format',
]);

/** Types whose parse of a primitive is the value, or an error. */
const PRIMITIVE_TYPES = new Set(['string', 'number', 'boolean', 'bigint', 'null', 'literal', 'enum']);

/** Wrappers that pass the value through (a default's value only runs for a missing key, see above). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'readonly', 'nonoptional']);

interface Def {
  type: string;
  checks?: readonly { _zod: { def: { check: string } } }[];
  /** A check kept on the def itself (`z.int()`: the number format). */
  check?: string;
  innerType?: z.core.$ZodType;
}

function pureValue(schema: z.core.$ZodType): boolean {
  const def = (schema._zod.def as unknown as Def);
  if (def.check !== undefined && !PURE_CHECKS.has(def.check)) return false;
  if (def.checks?.some((c) => !PURE_CHECKS.has(c._zod.def.check))) return false;
  if (WRAPPERS.has(def.type)) return def.innerType !== undefined && pureValue(def.innerType);
  return PRIMITIVE_TYPES.has(def.type);
}

/** Whether the parse of an argument object of `shape` may be kept (see above). */
export function cacheableShape(shape: Shape): boolean {
  return Object.values(shape).every(pureValue);
}

/** Whether every key of `shape` has a value in `input`: then no default ran. */
export function complete(shape: Shape, input: Readonly<Record<string, unknown>>): boolean {
  for (const key in shape) if (input[key] === undefined) return false;
  return true;
}
