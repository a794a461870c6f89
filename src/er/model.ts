/**
 * Models: classes whose fields are declared once as a zod shape. Instances carry the shape's
 * typed fields; the statics expose the zod object schema. Construction copies and defaults
 * fields without validating (the resolver builds many instances from trusted loader results);
 * `Model.parse(data)` validates untrusted input first.
 */
import { z } from 'zod';
import { util as zodUtil } from 'zod/v4/core';
import { className, nameFromDecoratorContext } from './names.js';
import type { AnyModelClass, ModelClass } from './model-class.js';
import { describeField, findMarker, Annotated, type FieldInfo, type Marker } from './schema.js';

export type { AnyModelClass, ModelClass, ModelInput, ModelInstance, ModelStatics } from './model-class.js';

/** The object a model instance was built from; lets the resolver read FK fields a subset left out. */
export const SOURCE: unique symbol = Symbol('ergraph.source');

const MODEL = Symbol('ergraph.model');

interface FieldPlan {
  key: string;
  info: FieldInfo;
}

const plans = new WeakMap<object, FieldPlan[]>();

/** The fields of a model class, in declaration order (cached: classes do not change shape). */
export function modelFields(kls: AnyModelClass): ReadonlyArray<FieldPlan> {
  let plan = plans.get(kls);
  if (!plan) {
    plan = Object.entries(kls.shape).map(([key, schema]) => ({ key, info: describeField(schema as z.ZodType) }));
    plans.set(kls, plan);
  }
  return plan;
}

export function isModelClass(value: unknown): value is AnyModelClass {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[MODEL] === true;
}

export function isModelInstance(value: unknown): value is InstanceType<AnyModelClass> {
  return value !== null && typeof value === 'object' && isModelClass(value.constructor);
}

/** Turn a loaded value into an instance of the field's model class (subsets copy from their source). */
export function toModel(kls: AnyModelClass, value: unknown): unknown {
  if (value === null || value === undefined || value instanceof kls) return value;
  return new (kls as unknown as new (data: unknown) => unknown)(value);
}

function convert(info: FieldInfo, value: unknown): unknown {
  if (!info.model || value === null || value === undefined) return value;
  const kls = info.model();
  if (info.list && Array.isArray(value)) return value.map((item) => toModel(kls, item));
  return toModel(kls, value);
}

/**
 * Whether per-class code may be compiled with `new Function`: where zod compiles its own parsers,
 * so not under a CSP that forbids it, on Cloudflare Workers, or with `z.config({ jitless: true })`.
 */
export const mayCompile = (): boolean => !z.config().jitless && zodUtil.allowsEval.value;

/**
 * Sets every field of a new instance from its data: the value, else the default, else null if
 * nullable; a field with none of these (a column a pruned loader did not read) is left off, not
 * stored as `undefined`: reading it gives `undefined` either way, and an instance of 3 of a
 * 30-column table's fields is then a small object (20,000 of them: ~11 → ~1 ms, and less garbage).
 */
type CopyFields = (self: Record<string, unknown>, source: Record<string, unknown>) => void;

const copiers = new WeakMap<object, CopyFields>();

function copyFields(kls: AnyModelClass): CopyFields {
  let copy = copiers.get(kls);
  if (!copy) {
    const fields = modelFields(kls);
    copy = mayCompile() ? compiledCopy(fields) : loopCopy(fields);
    copiers.set(kls, copy);
  }
  return copy;
}

const fallback = (info: FieldInfo): unknown => (info.hasDefault ? info.defaultValue() : info.nullable ? null : undefined);

function loopCopy(fields: ReadonlyArray<FieldPlan>): CopyFields {
  return (self, source) => {
    for (const { key, info } of fields) {
      const value = source[key];
      if (value !== undefined) self[key] = convert(info, value);
      else if (info.hasDefault || info.nullable) self[key] = convert(info, fallback(info));
    }
  };
}

/**
 * The same copy written out for one class, one statement per field with the key in the text.
 * Loaders build thousands of instances per batch, and a loop's `self[key] = ...` with a
 * different key each time makes every store a generic one: for a four-column table model the
 * loop took about four times as long per row. Only where `mayCompile()`; the loop serves elsewhere.
 */
function compiledCopy(fields: ReadonlyArray<FieldPlan>): CopyFields {
  const lines = fields.map(({ key, info }, i) => {
    const name = JSON.stringify(key);
    const missing = info.hasDefault ? `fields[${i}].info.defaultValue()` : info.nullable ? 'null' : undefined;
    const value = info.model ? `convert(fields[${i}].info, v)` : 'v';
    if (missing) return `v = source[${name}]; if (v === undefined) v = ${missing}; self[${name}] = ${value};`;
    return `v = source[${name}]; if (v !== undefined) self[${name}] = ${value};`;
  });
  const make = new Function('fields', 'convert', `return function copyFields(self, source) {\n  let v;\n  ${lines.join('\n  ')}\n};`);
  return make(fields, convert) as CopyFields;
}

export function model<S extends z.ZodRawShape>(shape: S): ModelClass<S> {
  let schema: z.ZodObject<S> | undefined;
  // The copier of the class last constructed from this base: a loader builds thousands of
  // instances of one class in a row, and a WeakMap lookup for each was ~40% of building them
  // (5,000 instances of a 4-column table model: ~80 → ~48 µs). A subclass gets its own copier,
  // looked up again whenever the class constructed changes.
  let lastClass: unknown;
  let lastCopy: CopyFields | undefined;
  class Model {
    static readonly [MODEL] = true;
    static readonly shape = shape;
    static get schema(): z.ZodObject<S> {
      return (schema ??= z.object(shape));
    }
    static parse(this: AnyModelClass, data: unknown) {
      return new (this as unknown as new (d: unknown) => unknown)(this.schema.parse(data));
    }
    // The data an instance was made from (hidden keys and FKs the shape leaves out are read from
    // it). A private field behind a prototype getter: as cheap as a plain property, yet not
    // enumerable and never copied; Object.defineProperty per instance cost about a tenth of
    // building a 6,000-row page.
    #source: object | undefined;
    get [SOURCE](): object | undefined {
      return #source in this ? this.#source : undefined;
    }
    constructor(data?: object) {
      if (new.target !== lastClass) {
        lastCopy = copyFields(new.target as unknown as AnyModelClass);
        lastClass = new.target;
      }
      lastCopy!(this as unknown as Record<string, unknown>, (data ?? {}) as Record<string, unknown>);
      this.#source = data;
    }
  }
  return Model as unknown as ModelClass<S>;
}

const EXCLUDE: Marker = { kind: 'exclude' };

/** Leave a field out of serialized output (`toJSON()` and `jsonSchema()` of `@serialization` models). */
export function exclude<S extends z.ZodType>(schema: S): S {
  return Annotated(schema, EXCLUDE);
}

export const isExcluded = (info: FieldInfo) => findMarker(info, 'exclude') !== undefined;

function serialize(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(serialize);
  // Nested models follow the root's rules whether or not they were decorated themselves.
  if (isModelInstance(value)) {
    return toPlain(value as Record<string, unknown>);
  }
  return value;
}

function toPlain(obj: Record<string, unknown>): Record<string, unknown> {
  const kls = obj.constructor as AnyModelClass;
  const out: Record<string, unknown> = {};
  for (const { key, info } of modelFields(kls)) {
    if (!isExcluded(info)) out[key] = serialize(obj[key]);
  }
  return out;
}

type JsonSchema = Record<string, unknown>;

/**
 * A bigint in JSON: a decimal string, as GraphQL's `BigInt` scalar sends it (a JSON number loses
 * digits past 2^53, and `JSON.stringify` throws on bigint).
 */
export const BIGINT_JSON_SCHEMA = { type: 'string', pattern: '^-?\\d+$', format: 'int64' } as const;
const isBigInt = (schema: unknown) =>
  (schema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'bigint';

function fieldJsonSchema(info: FieldInfo, defs: Record<string, JsonSchema>): JsonSchema {
  let item: JsonSchema;
  if (info.model) {
    const kls = info.model();
    const name = className(kls);
    if (!(name in defs)) {
      defs[name] = {}; // placeholder first: models may reference each other in cycles
      defs[name] = objectJsonSchema(kls, defs);
    }
    item = { $ref: `#/$defs/${name}` };
  } else {
    const { $schema: _, deprecationReason: __, ...rest } = z.toJSONSchema(info.base, {
      io: 'output',
      unrepresentable: 'any',
      override: (ctx) => {
        if (isBigInt(ctx.zodSchema)) Object.assign(ctx.jsonSchema, BIGINT_JSON_SCHEMA);
      },
    }) as JsonSchema;
    item = rest;
  }
  if (info.list) {
    item = { type: 'array', items: info.itemNullable ? { anyOf: [item, { type: 'null' }] } : item };
  }
  if (info.nullable || info.optional) item = { anyOf: [item, { type: 'null' }] };
  if (info.description) item.description = info.description;
  if (info.deprecationReason) item.deprecated = true;
  return item;
}

function objectJsonSchema(kls: AnyModelClass, defs: Record<string, JsonSchema>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const { key, info } of modelFields(kls)) {
    if (!isExcluded(info)) properties[key] = fieldJsonSchema(info, defs);
  }
  // Serialization mode: every field that is written out is always present, so all are required.
  return { type: 'object', title: className(kls), properties, required: Object.keys(properties), additionalProperties: false };
}

/** JSON schema of a model's serialized form (excluded fields left out, all others required). */
export function jsonSchema(kls: AnyModelClass): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  const root = objectJsonSchema(kls, defs);
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

export interface Serializable {
  jsonSchema(): JsonSchema;
}

/**
 * Make `toJSON()` of a model (and of the models nested in it) leave excluded fields out, and give
 * the class a `jsonSchema()` that describes exactly that output. Works as a standard decorator,
 * a legacy decorator, or a plain call `serialization(Out)`.
 */
export function serialization<C extends AnyModelClass>(kls: C, context?: unknown): C {
  nameFromDecoratorContext(kls, context); // a standard decorator knows the class name as written
  Object.defineProperty(kls.prototype, 'toJSON', {
    value(this: Record<string, unknown>) {
      return toPlain(this);
    },
    configurable: true,
    writable: true,
  });
  Object.defineProperty(kls, 'jsonSchema', {
    value: () => jsonSchema(kls),
    configurable: true,
    writable: true,
  });
  return kls;
}
