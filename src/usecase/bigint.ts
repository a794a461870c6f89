/**
 * `z.bigint()` over JSON, the way the GraphQL `BigInt` scalar carries it: written out as a
 * decimal string (a JSON number loses digits past 2^53, and `JSON.stringify` throws on bigint),
 * read from a decimal string or a safe integer. Only fields the schema types as bigint are
 * coerced on the way in, so a string sent for a `z.string()` field is never touched.
 */
import type { z } from 'zod';
import { modelFields } from '../er/model.js';
import { describeField } from '../er/schema.js';
import { defOf } from '../graphql/scalars.js';

const DECIMAL = /^-?\d+$/;


export const isBigIntSchema = (schema: z.ZodType) => defOf(schema).type === 'bigint';

/** `JSON.stringify` replacer: bigint as its decimal string. */
export const bigintReplacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/** A JSON-safe copy of a value that may hold bigints (zod issues carry `maximum: 10n`, say). */
export const jsonSafe = (value: unknown): unknown =>
  value === undefined ? value : JSON.parse(JSON.stringify(value, bigintReplacer));

function toBigInt(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return BigInt(value.trim());
  // Anything else is left for zod to reject with its usual issue.
  return value;
}

/** Coerce the bigint-typed parts of a JSON value read for `schema`, following its structure. */
export function coerceBigInts(schema: z.ZodType, value: unknown, seen: Set<unknown> = new Set()): unknown {
  if (value === null || value === undefined) return value;
  const info = describeField(schema);
  const item = (v: unknown): unknown => {
    if (v === null || v === undefined) return v;
    if (isBigIntSchema(info.base)) return toBigInt(v);
    if (typeof v !== 'object' || Array.isArray(v)) return v;
    if (info.model) return coerceShape(modelFields(info.model()).map(({ key, info: f }) => [key, f.schema] as const), v, seen);
    const def = defOf(info.base) as { type: string; shape?: Record<string, z.ZodType> };
    if (def.type === 'object' && def.shape) return coerceShape(Object.entries(def.shape), v, seen);
    return v;
  };
  if (info.list) return Array.isArray(value) ? value.map(item) : value;
  return item(value);
}

function coerceShape(fields: ReadonlyArray<readonly [string, z.ZodType]>, value: object, seen: Set<unknown>): object {
  // A request body is a tree, but guard against self-referencing models all the same.
  if (seen.has(value)) return value;
  seen.add(value);
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, schema] of fields) {
    if (key in out) out[key] = coerceBigInts(schema, out[key], seen);
  }
  return out;
}
