/**
 * Reading a field's sub-selection the way execution will see it: fragments flattened and
 * `@skip` / `@include` applied with the request's variables.
 */
import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { FieldSelection } from './native.js';

type Variables = GraphQLResolveInfo['variableValues'];
type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

/** Whether `@skip` / `@include` let `node` in, with these variable values. */
export function included(node: Parameters<typeof getDirectiveValues>[1], variables: Variables): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

function* fieldsIn(set: SelectionSetNode | undefined, fragments: Fragments, variables: Variables): Generator<FieldNode> {
  if (!set) return;
  for (const selection of set.selections) {
    if (!included(selection, variables)) continue;
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsIn(selection.selectionSet, fragments, variables);
    else {
      const fragment = fragments[selection.name.value];
      if (fragment) yield* fieldsIn(fragment.selectionSet, fragments, variables);
    }
  }
}

/** The fields of a selection set as execution sees them: fragments flattened, `@skip` / `@include` applied. */
export const fieldsOf = (set: SelectionSetNode | undefined, info: GraphQLResolveInfo): Generator<FieldNode> =>
  fieldsIn(set, info.fragments, info.variableValues);

/** The field nodes reached from `nodes` along `path` (field names, aliases ignored). */
function nodesAt(nodes: readonly FieldNode[], path: readonly string[], fragments: Fragments, variables: Variables): readonly FieldNode[] {
  let level = nodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    for (const node of level) for (const field of fieldsIn(node.selectionSet, fragments, variables)) if (field.name.value === name) next.push(field);
    if (!next.length) return next;
    level = next;
  }
  return level;
}

/** The selection of one field (all its merged nodes) as load fields read it. */
export function fieldSelection(nodes: readonly FieldNode[], fragments: Fragments, variables: Variables): FieldSelection {
  return {
    selects: (path) => nodesAt(nodes, path, fragments, variables).length > 0,
    fieldsAt(path) {
      const names = new Set<string>();
      for (const node of nodesAt(nodes, path, fragments, variables)) {
        for (const field of fieldsIn(node.selectionSet, fragments, variables)) names.add(field.name.value);
      }
      return names;
    },
  };
}

/** The current field's selection, from graphql-js's resolve info. */
export const selectionOf = (info: GraphQLResolveInfo): FieldSelection => fieldSelection(info.fieldNodes, info.fragments, info.variableValues);

/** Whether the current field's selection reaches `path` (field names, aliases ignored). */
export function selects(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  return selectionOf(info).selects(path);
}
