/**
 * Leaf types: the built-in scalars zod maps to, the `DateTime` scalar for `z.date()`, and
 * GraphQL enums for zod enums (named by `.meta({ id })`, since GraphQL types need a name).
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLError,
  GraphQLFloat,
  GraphQLInt,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type GraphQLLeafType,
} from 'graphql';
import { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import { DATETIME_TYPE } from './names.js';

type Def = { type: string; format?: string; checks?: { _zod: { def: { format?: string } } }[]; entries?: Record<string, unknown> };
export const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const INT_FORMATS = new Set(['safeint', 'int32', 'uint32']);

function isInt(def: Def): boolean {
  if (def.format && INT_FORMATS.has(def.format)) return true;
  return (def.checks ?? []).some((c) => INT_FORMATS.has(c._zod.def.format ?? ''));
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

/** The built-in leaf a zod base maps to, or undefined when it is not a plain scalar. */
export function scalarFor(base: z.ZodType): GraphQLLeafType | undefined {
  const def = defOf(base);
  switch (def.type) {
    case 'string':
      return GraphQLString;
    case 'number':
      return isInt(def) ? GraphQLInt : GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'date':
      return GraphQLDateTime;
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
