/**
 * Compiling one operation of a validated document into a plan: for every selection set the
 * fields to produce (fragments flattened, `@skip`/`@include` applied, equal response keys
 * merged), each with its kind (ergraph's own fields from `extensions.ergraph`, others through
 * their `resolve`), its static arguments, how to complete its value, and for load fields the
 * selection they read (the types are plan.ts). `compiled.ts` runs the plan level by level.
 *
 * `@skip`/`@include` on variables make one plan per combination of those variables' values
 * (usually none, so one plan). Documents the plan does not cover — introspection beyond
 * `__typename`, abstract types, `isTypeOf`, subscriptions, a `@skip`/`@include` whose `if` is null —
 * compile to `unsupported` and run on graphql-js; ergraph's schemas have no abstract types, so
 * that is introspection in practice.
 */
import {
  getArgumentValues,
  GraphQLError,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { objectBuilder } from './builders.js';
import { nativeOf } from './native.js';
import type { Completion, CompiledOperation, FieldKind, FieldPlan, Plan, Selection, Unsupported } from './plan.js';
import { fieldSelection, included } from './selections.js';
import { coercedValues, NO_VARIABLES, type Variables } from './versions.js';

class NotCompiled extends Error {}

const EMPTY_ARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** The operation `operationName` selects, or graphql-js's error for it. */
export function selectOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | GraphQLError {
  let found: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operationName == null) {
      if (found) return new GraphQLError('Must provide operation name if query contains multiple operations.');
      found = d;
    } else if (d.name?.value === operationName) found = d;
  }
  if (found) return found;
  return new GraphQLError(operationName == null ? 'Must provide an operation.' : `Unknown operation named "${operationName}".`);
}

export function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return fragments;
}

/** Variables that `@skip`/`@include` read anywhere in the document. */
function conditionVariablesOf(document: DocumentNode): string[] {
  const names = new Set<string>();
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'skip' && node.name.value !== 'include') return;
      for (const arg of node.arguments ?? []) if (arg.value.kind === Kind.VARIABLE) names.add(arg.value.name.value);
    },
  });
  return [...names];
}

export function compiledOperation(document: DocumentNode, operation: OperationDefinitionNode): CompiledOperation {
  return { operation, conditionVariables: conditionVariablesOf(document), plans: new Map() };
}

/**
 * Plans one operation keeps, one per combination of its condition variables' values: forty
 * `@include($bN)` variables have 2^40 combinations, and a client choosing a fresh one per request
 * must not grow the operation by a plan each time. Past this many the oldest plan goes.
 */
export const MAX_PLANS_PER_OPERATION = 16;

/** The plan for these (coerced) variable values, compiled on first use; `compiled` tells whether the operation now holds one more. */
export function planFor(
  schema: GraphQLSchema,
  document: DocumentNode,
  compiled: CompiledOperation,
  variables: Variables,
): { plan: Plan | Unsupported; added: boolean } {
  const key = compiled.conditionVariables.length ? JSON.stringify(compiled.conditionVariables.map((n) => coercedValues(variables)[n] ?? null)) : '';
  const plan = compiled.plans.get(key);
  if (plan) return { plan, added: false };
  const made = compile(schema, document, compiled.operation, variables);
  const full = compiled.plans.size >= MAX_PLANS_PER_OPERATION;
  if (full) compiled.plans.delete(compiled.plans.keys().next().value!);
  compiled.plans.set(key, made);
  return { plan: made, added: !full };
}

function compile(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): Plan | Unsupported {
  if (operation.operation === 'subscription') return { unsupported: 'subscriptions' };
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return { unsupported: `no ${operation.operation} type` };
  const fragments = fragmentsOf(document);
  const compiler = new Compiler(schema, fragments, variables);
  try {
    const root = compiler.selection(rootType, [operation.selectionSet]);
    return { schema, operation, fragments, root, serial: operation.operation === 'mutation', fieldCount: compiler.fieldCount };
  } catch (error) {
    if (error instanceof NotCompiled) return { unsupported: error.message };
    // `@skip(if: $v)` with $v null (a nullable variable with a default, sent as null): graphql-js
    // fails the field whose selection holds it, only where a value gets that far; it runs these.
    if (error instanceof GraphQLError) return { unsupported: error.message };
    throw error;
  }
}

/**
 * graphql-js's field collection (it is not public API in graphql 16): the fields of `type` in
 * `sets` by response key, fragments whose condition matches flattened, `@skip`/`@include`
 * applied, each fragment spread once.
 */
export function collectFields(
  schema: GraphQLSchema,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Variables,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const matches = (condition: string | undefined): boolean => {
    if (condition === undefined || condition === type.name) return true;
    const conditional = schema.getType(condition);
    return !!conditional && isAbstractType(conditional) && schema.isSubType(conditional, type);
  };
  const collect = (set: SelectionSetNode): void => {
    for (const selection of set.selections) {
      if (!included(selection, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const list = out.get(key);
        if (list) list.push(selection);
        else out.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (matches(selection.typeCondition?.name.value)) collect(selection.selectionSet);
      } else {
        const name = selection.name.value;
        if (visited.has(name)) continue;
        visited.add(name);
        const fragment = fragments[name];
        if (fragment && matches(fragment.typeCondition.name.value)) collect(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) collect(set);
  return out;
}

const readsVariables = (node: FieldNode) => {
  let found = false;
  for (const arg of node.arguments ?? []) {
    visit(arg.value, {
      Variable() {
        found = true;
      },
    });
  }
  return found;
};

class Compiler {
  fieldCount = 0;
  private readonly nodeIds = new Map<FieldNode, number>();
  private readonly selections = new Map<string, Selection>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>,
    private readonly variables: Variables,
  ) {}

  /**
   * The fields of `type` over merged selection sets. Memoised by the field nodes, as graphql-js
   * memoises sub-field collection: a fragment spread in many places is compiled once, so the
   * plan grows with the document, not with the number of paths through its fragments.
   */
  selection(type: GraphQLObjectType, sets: readonly SelectionSetNode[], nodes?: readonly FieldNode[]): Selection {
    const memo = nodes ? `${type.name}:${nodes.map((n) => this.idOf(n)).join(',')}` : undefined;
    const cached = memo ? this.selections.get(memo) : undefined;
    if (cached) return cached;
    if (type.isTypeOf) throw new NotCompiled(`isTypeOf on ${type.name}`);
    const byKey = collectFields(this.schema, this.fragments, this.variables, type, sets);
    const fields: FieldPlan[] = [];
    const template = Object.fromEntries([...byKey.keys()].map((key) => [key, null]));
    const selection: { -readonly [K in keyof Selection]: Selection[K] } = { type, fields, template, builder: undefined };
    if (memo) this.selections.set(memo, selection); // before the fields: a type may select itself
    for (const [key, fieldNodes] of byKey) fields.push(this.field(type, key, fieldNodes));
    selection.builder = objectBuilder(fields);
    return selection;
  }

  private idOf(node: FieldNode): number {
    let id = this.nodeIds.get(node);
    if (id === undefined) this.nodeIds.set(node, (id = this.nodeIds.size));
    return id;
  }

  private field(parentType: GraphQLObjectType, key: string, nodes: FieldNode[]): FieldPlan {
    const name = nodes[0]!.name.value;
    const id = this.fieldCount++;
    if (name === '__typename') {
      const def = { name, type: parentType } as unknown as GraphQLField<unknown, unknown>;
      return { id, key, name, nodes, parentType, def, kind: 'typename', native: undefined, args: EMPTY_ARGS, completion: TYPENAME, selection: undefined };
    }
    const def = parentType.getFields()[name];
    if (!def) throw new NotCompiled(`field ${parentType.name}.${name} (introspection)`);
    const native = nativeOf(def);
    const kind: FieldKind = native?.kind ?? (def.resolve ? 'resolve' : 'property');
    let args: Record<string, unknown> | undefined = EMPTY_ARGS;
    if (def.args.length) args = readsVariables(nodes[0]!) ? undefined : staticArgs(def, nodes[0]!);
    const completion = this.completion(def.type, nodes);
    const selection = native?.kind === 'load' ? fieldSelection(nodes, this.fragments, this.variables) : undefined;
    return { id, key, name, nodes, parentType, def, kind, native, args, completion, selection };
  }

  private completion(type: GraphQLOutputType, nodes: FieldNode[], nonNull = false): Completion {
    if (isNonNullType(type)) return this.completion(type.ofType, nodes, true);
    if (isListType(type)) return { kind: 'list', nonNull, item: this.completion(type.ofType as GraphQLOutputType, nodes) };
    if (isLeafType(type)) return { kind: 'leaf', nonNull, type };
    if (isObjectType(type)) {
      const sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
      return { kind: 'object', nonNull, type, selection: this.selection(type, sets, nodes) };
    }
    throw new NotCompiled(`abstract type ${type.name}`);
  }
}

/** Literal arguments, read once; a value that fails is read (and fails) again per run, as a field error. */
function staticArgs(def: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> | undefined {
  try {
    return getArgumentValues(def, node, NO_VARIABLES);
  } catch {
    return undefined;
  }
}

/** `__typename`'s completion is never read: the executor writes the type name. */
const TYPENAME: Completion = { kind: 'leaf', nonNull: true, type: undefined as unknown as GraphQLLeafType };
