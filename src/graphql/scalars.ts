/**
 * Leaf types: the built-in scalars zod maps to, the `DateTime` scalar for `z.date()`, `JSON`
 * for free-form values (`z.json()`, `z.unknown()`, `z.any()`), `BigInt` for `z.bigint()`, and
 * GraphQL enums for zod enums (named by `.meta({ id })`, since GraphQL types need a name).
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLError,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  valueFromASTUntyped,
  type GraphQLLeafType,
} from 'graphql';
import { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import { DATETIME_TYPE } from './names.js';

type Def = {
  type: string;
  format?: string;
  checks?: { _zod: { def: { format?: string } } }[];
  entries?: Record<string, unknown>;
  options?: z.ZodType[];
};
export const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const INT_FORMATS = new Set(['safeint', 'int32', 'uint32']);

function isInt(def: Def): boolean {
  if (def.format && INT_FORMATS.has(def.format)) return true;
  return (def.checks ?? []).some((c) => INT_FORMATS.has(c._zod.def.format ?? ''));
}

const UUID_FORMATS = new Set(['uuid', 'guid']);

function isUuid(def: Def): boolean {
  if (def.format && UUID_FORMATS.has(def.format)) return true;
  return (def.checks ?? []).some((c) => UUID_FORMATS.has(c._zod.def.format ?? ''));
}

function parseDate(value: unknown): Date {
  const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}: expected an ISO-8601 date-time string`);
  }
  return date;
}

export const GraphQLDateTime = new GraphQLScalarType<Date, string>({
  name: DATETIME_TYPE,
  description: 'An ISO-8601 date-time string, e.g. 2024-05-01T12:00:00.000Z',
  serialize: (value) => parseDate(value).toISOString(),
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError(`DateTime must be a string, got ${JSON.stringify(value)}`);
    return parseDate(value);
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string literal', { nodes: ast });
    return parseDate(ast.value);
  },
});

export const JSON_TYPE = 'JSON';
export const BIGINT_TYPE = 'BigInt';

const describe = (value: unknown) => (typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value)));

/**
 * A JSON value as it goes on the wire: `toJSON` is honoured (a `Date` inside becomes its ISO
 * string, as `JSON.stringify` would make it), and anything JSON cannot carry faithfully
 * (bigint, NaN, functions, undefined inside arrays) is an error instead of a silent change.
 */
function jsonValue(value: unknown, path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new GraphQLError(`JSON cannot represent the number ${value} at ${path}`);
  }
  if (typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return jsonValue(toJSON.call(value), path);
    if (Array.isArray(value)) return value.map((item, i) => jsonValue(item, `${path}[${i}]`));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = jsonValue(item, `${path}.${key}`); // JSON.stringify drops them too
    }
    return out;
  }
  throw new GraphQLError(`JSON cannot represent ${describe(value)} (${typeof value}) at ${path}`);
}

/** Free-form data: json/jsonb columns, `z.json()`, `z.unknown()`. */
export const GraphQLJSON = new GraphQLScalarType<unknown, unknown>({
  name: JSON_TYPE,
  description: 'Any JSON value: object, array, string, number, boolean or null',
  serialize: (value) => jsonValue(value, '$'),
  parseValue: (value) => jsonValue(value, '$'),
  // Object and list literals may hold variables: `{ tags: [$tag] }`.
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables ?? undefined),
});

const DECIMAL = /^-?\d+$/;

function toBigInt(value: unknown, literal = false): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  // A literal's digits are exact; a string is how clients send values past 2^53.
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return BigInt(value.trim());
  const hint = typeof value === 'number' && Number.isInteger(value) && !literal ? ' (past 2^53 a JSON number has lost digits: send a string)' : '';
  throw new GraphQLError(`BigInt cannot represent ${describe(value)}: expected a decimal integer string or a safe integer${hint}`);
}

/**
 * 64-bit (and wider) integers. Serialised as a decimal string because JSON numbers in
 * JavaScript clients lose digits past 2^53; accepted as a string or, when safe, a number.
 */
export const GraphQLBigInt = new GraphQLScalarType<bigint, string>({
  name: BIGINT_TYPE,
  description: 'An integer of any size, serialised as a decimal string, e.g. "9007199254740993"',
  serialize: (value) => toBigInt(value).toString(),
  parseValue: (value) => toBigInt(value),
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return toBigInt(ast.value, true);
    throw new GraphQLError('BigInt must be an integer or a decimal string literal', { nodes: ast });
  },
});

const JSON_OPTION_TYPES = ['string', 'number', 'boolean', 'null', 'array', 'record'];

/**
 * `z.json()` is a lazy union of exactly these six options (`describeField` already looked
 * through the lazy); recognising the shape keeps it from being mistaken for a user's union.
 */
function isJsonUnion(def: Def): boolean {
  const types = (def.options ?? []).map((o) => defOf(o).type).sort();
  return def.type === 'union' && types.length === JSON_OPTION_TYPES.length && [...JSON_OPTION_TYPES].sort().every((t, i) => types[i] === t);
}

/**
 * Whether the base itself admits `null` (free-form JSON does): its GraphQL type then has no
 * `!`, or a JSON `null` stored in a NOT NULL jsonb column could not be returned.
 */
export function acceptsNull(base: z.ZodType): boolean {
  const def = defOf(base);
  return def.type === 'unknown' || def.type === 'any' || isJsonUnion(def);
}

/** The built-in leaf a zod base maps to, or undefined when it is not a plain scalar. */
export function scalarFor(base: z.ZodType): GraphQLLeafType | undefined {
  const def = defOf(base);
  switch (def.type) {
    case 'string':
      // GraphQL's ID is "a unique identifier serialised as a string": clients cache by it.
      return isUuid(def) ? GraphQLID : GraphQLString;
    case 'number':
      return isInt(def) ? GraphQLInt : GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'date':
      return GraphQLDateTime;
    case 'bigint':
      return GraphQLBigInt;
    case 'unknown':
    case 'any':
      return GraphQLJSON;
    case 'union':
      return isJsonUnion(def) ? GraphQLJSON : undefined;
    default:
      return undefined;
  }
}

export function isZodEnum(base: z.ZodType): boolean {
  return defOf(base).type === 'enum';
}

/** The `.meta({ id })` a schema was registered with, if any. */
export function metaId(schema: z.ZodType): string | undefined {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? id : undefined;
}

const ENUM_VALUE = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A GraphQL enum for a zod enum; `where` names the field for error messages. */
export function enumTypeFor(base: z.ZodType, name: string, where: string): GraphQLEnumType {
  const entries = defOf(base).entries ?? {};
  const values: Record<string, { value: unknown }> = {};
  for (const [key, value] of Object.entries(entries)) {
    const valueName = typeof value === 'string' ? value : key;
    if (!ENUM_VALUE.test(valueName) || ['true', 'false', 'null'].includes(valueName)) {
      throw new ConfigError(`${where}: enum ${name} value '${valueName}' is not a valid GraphQL enum value name`);
    }
    values[valueName] = { value };
  }
  return new GraphQLEnumType({ name, description: base.description, values });
}

/** Two zod enums may share a GraphQL name only when they hold the same values. */
export function sameEnum(a: z.ZodType, b: z.ZodType): boolean {
  const x = Object.values(defOf(a).entries ?? {});
  const y = Object.values(defOf(b).entries ?? {});
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
