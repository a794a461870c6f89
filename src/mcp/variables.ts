/**
 * An operation's variables as an MCP tool's input: each GraphQL input type becomes the zod schema
 * the SDK both validates arguments with and publishes as the tool's JSON Schema. Zod, not JSON
 * Schema directly, because the SDK's `registerTool` only takes zod.
 */
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isSpecifiedScalarType,
  typeFromAST,
  valueFromASTUntyped,
  GraphQLID,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLString,
  type GraphQLInputType,
  type GraphQLNamedInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { z } from 'zod';
import { BIGINT_JSON_SCHEMA } from '../er/model.js';
import { DATETIME_TYPE } from '../graphql/names.js';
import { BIGINT_TYPE, JSON_TYPE } from '../graphql/scalars.js';
import { hasDefault } from '../graphql/versions.js';

type Cache = Map<string, z.ZodType>;

/** A JSON value: what a scalar the port does not know (a user's own) may be sent as. */
const anyJson = (): z.ZodType =>
  z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);

function namedSchema(type: GraphQLNamedInputType, cache: Cache): z.ZodType {
  const cached = cache.get(type.name);
  if (cached) return cached;
  let schema: z.ZodType;
  if (type === GraphQLInt) schema = z.int32();
  else if (type === GraphQLFloat) schema = z.number();
  else if (type === GraphQLString) schema = z.string();
  else if (type === GraphQLBoolean) schema = z.boolean();
  else if (type === GraphQLID) schema = z.union([z.string(), z.int()]);
  else if (isEnumType(type)) {
    const values = type.getValues().map((v) => v.name);
    schema = z.enum(values as [string, ...string[]]);
  } else if (isInputObjectType(type)) {
    const shape: Record<string, z.ZodType> = {};
    const object = z.object(shape).strict();
    cache.set(type.name, object); // before the fields: input types may refer to themselves
    for (const field of Object.values(type.getFields())) {
      let value = inputSchema(field.type, cache);
      if (!isNonNullType(field.type) || hasDefault(field)) value = value.optional();
      if (field.description) value = value.describe(field.description);
      shape[field.name] = value; // zod reads the shape lazily, so a self-reference above is fine
    }
    schema = object;
  } else if (type.name === DATETIME_TYPE) schema = z.string(); // the scalar accepts any date string Date parses
  else if (type.name === BIGINT_TYPE) schema = z.union([z.string().regex(new RegExp(BIGINT_JSON_SCHEMA.pattern)), z.int()]);
  else if (type.name === JSON_TYPE) schema = z.union([anyJson(), z.null()]);
  else schema = anyJson();
  // graphql-js's own scalar descriptions tell an agent nothing; a schema's own types may.
  if (type.description && !isInputObjectType(type) && !isSpecifiedScalarType(type)) schema = schema.describe(type.description);
  cache.set(type.name, schema);
  return schema;
}

/** The schema of a value of `type`: null allowed unless the type is non-null. */
function inputSchema(type: GraphQLInputType, cache: Cache): z.ZodType {
  if (isNonNullType(type)) return strict(type.ofType, cache);
  return strict(type, cache).nullable();
}

function strict(type: GraphQLInputType, cache: Cache): z.ZodType {
  if (isListType(type)) return z.array(inputSchema(type.ofType, cache));
  return namedSchema(type as GraphQLNamedInputType, cache);
}

/**
 * The tool input of an operation: one property per variable, required when the variable is
 * non-null without a default. A default becomes the JSON Schema `default`.
 */
export function variablesShape(schema: GraphQLSchema, operation: OperationDefinitionNode): Record<string, z.ZodType> {
  const cache: Cache = new Map();
  const shape: Record<string, z.ZodType> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    // Unknown types were already refused when the operation was validated against the schema.
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType;
    let value = inputSchema(type, cache);
    if (definition.defaultValue) value = value.default(valueFromASTUntyped(definition.defaultValue) as never);
    else if (!isNonNullType(type)) value = value.optional();
    shape[name] = value;
  }
  return shape;
}
