/** What the CLI lists and `upgrade` chains by, without loading the step (and TypeScript's parser). */
import type { StepMeta } from '../types.js';

export const meta: StepMeta = {
  name: 'v5.4-to-v5.5',
  from: '5.4',
  to: '5.5',
  description: "diagram.createAutoLoad() removed: AutoLoad imported from 'ergraph', configGlobalResolver(diagram) kept or added",
};
