/** Reading a relationship's key off a parent object. */
import { SOURCE } from '../er/model.js';
import type { Relationship } from '../er/relationship.js';

export const MISSING: unique symbol = Symbol('ergraph.missingKey');

/** The loader key of a parent object, or MISSING when its FK is null/undefined. */
export function keyOf(parent: unknown, rel: Relationship): unknown {
  const obj = parent as Record<string | symbol, unknown>;
  let raw = obj[rel.fk];
  if (raw === undefined) raw = (obj[SOURCE] as Record<string, unknown> | undefined)?.[rel.fk];
  if (raw === null || raw === undefined) return MISSING;
  return rel.fkFn ? rel.fkFn(raw) : raw;
}
