/** What the CLI lists and `upgrade` chains by, without loading the step (and TypeScript's parser). */
import type { StepMeta } from '../types.js';

export const meta: StepMeta = {
  name: 'v4-to-v5',
  from: '4',
  to: '5',
  description: 'new ErDiagram({ configs }) → new ErDiagram({ entities })',
};
