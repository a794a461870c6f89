/**
 * Turns one operation of a validated v5 document into what the v6 engine runs, and the v6 answer
 * back into the v5 one (`v5Data`, `mapError`): every flat root
 * field, wherever it sits at the root (directly, in fragments on the root type, in inline
 * fragments), becomes `Entity { <v5 response key>: method … }`. Fragments on the root type are
 * expanded in place and their `@skip`/`@include` carried along as inline fragments inside the
 * group, so the v6 engine decides inclusion exactly as v5 did. Root fields of the introspection
 * system stay behind for the flat schema to answer.
 */
import {
  Kind,
  OperationTypeNode,
  visit,
  type DefinitionNode,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type InlineFragmentNode,
  type NameNode,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type GraphQLFormattedError,
} from 'graphql';
import type { FlatTarget, OperationKind } from './flat-index.js';
import type { LocationMap } from './locations.js';

/** Where the value of one v5 root response key comes from. */
export type KeySource = { group: string } | { local: true };

export interface OperationPlan {
  operation: OperationDefinitionNode;
  kind: OperationKind;
  /** The grouped v6 document, or null when the operation selects only introspection fields. */
  v6: DocumentNode | null;
  /** The v5 document reduced to its root introspection fields, or null when it has none. */
  local: DocumentNode | null;
  /** v5 root response keys in first-occurrence order, each with where its value is read. */
  keys: ReadonlyArray<readonly [string, KeySource]>;
  /** Flat root fields the operation uses, each once, in document order. */
  fields: readonly FlatTarget[];
}

const name = (value: string): NameNode => ({ kind: Kind.NAME, value });

const isConditional = (d: DirectiveNode): boolean => d.name.value === 'skip' || d.name.value === 'include';

interface Occurrence {
  key: string;
  field: FieldNode;
  target: FlatTarget | null;
  /** `@skip`/`@include` of the fragments the field sits in, outermost first. */
  conditions: ReadonlyArray<readonly DirectiveNode[]>;
}

function collectRoot(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  targets: ReadonlyMap<string, FlatTarget>,
  conditions: ReadonlyArray<readonly DirectiveNode[]>,
  out: Occurrence[],
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      out.push({ key, field: selection, target: targets.get(selection.name.value) ?? null, conditions });
      continue;
    }
    const own = (selection.directives ?? []).filter(isConditional);
    const inner = own.length > 0 ? [...conditions, own] : conditions;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectRoot(selection.selectionSet, fragments, targets, inner, out);
    } else {
      // Validation ran first: the fragment exists and spreads at the root are acyclic.
      const fragment = fragments.get(selection.name.value);
      if (fragment) collectRoot(fragment.selectionSet, fragments, targets, inner, out);
    }
  }
}

function wrapped(occurrence: Occurrence, target: FlatTarget): SelectionNode {
  const { field, key } = occurrence;
  let node: SelectionNode = {
    ...field,
    alias: key === target.method ? undefined : name(key),
    name: name(target.method),
  };
  for (let i = occurrence.conditions.length - 1; i >= 0; i--) {
    const inline: InlineFragmentNode = {
      kind: Kind.INLINE_FRAGMENT,
      directives: occurrence.conditions[i],
      selectionSet: { kind: Kind.SELECTION_SET, selections: [node] },
    };
    node = inline;
  }
  return node;
}

/**
 * Root groups for the v6 document. Queries use one group per entity. Mutations must keep document
 * order across entities, and graphql-js merges equal response keys at the root, so a group that
 * recurs after another entity's fields gets its own alias; a key seen before always returns to
 * the group it first went to, so v5's merge of repeated keys is kept.
 */
function assignGroups(occurrences: readonly Occurrence[], kind: OperationKind): Map<string, string> {
  const groupOfKey = new Map<string, string>();
  const used = new Set<string>();
  let last: { alias: string; entity: string } | null = null;
  for (const { key, target } of occurrences) {
    if (!target || groupOfKey.has(key)) continue;
    let alias: string;
    if (kind === 'query') alias = target.entity;
    else if (last?.entity === target.entity) alias = last.alias;
    else {
      alias = target.entity;
      for (let n = 2; used.has(alias); n++) alias = `${target.entity}_${n}`;
    }
    used.add(alias);
    groupOfKey.set(key, alias);
    last = { alias, entity: target.entity };
  }
  return groupOfKey;
}

function fragmentsReachable(
  roots: readonly SelectionNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): FragmentDefinitionNode[] {
  const seen = new Map<string, FragmentDefinitionNode>();
  const pending = [...roots];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !seen.has(fragment.name.value)) {
          seen.set(fragment.name.value, fragment);
          pending.push(...fragment.selectionSet.selections);
        }
      },
    });
  }
  return [...seen.values()];
}

function variablesUsed(nodes: readonly (SelectionNode | FragmentDefinitionNode)[]): Set<string> {
  const used = new Set<string>();
  for (const node of nodes) {
    visit(node, {
      VariableDefinition: () => false,
      Variable(variable) {
        used.add(variable.name.value);
      },
    });
  }
  return used;
}

/** The v5 document with every non-introspection root field removed, for the flat schema to run. */
function localDocument(document: DocumentNode, operation: OperationDefinitionNode, rootNames: ReadonlySet<string>): DocumentNode {
  const strip = (set: SelectionSetNode): SelectionSetNode => ({
    ...set,
    selections: set.selections.flatMap((s): SelectionNode[] => {
      if (s.kind === Kind.FIELD) return s.name.value.startsWith('__') ? [s] : [];
      if (s.kind === Kind.INLINE_FRAGMENT) return [{ ...s, selectionSet: strip(s.selectionSet) }];
      return [s];
    }),
  });
  return {
    kind: Kind.DOCUMENT,
    definitions: document.definitions.flatMap((d): DefinitionNode[] => {
      if (d === operation) return [{ ...operation, selectionSet: strip(operation.selectionSet) }];
      if (d.kind !== Kind.FRAGMENT_DEFINITION) return [];
      return [rootNames.has(d.typeCondition.name.value) ? { ...d, selectionSet: strip(d.selectionSet) } : d];
    }),
  };
}

export interface PlanInput {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  targets: Record<OperationKind, ReadonlyMap<string, FlatTarget>>;
  /** Names of the flat schema's root types (fragments on them are root fragments). */
  rootNames: ReadonlySet<string>;
}

export function planOperation({ document, operation, targets, rootNames }: PlanInput): OperationPlan {
  const kind: OperationKind = operation.operation === OperationTypeNode.MUTATION ? 'mutation' : 'query';
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

  const occurrences: Occurrence[] = [];
  collectRoot(operation.selectionSet, fragments, targets[kind], [], occurrences);
  const groupOfKey = assignGroups(occurrences, kind);

  const keys = new Map<string, KeySource>();
  const fields = new Map<string, FlatTarget>();
  const groups: Array<{ alias: string; entity: string; selections: SelectionNode[] }> = [];
  let hasLocal = false;
  for (const occurrence of occurrences) {
    const { key, target } = occurrence;
    if (!target) {
      hasLocal = true;
      if (!keys.has(key)) keys.set(key, { local: true });
      continue;
    }
    const alias = groupOfKey.get(key)!;
    if (!keys.has(key)) keys.set(key, { group: alias });
    if (!fields.has(target.flatName)) fields.set(target.flatName, target);
    const previous = groups[groups.length - 1];
    // Adjacent occurrences share one group node: fewer root fields for v6 to validate and merge.
    if (previous?.alias === alias) previous.selections.push(wrapped(occurrence, target));
    else groups.push({ alias, entity: target.entity, selections: [wrapped(occurrence, target)] });
  }

  let v6: DocumentNode | null = null;
  if (groups.length > 0) {
    const selections: FieldNode[] = groups.map((g) => ({
      kind: Kind.FIELD,
      alias: g.alias === g.entity ? undefined : name(g.alias),
      name: name(g.entity),
      arguments: [],
      directives: [],
      selectionSet: { kind: Kind.SELECTION_SET, selections: g.selections },
    }));
    const reachable = fragmentsReachable(selections, fragments);
    const used = variablesUsed([...selections, ...reachable]);
    v6 = {
      kind: Kind.DOCUMENT,
      definitions: [
        {
          ...operation,
          // v6 rejects variables its document no longer uses (they fed introspection fields).
          variableDefinitions: operation.variableDefinitions?.filter((v) => used.has(v.variable.name.value)),
          selectionSet: { kind: Kind.SELECTION_SET, selections },
        },
        ...reachable,
      ],
    };
  }
  return {
    operation,
    kind,
    v6,
    local: hasLocal ? localDocument(document, operation, rootNames) : null,
    keys: [...keys],
    fields: [...fields.values()],
  };
}

/** The v5 root of the answer to a plan's operation: each response key read from its v6 group, or from the local (introspection) run. */
export function v5Data(plan: OperationPlan, grouped: Record<string, unknown> | null, local: Record<string, unknown> | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, source] of plan.keys) {
    const from = 'group' in source ? (grouped?.[source.group] as Record<string, unknown> | null | undefined) : local;
    if (from && Object.prototype.hasOwnProperty.call(from, key)) data[key] = from[key];
  }
  return data;
}

/** A v6 error as the v5 client sees it: its path without the group, its locations in the client's text. */
export function mapError(error: GraphQLFormattedError, plan: OperationPlan, locations: () => LocationMap | null): GraphQLFormattedError {
  const out: { -readonly [K in keyof GraphQLFormattedError]: GraphQLFormattedError[K] } = { message: error.message };
  if (error.locations) {
    const map = locations();
    const mapped = map ? error.locations.map((l) => map.map(l)).filter((l) => l !== null) : [];
    if (mapped.length > 0) out.locations = mapped;
  }
  if (error.path) {
    // [group alias, v5 key, ...rest] → [v5 key, ...rest]
    const [group, ...rest] = error.path;
    out.path = rest.length > 0 && plan.keys.some(([, s]) => 'group' in s && s.group === group) ? rest : error.path;
  }
  if (error.extensions) out.extensions = error.extensions;
  return out;
}
