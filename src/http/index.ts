/** `ergraph/http`: the GraphQL endpoint and GraphiQL page as a Hono app, and the limits of a Node server for it. */
export { graphqlApp } from './graphql-app.js';
export type { GraphqlAppOptions } from './graphql-app.js';
export { assetFile } from './assets.js';
export { serveApp, limitServer, serverOptions, DEFAULT_SERVER_LIMITS } from './serve.js';
export type { ServerLimits, LimitedServer, ServeAppOptions, ServedApp } from './serve.js';
