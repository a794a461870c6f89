/**
 * The demo's HTTP surface, one mount per line: GraphQL (GraphiQL on GET, the ER page at /er), the use-case routes
 * with OpenAPI and docs, MCP over Streamable HTTP, and the v5 compat endpoint.
 */
import { Hono } from 'hono';
import { graphqlApp } from 'ergraph/http';
import { createUseCaseRouter } from 'ergraph/usecase';
import { createMcpServer, mcpApp } from 'ergraph/mcp';
import { compatApp, createCompatHandler, type UsageRecorder } from 'ergraph/compat';
import type { SqlDatabase } from 'ergraph/orm';
import { DEMO_MUTATION, type DemoGraph } from './graph.js';
import { demoServices } from './services.js';

/** The landing page: one line per surface. Links to v5 retirement reports belong in COMPAT_LINKS. */
const COMPAT_LINKS = ['<a href="/graphql/v5/usage">retirement report</a>'];
// The icon is declared (none: `data:,`) so the browser does not ask for a /favicon.ico the app has not got.
const INDEX = `<!doctype html><meta charset="utf-8"><title>ergraph demo</title><link rel="icon" href="data:,"><h1>ergraph demo</h1><ul>
<li><a href="/graphql">GraphQL v6 (GraphiQL)</a> — try the mutation <code>${DEMO_MUTATION.replace(/"/g, '&quot;')}</code></li>
<li><a href="/er">ER diagram</a> (entities, relationships, services; each entity opens its GraphiQL docs)</li>
<li><a href="/docs">Use-case routes (API docs)</a> · <a href="/openapi.json">openapi.json</a></li>
<li>MCP (Streamable HTTP): POST /mcp</li>
<li><a href="/graphql/v5">GraphQL v5 compat (GraphiQL)</a> · ${COMPAT_LINKS.join(' · ')}</li>
</ul>`;

/** What GraphiQL on /graphql/v5 opens with: the old flat root fields, served by the v6 executor. */
export const DEMO_V5_QUERY = `# The deprecated v5 flat schema, served over the v6 executor.
# Each response names the v6 replacement in extensions.deprecations.
{
  userGetAll(limit: 3) {
    id
    name
    assignedTasks(limit: 2) { items { title status } }
  }
  projectSearch(text: "billing", limit: 2) { name }
}
`;

/**
 * What GraphiQL opens with: one runnable query showing the grouped roots, nested pagination
 * (per-parent limits, `has_more`, `total_count`) and a many-to-many relationship, all against
 * the seeded data, so a newcomer can press run before reading anything.
 */
export const DEMO_QUERY = `# Users, their highest-priority tasks, and each task's tags and latest comments.
# Press the run button (or Ctrl-Enter); the Docs and Explorer panes list every field.
{
  User {
    getAll(limit: 3) {
      id
      name
      email
      assignedTasks(limit: 2) {
        items {
          id
          title
          status
          priority
          tags(limit: 3) {
            items { label }
          }
          comments(limit: 2) {
            items {
              body
              author { name }
            }
            pagination { has_more total_count }
          }
        }
        pagination { has_more total_count }
      }
    }
  }
}
`;

/** `usage`: where v5 use is counted (the demo process passes one on its database; in memory otherwise). */
export function createApp(graph: DemoGraph, db: SqlDatabase, usage?: UsageRecorder): Hono {
  const app = new Hono();
  app.route('/', compatApp(createCompatHandler(graph.handler, usage ? { usage } : {}), { path: '/graphql/v5', defaultQuery: DEMO_V5_QUERY, name: 'demo' }));
  const services = demoServices(db, graph);
  // /er: the ER diagram, with the use-case services and the entities their DTOs read.
  app.route('/', graphqlApp(graph.handler, { path: '/graphql', defaultQuery: DEMO_QUERY, er: { services } }));
  app.route('/', createUseCaseRouter(services));
  const apps = [{ name: 'demo', handler: graph.handler, description: 'Users, projects, tasks, comments and tags' }];
  // The demo lets agents try mutations (graphql_mutation is off unless asked for); /mcp answers
  // loopback hosts and pages only, against DNS rebinding.
  app.route('/', mcpApp(() => createMcpServer({ apps, v5Compat: true, mutations: true })));
  app.get('/', (c) => c.html(INDEX));
  return app;
}
