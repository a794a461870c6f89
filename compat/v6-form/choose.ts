/**
 * Which v6 schema a GraphQL document is written for. A project may hold documents for other
 * services (a `gql` template for a payments API) and, with several diagrams, for several of its
 * own schemas: each document goes to the schema most of its root fields belong to (as v5 flat
 * names or v6 groups), and a document none of whose root fields belong to any is not for this API.
 */
import { Kind, OperationTypeNode, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { buildFlatIndex, groupsOf, rootType, type FlatIndex, type OperationKind } from '../flat-index.js';

export interface SchemaChoice {
  schema: GraphQLSchema;
  index: FlatIndex;
}

interface Known {
  schema: GraphQLSchema;
  index: FlatIndex;
  groups: Record<OperationKind, Set<string>>;
  roots: Record<OperationKind, string>;
}

const known = new WeakMap<GraphQLSchema, Known>();

export function knownOf(schema: GraphQLSchema): Known {
  let k = known.get(schema);
  if (!k) {
    k = {
      schema,
      index: buildFlatIndex(schema),
      groups: {
        query: new Set(groupsOf(schema, 'query').map((g) => g.entity)),
        mutation: new Set(groupsOf(schema, 'mutation').map((g) => g.entity)),
      },
      roots: { query: rootType(schema, 'query')?.name ?? 'Query', mutation: rootType(schema, 'mutation')?.name ?? 'Mutation' },
    };
    known.set(schema, k);
  }
  return k;
}

/** The root fields a document selects, by operation kind (subscriptions and `__` fields aside). */
export function rootFields(document: DocumentNode, isPlaceholder: (offset: number) => boolean = () => false): { kind: OperationKind | 'fragment'; name: string; on?: string }[] {
  const out: { kind: OperationKind | 'fragment'; name: string; on?: string }[] = [];
  const collect = (set: SelectionSetNode, kind: OperationKind | 'fragment', on?: string) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (!s.name.value.startsWith('__') && !isPlaceholder(s.name.loc!.start)) out.push({ kind, name: s.name.value, on });
      } else if (s.kind === Kind.INLINE_FRAGMENT) collect(s.selectionSet, kind, s.typeCondition?.name.value ?? on);
    }
  };
  for (const d of document.definitions) {
    if (d.kind === Kind.OPERATION_DEFINITION && d.operation !== OperationTypeNode.SUBSCRIPTION)
      collect(d.selectionSet, d.operation === OperationTypeNode.MUTATION ? 'mutation' : 'query');
    else if (d.kind === Kind.FRAGMENT_DEFINITION) collect(d.selectionSet, 'fragment', d.typeCondition.name.value);
  }
  return out;
}

function belongs(k: Known, field: { kind: OperationKind | 'fragment'; name: string; on?: string }): boolean {
  const kinds: OperationKind[] =
    field.kind === 'fragment' ? (['query', 'mutation'] as const).filter((op) => k.roots[op] === field.on) : [field.kind];
  return kinds.some((op) => k.groups[op].has(field.name) || k.index[op].has(field.name));
}

/**
 * The schema for a document: `undefined` when it selects no root field at all (fragments on
 * ordinary types), `'foreign'` when none of its root fields belongs to any schema.
 */
export function chooseSchema(
  document: DocumentNode,
  schemas: readonly GraphQLSchema[],
  isPlaceholder?: (offset: number) => boolean,
): SchemaChoice | 'foreign' | undefined {
  const rootNames = new Set(schemas.flatMap((s) => Object.values(knownOf(s).roots)));
  const fields = rootFields(document, isPlaceholder).filter((f) => f.kind !== 'fragment' || rootNames.has(f.on!));
  if (fields.length === 0) return undefined;
  let best: { k: Known; score: number } | undefined;
  for (const schema of schemas) {
    const k = knownOf(schema);
    const score = fields.filter((f) => belongs(k, f)).length;
    if (score > (best?.score ?? 0)) best = { k, score };
  }
  return best ? { schema: best.k.schema, index: best.k.index } : 'foreign';
}

/** Without a schema: does the document select root fields (operations, fragments on Query/Mutation)? */
export function selectsRootFields(document: DocumentNode, isPlaceholder?: (offset: number) => boolean): boolean {
  return rootFields(document, isPlaceholder).some((f) => f.kind !== 'fragment' || f.on === 'Query' || f.on === 'Mutation');
}
