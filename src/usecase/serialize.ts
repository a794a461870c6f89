/**
 * Turning a service method's result into the JSON the route sends: validated against the declared
 * return schema, model instances written out by their declared fields (excluded ones left out),
 * so nothing undeclared ever reaches the wire.
 */
import { z } from 'zod';
import { isExcluded, isModelInstance, modelFields, type AnyModelClass } from '../er/model.js';
import { describeField } from '../er/schema.js';

export type Serialized = { ok: true; value: unknown } | { ok: false; issues: z.core.$ZodIssue[] };

type Path = (string | number)[];

class Mismatch extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('result does not match its declared type');
  }
}

const at = (path: Path, issues: z.core.$ZodIssue[]) => issues.map((i) => ({ ...i, path: [...path, ...i.path] }));

/** `null` and `undefined` always serialize to `null`: a use-case route answers "nothing" with 200, never 404. */
export function serializeResult(schema: z.ZodType, value: unknown): Serialized {
  if (value === null || value === undefined) return { ok: true, value: null };
  try {
    return { ok: true, value: write(schema, value, []) ?? null };
  } catch (error) {
    if (error instanceof Mismatch) return { ok: false, issues: error.issues };
    throw error;
  }
}

/** Validate `value` with `schema`, then write it out following the schema's structure. */
function write(schema: z.ZodType, value: unknown, path: Path): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    // A ref only reports "invalid input"; the model's own schema says which fields are wrong.
    const info = describeField(schema);
    if (info.model && value !== null && typeof value === 'object') {
      const kls = info.model();
      if (!info.list) writeModel(kls, value, path);
      else if (Array.isArray(value)) value.forEach((v, i) => v != null && writeModel(kls, v, [...path, i]));
    }
    throw new Mismatch(at(path, parsed.error.issues));
  }
  return emit(schema, parsed.data, path);
}

function emit(schema: z.ZodType, value: unknown, path: Path): unknown {
  if (value === null || value === undefined) return value;
  const info = describeField(schema);
  const item = (v: unknown, p: Path): unknown => {
    if (v === null || v === undefined) return v;
    if (info.model) return writeModel(info.model(), v, p);
    return emitPlain(info.base, v, p);
  };
  if (info.list && Array.isArray(value)) return value.map((v, i) => item(v, [...path, i]));
  return item(value, path);
}

/** A `ref(() => Model)` value: the ref only checked the class, so validate the fields here. */
function writeModel(kls: AnyModelClass, value: unknown, path: Path): Record<string, unknown> {
  const parsed = kls.schema.safeParse(value);
  if (!parsed.success) throw new Mismatch(at(path, parsed.error.issues));
  const data = parsed.data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { key, info } of modelFields(kls)) {
    if (!isExcluded(info)) out[key] = emit(info.schema, data[key], [...path, key]) ?? null;
  }
  return out;
}

type Def = { type: string; shape?: Record<string, z.ZodType> };

function emitPlain(base: z.ZodType, value: unknown, path: Path): unknown {
  const def = (base as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type === 'object' && def.shape && value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(def.shape)) {
      const v = emit(field, (value as Record<string, unknown>)[key], [...path, key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  return loose(value);
}

/**
 * Schemas this walker does not follow (unions, records, tuples...): still never leak model
 * internals. Also the leaf writer: bigint goes out as its decimal string, as GraphQL's `BigInt`
 * sends it (`JSON.stringify` throws on bigint, and a JSON number loses digits past 2^53).
 */
function loose(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(loose);
  if (isModelInstance(value)) {
    const kls = value.constructor as AnyModelClass;
    const out: Record<string, unknown> = {};
    for (const { key, info } of modelFields(kls)) {
      if (!isExcluded(info)) out[key] = loose((value as Record<string, unknown>)[key]) ?? null;
    }
    return out;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loose(v)]));
  }
  return value;
}
