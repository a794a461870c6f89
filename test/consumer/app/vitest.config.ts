import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql 16 has no exports map: Node gives ergraph graphql's CommonJS entry while Vite would
  // give test files its .mjs one — two copies, and "Cannot use GraphQLSchema from another module
  // or realm". Pointing test files at the CommonJS entry too leaves one copy.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
});
