/** What the CLI lists and `upgrade` chains by, without loading the step (and TypeScript's parser). */
import type { StepMeta } from '../types.js';

export const meta: StepMeta = {
  name: 'federation-config',
  from: '5.5',
  to: '6',
  description:
    'AutoQueryConfig batchKeys/batchPages → static __federation_keys__/__pagination_orders__ on the entity, ' +
    'SubsetConfig federationJoinKey → federationKey (only with several keys), DTO-level orders → source entity',
};
