/**
 * The demo's HTTP surface, one mount per line: GraphQL (with GraphiQL on GET) now; use-case
 * routes, MCP and the v5 compat endpoint go next to it.
 */
import { Hono } from 'hono';
import { graphqlApp } from 'ergraph/http';
import type { DemoGraph } from './graph.js';

export function createApp(graph: DemoGraph): Hono {
  const app = new Hono();
  app.route('/', graphqlApp(graph.handler, { path: '/graphql' }));
  app.get('/', (c) => c.html(`<!doctype html><title>ergraph demo</title><h1>ergraph demo</h1><ul><li><a href="/graphql">GraphQL (GraphiQL)</a></li></ul>`));
  return app;
}
