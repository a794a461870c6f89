/**
 * Which v6 `(entity, method)` each v5 flat root field name stands for. Built from the v6 schema
 * alone, so the compat layer (at startup) and the codemod (from `--schema`) read the same answer.
 */
import {
  getNamedType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { v5FieldName } from './naming.js';

export type OperationKind = 'query' | 'mutation';

/** One v6 method a flat name resolves to. */
export interface FlatTarget {
  operation: OperationKind;
  /** The v6 root field (the entity class name), e.g. `User`. */
  entity: string;
  /** The v6 method field inside the group, e.g. `getAll`. */
  method: string;
  /** The v5 flat name, e.g. `userGetAll`. */
  flatName: string;
  /** The group type, e.g. `UserQuery`. */
  groupType: GraphQLObjectType;
  field: GraphQLField<unknown, unknown>;
}

/** Flat name → every method that produces it (more than one means the name is ambiguous). */
export type FlatIndex = Record<OperationKind, ReadonlyMap<string, readonly FlatTarget[]>>;

export function rootType(schema: GraphQLSchema, operation: OperationKind): GraphQLObjectType | null {
  return (operation === 'query' ? schema.getQueryType() : schema.getMutationType()) ?? null;
}

/** The v6 groups of one root type, in schema order. */
export function groupsOf(
  schema: GraphQLSchema,
  operation: OperationKind,
): Array<{ entity: string; groupType: GraphQLObjectType }> {
  const root = rootType(schema, operation);
  if (!root) return [];
  const groups: Array<{ entity: string; groupType: GraphQLObjectType }> = [];
  for (const field of Object.values(root.getFields())) {
    const type = getNamedType(field.type);
    // A grouped root field has no arguments and an object type; anything else is not a group.
    if (isObjectType(type) && field.args.length === 0) groups.push({ entity: field.name, groupType: type });
  }
  return groups;
}

export function buildFlatIndex(schema: GraphQLSchema): FlatIndex {
  const index = {} as Record<OperationKind, Map<string, FlatTarget[]>>;
  for (const operation of ['query', 'mutation'] as const) {
    const byName = new Map<string, FlatTarget[]>();
    for (const { entity, groupType } of groupsOf(schema, operation)) {
      for (const field of Object.values(groupType.getFields())) {
        const flatName = v5FieldName(entity, field.name);
        const target: FlatTarget = { operation, entity, method: field.name, flatName, groupType, field };
        const list = byName.get(flatName);
        if (list) list.push(target);
        else byName.set(flatName, [target]);
      }
    }
    index[operation] = byName;
  }
  return index;
}

/** `User.getAll`, the way reports and deprecation notices name a v6 method. */
export const describeTarget = (t: Pick<FlatTarget, 'entity' | 'method'>): string => `${t.entity}.${t.method}`;
