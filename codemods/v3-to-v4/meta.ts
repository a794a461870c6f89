/** What the CLI lists and `upgrade` chains by, without loading the step (and TypeScript's parser). */
import type { StepMeta } from '../types.js';

export const meta: StepMeta = {
  name: 'v3-to-v4',
  from: '3',
  to: '4',
  description:
    'Relationship options (field→fk, targetKls→target, …, defaultFieldName→name), MultipleRelationship split, LoadBy→AutoLoad, ' +
    'Resolver loaderFilters→loaderParams, __relationships__, LoaderDepend→Loader, @modelConfig()→@serialization',
};
