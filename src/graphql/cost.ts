/**
 * The page-size-aware cost of an operation (`limits.cost`): the estimated number of fields it
 * resolves, multiplying through nested lists by their effective page sizes. GraphQL Armor's
 * cost-limit only multiplies by literal `first` / `last` arguments and knows nothing of a
 * relationship's `defaultPageSize` / `maxPageSize`, of root methods' `limit`, or of variables,
 * so this one is written here.
 */
import {
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { defaultValueOf } from './versions.js';

/** The size the cost assumes for a list field nothing bounds (`limits.listSize`'s default). */
export const DEFAULT_LIST_SIZE = 5;

/**
 * Field extension read by `estimateCost`: a field serving pages of a relationship
 * (`limit` capped at `max`, `default` when omitted). Set by the schema builder.
 */
export interface PageSizeExtension {
  pageSize?: { default: number; max: number };
}

export type Variables = Readonly<Record<string, unknown>> | null | undefined;

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Variables;
  defaults: ReadonlyMap<string, ValueNode>;
  listSize: number;
  /** Set when a size came from a variable: the estimate then holds for these variables only. */
  readVariable: boolean;
  /** Unit cost of a fragment by `<name>|<parent type>|<inherited page>`: linear in document size. */
  memo: Map<string, number>;
}

function numberValue(walk: Walk, node: ValueNode | undefined): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    walk.readVariable = true;
    const value = walk.variables?.[node.name.value];
    if (typeof value === 'number') return value;
    if (value === undefined) return numberValue(walk, walk.defaults.get(node.name.value));
  }
  return undefined;
}

function listLength(walk: Walk, node: ValueNode): number | undefined {
  if (node.kind === Kind.LIST) return node.values.length;
  if (node.kind === Kind.VARIABLE) {
    walk.readVariable = true;
    const value = walk.variables?.[node.name.value];
    if (Array.isArray(value)) return value.length;
    const fallback = walk.defaults.get(node.name.value);
    return fallback?.kind === Kind.LIST ? fallback.values.length : undefined;
  }
  return undefined;
}

/** The `limit` a field runs with: the argument (or its schema default), a page field's default, capped at its max. */
function pageLimit(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined {
  const pageSize = (field.extensions as PageSizeExtension | undefined)?.pageSize;
  const arg = node.arguments?.find((a) => a.name.value === 'limit');
  let limit = numberValue(walk, arg?.value);
  if (limit === undefined) {
    const argument = field.args.find((a) => a.name === 'limit');
    const declared = argument && defaultValueOf(argument);
    if (typeof declared === 'number') limit = declared;
  }
  if (pageSize) return Math.min(Math.max(limit ?? pageSize.default, 0), pageSize.max);
  return limit === undefined ? undefined : Math.max(limit, 0);
}

/** The longest list argument (federation's `by_<key>_in(values)`: one result per key). */
function keyCount(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined {
  let longest: number | undefined;
  for (const arg of node.arguments ?? []) {
    const declared = field.args.find((a) => a.name === arg.name.value);
    if (!declared || !isListType(getNullableType(declared.type))) continue;
    const length = listLength(walk, arg.value);
    if (length !== undefined) longest = Math.max(longest ?? 0, length);
  }
  return longest;
}

function selectionCost(walk: Walk, set: SelectionSetNode, type: GraphQLNamedType, page: number | undefined): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (walk.schema.getType(selection.typeCondition.name.value) ?? type) : type;
      total += selectionCost(walk, selection.selectionSet, on, page);
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      if (!fragment) continue;
      const key = `${fragment.name.value}|${type.name}|${page ?? ''}`;
      let unit = walk.memo.get(key);
      if (unit === undefined) {
        const on = walk.schema.getType(fragment.typeCondition.name.value) ?? type;
        unit = selectionCost(walk, fragment.selectionSet, on, page);
        walk.memo.set(key, unit);
      }
      total += unit;
    } else {
      total += fieldCost(walk, selection, type, page);
    }
  }
  return total;
}

function fieldCost(walk: Walk, node: FieldNode, parent: GraphQLNamedType, page: number | undefined): number {
  const name = node.name.value;
  // Introspection answers from the schema (bounded by its size); `__typename` is free.
  if (name.startsWith('__')) return name === '__typename' ? 0 : 1;
  if (!isObjectType(parent) && !isInterfaceType(parent)) return 1;
  const field = parent.getFields()[name];
  if (!field) return 1;
  if (!node.selectionSet) return 1;
  const limit = pageLimit(walk, field, node);
  let count = 1;
  let inner: number | undefined = limit;
  if (isListType(getNullableType(field.type))) {
    const keys = keyCount(walk, field, node);
    if (keys !== undefined) count = keys; // one result per key; `limit` sizes the lists inside
    else {
      count = limit ?? page ?? walk.listSize;
      inner = undefined;
    }
  }
  return 1 + count * selectionCost(walk, node.selectionSet, getNamedType(field.type), inner);
}

export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return fragments;
}

export interface CostEstimate {
  cost: number;
  /** Whether the estimate read a variable (so it holds for these variable values only). */
  variableDependent: boolean;
}

/**
 * The estimated number of fields an operation resolves. Each selected field counts 1; a list
 * field multiplies its selection by its size: a relationship page's effective limit (`limit`
 * capped at the field's `maxPageSize`, `defaultPageSize` when omitted), a method's `limit`
 * argument (or its declared default), the number of keys of a batch root, else `listSize`. So
 * `comments(limit: 100) { items { author { comments(limit: 100) { items { id } } } } }` costs
 * about 100 × (1 + 1 + 100) and the cyclic documents that exhaust memory are refused before any
 * loader runs.
 */
export function estimateCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Variables,
  listSize: number = DEFAULT_LIST_SIZE,
): CostEstimate {
  const root = schema.getRootType(operation.operation);
  if (!root) return { cost: 0, variableDependent: false };
  const defaults = new Map<string, ValueNode>();
  for (const def of operation.variableDefinitions ?? []) if (def.defaultValue) defaults.set(def.variable.name.value, def.defaultValue);
  const walk: Walk = { schema, fragments, variables, defaults, listSize, readVariable: false, memo: new Map() };
  const cost = selectionCost(walk, operation.selectionSet, root, undefined);
  return { cost, variableDependent: walk.readVariable };
}
