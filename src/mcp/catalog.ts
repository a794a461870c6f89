/**
 * What an app's GraphQL schema offers, read from the v6 grouped shape only
 * (`Query { User: UserQuery! }`, `UserQuery { getAll(...): [User!]! }`): the operation list, and
 * the part of the schema one operation needs, as SDL or as introspection JSON.
 */
import {
  getNamedType,
  introspectionFromSchema,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  printSchema,
  printType,
  GraphQLObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type IntrospectionQuery,
  type IntrospectionType,
} from 'graphql';

export type OperationKind = 'query' | 'mutation';

export interface OperationEntry {
  entity: string;
  method: string;
  /** `<Entity>.<method>` */
  name: string;
  description: string | null;
  /** Only on deprecated methods: what to use instead (the schema's `@deprecated(reason:)`). */
  deprecationReason?: string;
}

type AnyField = GraphQLField<unknown, unknown>;

export const rootOf = (schema: GraphQLSchema, kind: OperationKind) =>
  kind === 'query' ? schema.getQueryType() : schema.getMutationType();

/** `queries` / `mutations`, as tool names and messages spell the kind. */
export const pluralOf = (kind: OperationKind) => (kind === 'query' ? 'queries' : 'mutations');

/** The group type mounted at `root.<entity>`, if the field is a group. */
function groupOf(field: AnyField): GraphQLObjectType | undefined {
  const type = getNamedType(field.type);
  return isObjectType(type) ? type : undefined;
}

export function listOperations(schema: GraphQLSchema, kind: OperationKind): OperationEntry[] {
  const root = rootOf(schema, kind);
  if (!root) return [];
  return Object.values(root.getFields()).flatMap((entityField) =>
    Object.values(groupOf(entityField)?.getFields() ?? {}).map((methodField) => ({
      entity: entityField.name,
      method: methodField.name,
      name: `${entityField.name}.${methodField.name}`,
      description: methodField.description ?? null,
      ...(methodField.deprecationReason != null ? { deprecationReason: methodField.deprecationReason } : {}),
    })),
  );
}

export type Lookup =
  | { ok: true; root: GraphQLObjectType; entityField: AnyField; group: GraphQLObjectType; methodField: AnyField }
  | { ok: false; error: string; hint: string };

export function findOperation(schema: GraphQLSchema, kind: OperationKind, entity: string, method: string): Lookup {
  const plural = pluralOf(kind);
  const root = rootOf(schema, kind);
  const entityField = root?.getFields()[entity];
  const group = entityField && groupOf(entityField);
  if (!root || !entityField || !group) {
    const entities = [...new Set(listOperations(schema, kind).map((e) => e.entity))];
    return {
      ok: false,
      error: `no entity ${entity} has ${plural}`,
      hint: entities.length ? `entities with ${plural}: ${entities.join(', ')}` : `this app has no ${plural}`,
    };
  }
  const methodField = group.getFields()[method];
  if (!methodField) {
    const methods = Object.keys(group.getFields());
    return { ok: false, error: `${entity} has no ${kind} ${method}`, hint: `${plural} of ${entity}: ${methods.join(', ')}` };
  }
  return { ok: true, root, entityField, group, methodField };
}

/** Every named type reachable from a field's arguments and return type, in discovery order. */
function reachableTypes(schema: GraphQLSchema, field: AnyField): GraphQLNamedType[] {
  const seen = new Map<string, GraphQLNamedType>();
  const visit = (type: GraphQLNamedType) => {
    if (seen.has(type.name)) return;
    seen.set(type.name, type);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const f of Object.values(type.getFields())) {
        f.args.forEach((a) => visit(getNamedType(a.type)));
        visit(getNamedType(f.type));
      }
      type.getInterfaces().forEach(visit);
      if (isInterfaceType(type)) schema.getPossibleTypes(type).forEach(visit);
    } else if (isUnionType(type)) {
      type.getTypes().forEach(visit);
    } else if (isInputObjectType(type)) {
      Object.values(type.getFields()).forEach((f) => visit(getNamedType(f.type)));
    }
  };
  field.args.forEach((a) => visit(getNamedType(a.type)));
  visit(getNamedType(field.type));
  return [...seen.values()];
}

/** A copy of an object type keeping only one field. */
function keepField(type: GraphQLObjectType, name: string): GraphQLObjectType {
  const config = type.toConfig();
  return new GraphQLObjectType({ ...config, fields: { [name]: config.fields[name]! } });
}

export function operationSdl(schema: GraphQLSchema, found: Extract<Lookup, { ok: true }>): string {
  const { root, entityField, group, methodField } = found;
  // Types never reach back to the root or group types in the v6 shape, so trimmed copies are safe to print.
  const types = reachableTypes(schema, methodField).filter((t) => !isSpecifiedScalarType(t) && t !== root && t !== group);
  return [keepField(root, entityField.name), keepField(group, methodField.name), ...types].map(printType).join('\n\n') + '\n';
}

type IntrospectionSchema = IntrospectionQuery['__schema'];

/**
 * The same slice as `operationSdl`, in introspection form: a `{ __schema }` that `buildClientSchema`
 * accepts, holding the trimmed root and group types and everything the method reaches.
 */
export function operationIntrospection(schema: GraphQLSchema, kind: OperationKind, found: Extract<Lookup, { ok: true }>): IntrospectionQuery {
  const { root, entityField, group, methodField } = found;
  const full = introspectionFromSchema(schema).__schema;
  const wanted = new Set(reachableTypes(schema, methodField).map((t) => t.name));
  const trim = (type: IntrospectionType, field: string): IntrospectionType =>
    type.kind === 'OBJECT' ? { ...type, fields: type.fields.filter((f) => f.name === field) } : type;
  const types = full.types.flatMap((t): IntrospectionType[] => {
    if (t.name === root.name) return [trim(t, entityField.name)];
    if (t.name === group.name) return [trim(t, methodField.name)];
    return wanted.has(t.name) ? [t] : [];
  });
  const rootRef = { kind: 'OBJECT' as const, name: root.name };
  const slice: IntrospectionSchema = {
    description: null,
    queryType: kind === 'query' ? rootRef : null,
    mutationType: kind === 'mutation' ? rootRef : null,
    subscriptionType: null,
    types,
    directives: [],
  } as unknown as IntrospectionSchema;
  return { __schema: slice };
}

export const fullSdl = (schema: GraphQLSchema) => printSchema(schema);
export const fullIntrospection = (schema: GraphQLSchema) => introspectionFromSchema(schema);
