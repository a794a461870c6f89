/** What the CLI lists and `upgrade` chains by, without loading the step (and TypeScript's parser). */
import type { StepMeta } from '../types.js';

export const meta: StepMeta = {
  name: 'v5-to-v6',
  from: '5',
  to: '6',
  description:
    'flat GraphQL root fields → grouped <Entity> { method } (keeping response keys as aliases) in .graphql files, scripts and Vue/Svelte/Astro components, MCP { name } → { entity, method }, naming helpers removed, persisted-query manifests rewritten with an old id → new document mapping',
};
