/**
 * Reading zod schemas: markers attached with `Annotated`, lazy model references made by `ref`,
 * and the wrapper layers (optional, nullable, default, array) a field is built from. Everything
 * that turns a field into something else (GraphQL types, JSON schema, auto-loading) goes through
 * `describeField` so the wrappers are peeled in exactly one place.
 */
import { z } from 'zod';
import type { AnyModelClass } from './model-class.js';

export type Marker = { readonly kind: string };

const markers = new WeakMap<z.ZodType, Marker[]>();
const refs = new WeakMap<z.ZodType, () => AnyModelClass>();

/** Attach markers to a field schema, the analog of Python's `Annotated[T, ...]`. */
export function Annotated<S extends z.ZodType>(schema: S, ...marks: Marker[]): S {
  markers.set(schema, [...(markers.get(schema) ?? []), ...marks]);
  return schema;
}

export function markersOf(schema: z.ZodType): readonly Marker[] {
  return markers.get(schema) ?? [];
}

/**
 * A field holding an instance of another model. The thunk defers the lookup so models can
 * reference each other in cycles and before they are declared.
 */
export function ref<M extends AnyModelClass>(thunk: () => M): z.ZodType<InstanceType<M>>;
/**
 * A model whose own shape refers back to it cannot have its type inferred: TypeScript reports
 * the class as referenced in its own base expression, even through the class's instance type.
 * Name the field's type with an interface instead:
 * `parent: ref<TreeNodeData>((): AnyModelClass => TreeNode)`.
 */
export function ref<T extends object>(thunk: () => AnyModelClass): z.ZodType<T>;
export function ref(thunk: () => AnyModelClass): z.ZodType {
  const target = () => materialized(thunk());
  const schema = z.custom((value) => {
    if (value === null || typeof value !== 'object') return false;
    const kls = target();
    return value instanceof kls || kls.schema.safeParse(value).success;
  });
  refs.set(schema, target);
  return schema;
}

/**
 * A remote type marker (`reviews.ReviewDTO` of `ergraph/federation`) is not a class: it names
 * one that `federate()` builds later. It carries this method, which returns that class or
 * throws when federation has not run; the core needs no federation import to follow it.
 */
export const MATERIALIZE: unique symbol = Symbol.for('ergraph.materialize') as never;

function materialized<M>(value: M): M {
  const resolve = (value as { [MATERIALIZE]?: unknown } | null | undefined)?.[MATERIALIZE];
  return typeof resolve === 'function' ? (resolve as () => M)() : value;
}

/**
 * A distinct schema object that reads like `schema` (same definition, markers, model reference
 * and metadata), so markers can be added to the copy without touching the original.
 */
export function copyField<S extends z.ZodType>(schema: S): S {
  const copy = schema.clone() as S;
  const marks = markers.get(schema);
  if (marks) markers.set(copy, [...marks]);
  const target = refs.get(schema);
  if (target) refs.set(copy, target);
  return copy;
}

export function refTarget(schema: z.ZodType): (() => AnyModelClass) | undefined {
  return refs.get(schema);
}

/** What a field is, with its wrappers peeled. */
export interface FieldInfo {
  schema: z.ZodType;
  /** The innermost schema (the item schema for lists). */
  base: z.ZodType;
  nullable: boolean;
  optional: boolean;
  hasDefault: boolean;
  defaultValue: () => unknown;
  list: boolean;
  itemNullable: boolean;
  /** Set when the base is a `ref(() => Model)`. */
  model?: () => AnyModelClass;
  markers: Marker[];
  description?: string;
  /**
   * Set when the field is deprecated: zod metadata `.meta({ deprecated: true, deprecationReason })`
   * on the field or any of its wrappers (the reason defaults to GraphQL's 'No longer supported').
   */
  deprecationReason?: string;
}

/** GraphQL's default reason, for a field marked `deprecated: true` without one. */
export const DEFAULT_DEPRECATION_REASON = 'No longer supported';

/** The deprecation a schema's own zod metadata declares, if any. */
export function deprecationOf(schema: z.ZodType): string | undefined {
  const meta = z.globalRegistry.get(schema);
  if (!meta) return undefined;
  const reason = meta.deprecationReason;
  if (typeof reason === 'string' && reason.trim() !== '') return reason;
  return meta.deprecated === true ? DEFAULT_DEPRECATION_REASON : undefined;
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; defaultValue?: unknown; in?: z.ZodType };

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

export function describeField(schema: z.ZodType): FieldInfo {
  const info: FieldInfo = {
    schema,
    base: schema,
    nullable: false,
    optional: false,
    hasDefault: false,
    defaultValue: () => undefined,
    list: false,
    itemNullable: false,
    markers: [],
    description: schema.description,
  };
  let current: z.ZodType = schema;
  let inList = false;
  for (;;) {
    info.markers.push(...markersOf(current));
    info.description ??= current.description;
    info.deprecationReason ??= deprecationOf(current);
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'nullable') {
      if (inList) info.itemNullable = true;
      else if (def.type === 'optional') info.optional = true;
      else info.nullable = true;
      current = def.innerType!;
    } else if (def.type === 'default' || def.type === 'prefault') {
      if (!inList && !info.hasDefault) {
        info.hasDefault = true;
        const d = def;
        info.defaultValue = () => {
          const v = d.defaultValue;
          return typeof v === 'function' ? (v as () => unknown)() : structuredClone(v);
        };
      }
      current = def.innerType!;
    } else if (def.type === 'readonly' || def.type === 'catch' || def.type === 'nonoptional') {
      current = def.innerType!;
    } else if (def.type === 'pipe') {
      current = def.in!;
    } else if (def.type === 'lazy') {
      current = (current as unknown as { _zod: { innerType: z.ZodType } })._zod.innerType;
    } else if (def.type === 'array' && !inList) {
      info.list = true;
      inList = true;
      current = def.element!;
    } else {
      break;
    }
  }
  info.base = current;
  info.model = refTarget(current);
  return info;
}

export function findMarker<M extends Marker>(info: FieldInfo, kind: M['kind']): M | undefined {
  return info.markers.find((m) => m.kind === kind) as M | undefined;
}
