/**
 * `npx tsx examples/demo/main.ts` (or `npm run demo`): the demo service on PORT (default 4000),
 * on embedded PGlite in `.demo-data/`, or on the PostgreSQL server named by DATABASE_URL.
 */
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { openDatabase } from './database.js';
import { buildGraph } from './graph.js';
import { ensureSeeded } from './seed.js';

const port = Number(process.env.PORT ?? 4000);
const started = Date.now();
// The repository's gitignored .demo-data/, wherever the command is started from.
const defaultDataDir = fileURLToPath(new URL('../../.demo-data/pglite', import.meta.url));
const database = await openDatabase({
  url: process.env.DATABASE_URL,
  dataDir: process.env.DATABASE_URL ? undefined : (process.env.DEMO_DATA_DIR ?? defaultDataDir),
});
const seeded = await ensureSeeded(database.db);
const app = createApp(buildGraph(database.db), database.db);
const server = serve({ fetch: app.fetch, port }, (info) => {
  console.log(`ergraph demo on ${database.description}${seeded ? ' (seeded now)' : ''}, ready in ${Date.now() - started} ms`);
  console.log(`GraphiQL: http://localhost:${info.port}/graphql · API docs: /docs · MCP: /mcp · v5 compat: /graphql/v5`);
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    // PGlite must close cleanly or its data directory needs recovery on the next start.
    server.close(() => void database.close().then(() => process.exit(0)));
  });
}
