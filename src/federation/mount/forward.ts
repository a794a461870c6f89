/**
 * The part of a client's document that a member must answer: the sub-selection under a remote
 * field, made self-contained (fragment spreads inlined, variables renamed per part so several
 * parts share one document) and printed.
 */
import {
  Kind,
  print,
  visit,
  type FieldNode,
  type GraphQLResolveInfo,
  type InlineFragmentNode,
  type SelectionNode,
  type VariableDefinitionNode,
} from 'graphql';
import { coercedValues } from '../../graphql/versions.js';

export interface Forwarded {
  /** Printed selections, ready to go inside `{ ... }`. */
  selection: string;
  /** Variable definitions (renamed) and their values, for the member request. */
  variables: { definition: string; name: string; value: unknown }[];
}

/** The sub-selections of the current field (all merged field nodes), or of `path` below it. */
export function subSelections(info: GraphQLResolveInfo, path: readonly string[] = []): SelectionNode[] {
  let nodes: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    const walk = (selections: readonly SelectionNode[], seen: Set<string>) => {
      for (const s of selections) {
        if (s.kind === Kind.FIELD) {
          if (s.name.value === name) next.push(s);
        } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet.selections, seen);
        else if (!seen.has(s.name.value)) {
          const fragment = info.fragments[s.name.value];
          if (fragment) walk(fragment.selectionSet.selections, new Set([...seen, s.name.value]));
        }
      }
    };
    for (const node of nodes) walk(node.selectionSet?.selections ?? [], new Set());
    nodes = next;
  }
  return nodes.flatMap((n) => n.selectionSet?.selections ?? []);
}

/** Inline fragment spreads and rename variables with `prefix`; the result has no outside references. */
export function forward(info: GraphQLResolveInfo, selections: readonly SelectionNode[], prefix: string): Forwarded {
  const used = new Set<string>();
  const inline = (nodes: readonly SelectionNode[], stack: readonly string[]): SelectionNode[] =>
    nodes.map((node) => {
      if (node.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = info.fragments[node.name.value];
        if (!fragment || stack.includes(node.name.value)) return node; // graphql-js validation rejects both before we run
        const replaced: InlineFragmentNode = {
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: fragment.typeCondition,
          directives: node.directives,
          selectionSet: { kind: Kind.SELECTION_SET, selections: inline(fragment.selectionSet.selections, [...stack, node.name.value]) },
        };
        return replaced;
      }
      if (node.selectionSet) {
        return { ...node, selectionSet: { ...node.selectionSet, selections: inline(node.selectionSet.selections, stack) } } as SelectionNode;
      }
      return node;
    });
  const renamed = inline(selections, []).map((node) =>
    visit(node, {
      Variable(variable) {
        used.add(variable.name.value);
        return { ...variable, name: { kind: Kind.NAME, value: `${prefix}_${variable.name.value}` } };
      },
    }),
  );
  const definitions = new Map<string, VariableDefinitionNode>();
  for (const def of info.operation.variableDefinitions ?? []) definitions.set(def.variable.name.value, def);
  return {
    selection: renamed.map((n) => print(n)).join(' '),
    variables: [...used].map((name) => ({
      name: `${prefix}_${name}`,
      definition: `$${prefix}_${name}: ${print(definitions.get(name)!.type)}`,
      value: coercedValues(info.variableValues)[name],
    })),
  };
}

const PAGINATION_FIELDS = new Set(['has_more', 'total_count']);

/**
 * The shared `Pagination` type reads `has_more` / `total_count` by name, while member answers
 * are keyed by the client's aliases: copy aliased values to their field names, everywhere in
 * `value` the selections reach.
 */
export function canonicalPagination(info: GraphQLResolveInfo, selections: readonly SelectionNode[], value: unknown, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 64) return;
  if (Array.isArray(value)) {
    for (const item of value) canonicalPagination(info, selections, item, depth + 1);
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const node of selections) {
    if (node.kind === Kind.INLINE_FRAGMENT) canonicalPagination(info, node.selectionSet.selections, obj, depth + 1);
    else if (node.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = info.fragments[node.name.value];
      if (fragment) canonicalPagination(info, fragment.selectionSet.selections, obj, depth + 1);
    } else {
      const key = node.alias?.value ?? node.name.value;
      if (node.alias && PAGINATION_FIELDS.has(node.name.value) && key in obj) obj[node.name.value] = obj[key];
      if (node.selectionSet) canonicalPagination(info, node.selectionSet.selections, obj[key], depth + 1);
    }
  }
}
