/**
 * Arguments: a zod raw shape becomes GraphQL arguments (defaults as default values, input
 * object types for nested objects and models), and the values graphql-js coerced are brought
 * back to what zod expects before the method's schema parses them.
 */
import {
  isNonNullType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import { z } from 'zod';
import { describeField, type FieldInfo } from '../er/schema.js';
import { upperFirst } from './names.js';
import { enumFor, unsupported } from './output.js';
import type { TypeRegistry } from './registry.js';
import { acceptsNull, defOf, isZodEnum, metaId, scalarFor } from './scalars.js';
import { className } from '../er/names.js';

type Shape = Readonly<Record<string, z.core.$ZodType>>;

/** GraphQL arguments for a raw shape; `hint` prefixes the names of anonymous input objects. */
export function argumentsFor(types: TypeRegistry, shape: Shape, where: string, hint: string): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const [key, schema] of Object.entries(shape)) {
    const info = describeField(schema as z.ZodType);
    args[key] = {
      type: inputTypeFor(types, info, `${where}(${key})`, hint + upperFirst(key)),
      description: info.description,
      defaultValue: info.hasDefault ? info.defaultValue() : undefined,
      // A required argument cannot be deprecated: the schema check turns that into a ConfigError.
      deprecationReason: info.deprecationReason,
    };
  }
  return args;
}

export function inputTypeFor(types: TypeRegistry, info: FieldInfo, where: string, hint: string): GraphQLInputType {
  let type: GraphQLInputType = namedInputType(types, info, where, hint);
  const free = acceptsNull(info.base); // JSON: null is one of its values
  if (info.list) type = new GraphQLList(info.itemNullable || free ? type : new GraphQLNonNull(type));
  // A default makes the argument optional for clients, so it is nullable like graphene's
  // `Int = 20`; an explicit null then means "use the default" (see toZodInput).
  return info.nullable || info.optional || info.hasDefault || (free && !info.list) ? type : new GraphQLNonNull(type);
}

function namedInputType(types: TypeRegistry, info: FieldInfo, where: string, hint: string) {
  const leaf = scalarFor(info.base);
  if (leaf) return leaf;
  if (isZodEnum(info.base)) return enumFor(types, info.base, where);
  if (info.model) {
    const kls = info.model();
    return inputObject(types, kls, `${className(kls)}Input`, `the input form of model ${className(kls)}`, kls.shape, where);
  }
  if (defOf(info.base).type === 'object') {
    const name = metaId(info.base) ?? `${hint}Input`;
    const shape = (info.base as z.ZodObject).shape as Shape;
    return inputObject(types, info.base, name, `the input object of ${where}`, shape, where);
  }
  throw unsupported(info.base, where);
}

function inputObject(types: TypeRegistry, key: object, name: string, owner: string, shape: Shape, where: string) {
  const cached = types.inputs.get(key);
  if (cached) return cached;
  types.claim(name, owner);
  const type = new GraphQLInputObjectType({
    name,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const [field, schema] of Object.entries(shape)) {
        const info = describeField(schema as z.ZodType);
        const type = inputTypeFor(types, info, `${where}.${field}`, name.replace(/Input$/, '') + upperFirst(field));
        fields[field] = {
          type,
          description: info.description,
          defaultValue: info.hasDefault ? info.defaultValue() : undefined,
          // A model read as input shares its fields with the output type, where a required field may
          // be deprecated; GraphQL allows that on input only for fields a client may leave out.
          deprecationReason: isNonNullType(type) && !info.hasDefault ? undefined : info.deprecationReason,
        };
      }
      return fields;
    },
  });
  types.inputs.set(key, type);
  return type;
}

/**
 * GraphQL lets a client send `null` for any nullable argument and omit it; zod's `optional()`
 * refuses `null` and `nullable()` refuses a missing key. Map each to what the schema accepts.
 */
/** `describeField` of each argument schema, read once: arguments are adapted on every call. */
const described = new WeakMap<object, FieldInfo>();
const describedField = (schema: z.ZodType) => {
  let info = described.get(schema);
  if (!info) described.set(schema, (info = describeField(schema)));
  return info;
};

export function toZodInput(shape: Shape, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in shape) {
    const value = adapt(describedField(shape[key] as z.ZodType), values[key]);
    // Left out rather than deleted: a delete turns the object into a slow dictionary.
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function adapt(info: FieldInfo, value: unknown): unknown {
  if (value === null && (info.optional || info.hasDefault) && !info.nullable) return undefined;
  const nullable = info.nullable || (!info.list && acceptsNull(info.base));
  if (value === undefined && nullable && !info.optional && !info.hasDefault) return null;
  if (value === null || value === undefined) return value;
  return info.list && Array.isArray(value) ? value.map((v) => adaptItem(info, v)) : adaptItem(info, value);
}

function adaptItem(info: FieldInfo, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const shape = info.model ? (info.model().shape as Shape) : defOf(info.base).type === 'object' ? ((info.base as z.ZodObject).shape as Shape) : undefined;
  return shape ? toZodInput(shape, value as Record<string, unknown>) : value;
}
