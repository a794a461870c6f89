/**
 * The steps as the CLI knows them before it runs one: name, versions, description, and how to
 * load the step. A step's module pulls in TypeScript's parser (ts-morph, ~10 MB of JavaScript);
 * `ergraph-migrate --help`, `list`, `--version` and a mistyped command must not wait for it, so
 * this list holds each step's `meta` and an `import()` of the rest.
 * In upgrade order, as `transforms` in registry.ts (test/codemods/registry.test.ts checks both agree).
 */
import { meta as federationConfig } from './federation-config/meta.js';
import type { StepMeta, Transform } from './types.js';
import { meta as v3ToV4 } from './v3-to-v4/meta.js';
import { meta as v4ToV5 } from './v4-to-v5/meta.js';
import { meta as v54ToV55 } from './v5.4-to-v5.5/meta.js';
import { meta as v5ToV6 } from './v5-to-v6/meta.js';

export interface CatalogEntry extends StepMeta {
  load(): Promise<Transform>;
}

export const catalog: readonly CatalogEntry[] = [
  { ...v3ToV4, load: async () => (await import('./v3-to-v4/index.js')).default as Transform },
  { ...v4ToV5, load: async () => (await import('./v4-to-v5/index.js')).default },
  { ...v54ToV55, load: async () => (await import('./v5.4-to-v5.5/index.js')).default as Transform },
  { ...federationConfig, load: async () => (await import('./federation-config/index.js')).default as Transform },
  { ...v5ToV6, load: async () => (await import('./v5-to-v6/index.js')).default as Transform },
];
