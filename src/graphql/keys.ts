/** Reading a relationship's key off a parent, and finishing what a loader returned. */
import { SOURCE } from '../er/model.js';
import type { Relationship } from '../er/relationship.js';
import { needsResolve, resolveModels, type Run } from './run.js';

export const MISSING: unique symbol = Symbol('ergraph.missingKey');

/** The loader key of a parent object, or MISSING when its FK is null/undefined. */
export function keyOf(parent: unknown, rel: Relationship): unknown {
  const obj = parent as Record<string | symbol, unknown>;
  let raw = obj[rel.fk];
  if (raw === undefined) raw = (obj[SOURCE] as Record<string, unknown> | undefined)?.[rel.fk];
  if (raw === null || raw === undefined) return MISSING;
  return rel.fkFn ? rel.fkFn(raw) : raw;
}

/** Loaded values that are response models with `resolveX` / `postX` get resolved in the same run. */
export function finish<T>(run: Run, value: T): T | Promise<T> {
  return needsResolve(run, value) ? resolveModels(run, value).then(() => value) : value;
}

