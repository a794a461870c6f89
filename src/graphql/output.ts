/**
 * Output types: one object type per model class (entities, subsets, plain models), its fields
 * from the zod shape, and the GraphQL type of any field or return value described by zod.
 */
import {
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import { ConfigError } from '../er/errors.js';
import { isExcluded, modelFields, type AnyModelClass } from '../er/model.js';
import type { FieldInfo } from '../er/schema.js';
import { ROOT_TYPE_NAMES } from './names.js';
import type { TypeRegistry } from './registry.js';
import type { Run } from './run.js';
import { acceptsNull, defOf, enumTypeFor, isZodEnum, metaId, sameEnum, scalarFor } from './scalars.js';
import type { z } from 'zod';
import { className } from '../er/names.js';

/** The object type of a model class; entity types also get the contributed (relationship) fields. */
export function objectTypeFor(types: TypeRegistry, kls: AnyModelClass): GraphQLObjectType {
  const cached = types.objects.get(kls);
  if (cached) return cached;
  const entity = types.diagram.entityOf(kls);
  const name = className(kls);
  if (ROOT_TYPE_NAMES.has(name) || name.startsWith('__')) {
    throw new ConfigError(`${entity ? 'Entity' : 'Model'} ${name} uses a reserved GraphQL type name; rename the class`);
  }
  types.claim(name, `${entity ? 'the entity' : 'the model'} class ${name}`);
  const type = new GraphQLObjectType<unknown, Run>({
    name,
    description: kls.schema.description,
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, Run> = modelOutputFields(types, kls);
      for (const contribute of types.objectFields) {
        for (const [key, field] of Object.entries(contribute(kls, entity, types) ?? {})) {
          if (key in fields) throw new ConfigError(`${name}.${key} is declared twice (a model field and a contributed field)`);
          fields[key] = field;
        }
      }
      return fields;
    },
  });
  types.objects.set(kls, type);
  return type;
}

function modelOutputFields(types: TypeRegistry, kls: AnyModelClass): GraphQLFieldConfigMap<unknown, Run> {
  const fields: GraphQLFieldConfigMap<unknown, Run> = {};
  for (const { key, info } of modelFields(kls)) {
    if (isExcluded(info)) continue; // excluded fields never leave the server (hidden FKs, secrets)
    fields[key] = {
      type: outputTypeFor(types, info, `${className(kls)}.${key}`),
      description: info.description,
      deprecationReason: info.deprecationReason,
    };
  }
  return fields;
}

/** The GraphQL output type of a described field: `!` unless nullable or optional. */
export function outputTypeFor(types: TypeRegistry, info: FieldInfo, where: string): GraphQLOutputType {
  let type: GraphQLOutputType = namedOutputType(types, info, where);
  if (info.list) {
    type = new GraphQLList(info.itemNullable || acceptsNull(info.base) ? type : new GraphQLNonNull(type));
  }
  return info.nullable || info.optional || (!info.list && acceptsNull(info.base)) ? type : new GraphQLNonNull(type);
}

function namedOutputType(types: TypeRegistry, info: FieldInfo, where: string) {
  if (info.model) return objectTypeFor(types, info.model());
  const leaf = scalarFor(info.base);
  if (leaf) return leaf;
  if (isZodEnum(info.base)) return enumFor(types, info.base, where);
  throw unsupported(info.base, where);
}

export function enumFor(types: TypeRegistry, base: z.ZodType, where: string) {
  const name = metaId(base);
  if (!name) {
    throw new ConfigError(`${where}: a zod enum needs a GraphQL name; declare it with .meta({ id: 'EnumName' })`);
  }
  const existing = types.enums.get(name);
  if (existing) {
    if (existing.schema !== base && !sameEnum(existing.schema, base)) {
      throw new ConfigError(`${where}: enum ${name} is declared twice with different values`);
    }
    return existing.type;
  }
  types.claim(name, `the zod enum ${name}`);
  const type = enumTypeFor(base, name, where);
  types.enums.set(name, { schema: base, type });
  return type;
}

export function unsupported(base: z.ZodType, where: string): ConfigError {
  return new ConfigError(
    `${where}: zod type '${defOf(base).type}' has no GraphQL equivalent ` +
      '(use z.int(), z.number(), z.string(), z.boolean(), z.date(), z.bigint(), z.json(), a named z.enum, a model or a list of those)',
  );
}
