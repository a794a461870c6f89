import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The package imports itself by name in tests and examples, as users will.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^ergraph\/http$/, replacement: here('./src/http/index.ts') },
      { find: /^ergraph\/orm$/, replacement: here('./src/orm/index.ts') },
      { find: /^ergraph\/usecase$/, replacement: here('./src/usecase/index.ts') },
      { find: /^ergraph\/federation$/, replacement: here('./src/federation/index.ts') },
      { find: /^ergraph\/mcp$/, replacement: here('./src/mcp/index.ts') },
      { find: /^ergraph\/compat$/, replacement: here('./compat/index.ts') },
      { find: /^ergraph\/migrate$/, replacement: here('./codemods/index.ts') },
      { find: /^ergraph$/, replacement: here('./src/index.ts') },
    ],
  },
  // Decorator lowering wraps classes; keep their names, which become routes, tags and types.
  esbuild: { keepNames: true },
  test: {
    // Builds dist/ when it is missing or stale: the bin and packed-package suites run it.
    globalSetup: ['test/support/build-if-stale.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'ergraph', include: ['test/**/*.test.ts'] } },
      // The GraphQL and compat suites again on the graphql-js executor, the reference the compiled
      // one must agree with, so the two cannot drift apart.
      {
        extends: true,
        test: {
          name: 'graphql-js executor',
          include: ['test/graphql/**/*.test.ts', 'test/compat/**/*.test.ts', 'test/security/mutations.test.ts', 'test/orm/graphql.test.ts'],
          env: { ERGRAPH_EXECUTOR: 'graphql-js' },
        },
      },
    ],
  },
});
