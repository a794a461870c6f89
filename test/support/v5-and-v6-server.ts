/**
 * One server as the docs mount it for clients moving from v5: compat (v5) at /graphql/v5 and
 * v6 at /graphql over the same handler, on a free loopback port (the tests that run clients or
 * `ergraph-migrate verify --url` against both endpoints).
 */
import { Hono } from 'hono';
import type { GraphQLHandler } from '../../src/index.js';
import { graphqlApp, serveApp, type ServedApp } from '../../src/http/index.js';
import { compatApp, createCompatHandler } from '../../compat/index.js';

export function serveV5AndV6(handler: GraphQLHandler): Promise<ServedApp> {
  const app = new Hono();
  app.route('/', compatApp(createCompatHandler(handler), { path: '/graphql/v5' }));
  app.route('/', graphqlApp(handler, { path: '/graphql' }));
  return serveApp(app, { port: 0 });
}
