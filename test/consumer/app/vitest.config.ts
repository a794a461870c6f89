import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node gives ergraph (in node_modules) one graphql entry and Vite would give test files another
  // (graphql 16: its .mjs beside the CommonJS main; graphql 17: its development build) — two
  // copies, and "Cannot use GraphQLSchema from another module or realm". Resolving graphql as
  // Node does leaves one copy, on either major.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(import.meta.resolve('graphql')) }] },
});
