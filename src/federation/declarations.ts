/**
 * Federation declarations (specification 2.7): the `Paged` field marker. Order profiles are
 * declarations of the ER graph itself (`src/er/orders.ts`); they are re-exported here because
 * federation members publish them.
 */
import { ConfigError } from '../er/errors.js';
import type { LoadingMarker } from '../resolver/plan.js';
import { pagedResolver } from './mount/dtos.js';

export { OrderTerm, PageOrder, BatchPageConfig, paginationOrdersOf } from '../er/orders.js';
export type { Direction, BatchPageConfigOptions } from '../er/orders.js';

/** `Paged({ limit })`: top-N per parent for a DTO federation list field. */
export interface PagedMarker extends LoadingMarker {
  kind: 'paged';
  limit: number;
}

export function Paged(options: { limit: number }): PagedMarker {
  if (!Number.isInteger(options.limit) || options.limit < 1) {
    throw new ConfigError(`Paged({ limit }) needs a positive integer limit, got ${String(options.limit)}`);
  }
  const limit = options.limit;
  // The resolver asks the marker for the field's loading method when it plans the class.
  return { kind: 'paged', limit, resolverMethod: (target) => pagedResolver(limit, target) };
}
