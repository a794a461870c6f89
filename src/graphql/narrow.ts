/**
 * The column-pruning seam between relationship fields and the level scheduler: a field of a
 * relationship whose loader can read fewer columns (`FieldSelectingRelationship`, the SQL
 * integration's) hands its load the fields its selection reads; the level unions them per
 * loader and dispatches to the loader for the union (levels.ts `Narrow`).
 */
import type { GraphQLResolveInfo } from 'graphql';
import type DataLoader from 'dataloader';
import type { ResolvedRelationship } from '../er/diagram.js';
import type { FieldSelectingRelationship, PageRequest } from '../er/relationship.js';
import { targetFields } from './fields.js';
import type { Narrow } from './levels.js';
import type { Run } from './run.js';

const selecting = (r: object): r is FieldSelectingRelationship => typeof (r as Partial<FieldSelectingRelationship>).loaderFor === 'function';

/** For a relationship's batch loader (`path`: where the target's fields sit below the field, e.g. `['items']`). */
export function narrowLoads(run: Run, rel: ResolvedRelationship, info: GraphQLResolveInfo, path: readonly string[] = []): Narrow | undefined {
  const r = rel.relationship;
  if (!selecting(r)) return undefined;
  const fields = targetFields(info, rel.target, run.diagram, path);
  return fields && { fields, loader: (union) => run.pool.get(r.loaderFor(union)) };
}

/**
 * For the page loader of such a relationship: the same page request, with the union of fields
 * (other page loaders keep seeing the request they always saw).
 */
export function narrowPages(run: Run, rel: ResolvedRelationship, info: GraphQLResolveInfo, request: PageRequest): Narrow | undefined {
  const fn = rel.relationship.pageLoader;
  if (!fn || !selecting(rel.relationship)) return undefined;
  const fields = targetFields(info, rel.target, run.diagram, ['items']);
  return fields && { fields, loader: (union) => run.pool.page(fn, { ...request, fields: union }) as DataLoader<unknown, unknown> };
}
