/** `ergraph/http`: the GraphQL endpoint and GraphiQL page as a Hono app. */
export { graphqlApp } from './graphql-app.js';
export type { GraphqlAppOptions } from './graphql-app.js';
export { assetFile } from './assets.js';
