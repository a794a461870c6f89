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
      { find: /^ergraph-migrate$/, replacement: here('./codemods/index.ts') },
      { find: /^ergraph$/, replacement: here('./src/index.ts') },
    ],
  },
  // Decorator lowering wraps classes; keep their names, which become routes, tags and types.
  esbuild: { keepNames: true },
  test: {
    // Builds dist/ when it is missing or stale; lists (and with CI or ERGRAPH_REQUIRE_* fails on) what was skipped.
    globalSetup: ['test/support/build-if-stale.ts', 'test/support/skips-report.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'ergraph', include: ['test/**/*.test.ts'] } },
      // Every suite that executes GraphQL in this process runs again on the graphql-js executor,
      // the reference the compiled one must agree with, so the two cannot drift apart. Left out,
      // each for its reason:
      //   test/graphql/executor-differential.test.ts  builds both executors itself, case by case
      //   test/security/key-spaces.test.ts  floods the caches in front of both executors (documents,
      //                     operation names, APQ) with 8,000-20,000 values per key — a minute per run; the
      //                     one executor's own key space, compiled plans, is the compiled executor's
      //   test/usecase      use-case routes call service methods (zod in, zod out): no GraphQL executor
      //   test/cli, test/examples/demo-process.test.ts  run the built bins in child processes; what
      //                     they execute is the in-process suites' code, and a child would add minutes
      //   test/codemods, test/consumer, test/er (but transpiler-names), test/picture, test/resolver,
      //   test/legacy-decorators, test/architecture.test.ts  execute no GraphQL
      {
        extends: true,
        test: {
          name: 'graphql-js executor',
          include: [
            'test/graphql/**/*.test.ts',
            'test/compat/**/*.test.ts',
            'test/federation/**/*.test.ts',
            'test/mcp/**/*.test.ts',
            'test/security/**/*.test.ts',
            'test/orm/**/*.test.ts',
            'test/http/**/*.test.ts',
            'test/examples/demo.test.ts',
            'test/er/transpiler-names.test.ts',
          ],
          exclude: ['test/graphql/executor-differential.test.ts', 'test/security/key-spaces.test.ts'],
          env: { ERGRAPH_EXECUTOR: 'graphql-js' },
        },
      },
    ],
  },
});
