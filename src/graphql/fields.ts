/**
 * Column pruning, GraphQL side: which fields of a relationship's target one field node's
 * selection reads. Loaders that can read fewer columns (the SQL integration's) get the union of
 * these lists over every field of a level that uses them (see levels.ts), so a level still
 * costs one statement per relationship.
 *
 * A field of the target is needed when it is selected, when a selected relationship (local or
 * remote) of the target takes its key from it (`fk`), and always when the target class has
 * `resolveX` / `postX` / expose / collect work: those methods may read any field, so such a
 * class gets every column. A selected field this module cannot account for (one contributed by
 * some other extension) also means every column: pruning must never drop data a resolver reads.
 */
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { ErDiagram } from '../er/diagram.js';
import { modelFields, type AnyModelClass } from '../er/model.js';
import { planFor } from '../resolver/plan.js';
import { fieldsOf } from './selections.js';

interface Cached {
  variables: unknown;
  fields: readonly string[] | undefined;
}

// graphql-js hands every item of a list the same `fieldNodes` array: derive once per array.
const cache = new WeakMap<readonly FieldNode[], Cached>();

/** The sub-selections of the current field, or of `path` (field names) below it. */
function selectedNodes(info: GraphQLResolveInfo, path: readonly string[]): readonly FieldNode[] {
  let nodes: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    for (const node of nodes) for (const field of fieldsOf(node.selectionSet, info)) if (field.name.value === name) next.push(field);
    nodes = next;
  }
  return nodes;
}

/** Names a selected field may reach beyond the model's own fields: relationship name → its key field. */
function keyFieldsOf(kls: AnyModelClass, diagram: ErDiagram): Map<string, string> {
  const out = new Map<string, string>();
  // Every edge kind the entity declares (federation's remote relationships too) names its key field `fk`.
  for (const entity of diagram.entities) {
    if (entity.kls !== kls) continue;
    for (const rel of entity.relationships as readonly { name?: unknown; fk?: unknown }[]) {
      if (typeof rel.name === 'string' && typeof rel.fk === 'string') out.set(rel.name, rel.fk);
    }
  }
  return out;
}

function derive(info: GraphQLResolveInfo, target: AnyModelClass, diagram: ErDiagram, path: readonly string[]): readonly string[] | undefined {
  if (!planFor(target, diagram).trivial) return undefined;
  const own = new Set(modelFields(target).map((f) => f.key));
  const keys = keyFieldsOf(target, diagram);
  const needed = new Set<string>();
  for (const node of selectedNodes(info, path)) {
    for (const field of fieldsOf(node.selectionSet, info)) {
      const name = field.name.value;
      if (name === '__typename') continue;
      if (own.has(name)) needed.add(name);
      else if (keys.has(name)) needed.add(keys.get(name)!);
      else return undefined;
    }
  }
  return [...needed].sort();
}

/**
 * The sorted fields of `target` that the current field's selection (at `path` below it, e.g.
 * `['items']` for a page) reads, or `undefined` when every field must be read.
 */
export function targetFields(
  info: GraphQLResolveInfo,
  target: AnyModelClass,
  diagram: ErDiagram,
  path: readonly string[] = [],
): readonly string[] | undefined {
  const hit = cache.get(info.fieldNodes);
  if (hit && hit.variables === info.variableValues) return hit.fields;
  const fields = derive(info, target, diagram, path);
  cache.set(info.fieldNodes, { variables: info.variableValues, fields });
  return fields;
}
