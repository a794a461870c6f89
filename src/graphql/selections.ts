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
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

function included(node: Parameters<typeof getDirectiveValues>[1], variables: GraphQLResolveInfo['variableValues']): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

function* fieldsOf(set: SelectionSetNode | undefined, info: GraphQLResolveInfo): Generator<FieldNode> {
  if (!set) return;
  for (const selection of set.selections) {
    if (!included(selection, info.variableValues)) continue;
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf(selection.selectionSet, info);
    else {
      const fragment = info.fragments[selection.name.value];
      if (fragment) yield* fieldsOf(fragment.selectionSet, info);
    }
  }
}

/** Whether the current field's selection reaches `path` (field names, aliases ignored). */
export function selects(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  let level: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    for (const node of level) for (const field of fieldsOf(node.selectionSet, info)) if (field.name.value === name) next.push(field);
    if (!next.length) return false;
    level = next;
  }
  return true;
}
