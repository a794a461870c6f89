/**
 * The demo's graph as an app module, for every `--app` command of the docs:
 *
 *   npx ergraph serve --app examples/demo/apps.ts        GraphQL, GraphiQL, /er, MCP at /mcp
 *   npx ergraph mcp --app examples/demo/apps.ts          MCP over stdio, as an agent spawns it
 *   npx ergraph schema print --app examples/demo/apps.ts [--v5]
 *   npx ergraph er --app examples/demo/apps.ts --format svg > demo.svg
 *   npx ergraph doctor --app examples/demo/apps.ts
 *
 * It has a database of its own — the server of DATABASE_URL (seeded when empty), else an embedded
 * PGlite in memory with a tenth of the demo's rows — so it never touches the directory a running
 * demo holds (`main.ts` is the demo's server, a script; this is the module). The database is made
 * and seeded in the background: `schema print` and `er` need none of it and do not wait, and each
 * request waits until it is ready (the app's context).
 */
import { connectDatabase } from './database.js';
import { buildGraph } from './graph.js';
import { ensureSeeded, SIZES } from './seed.js';
import { demoServices } from './services.js';

const TENTH = { users: SIZES.users / 10, projects: SIZES.projects / 10, tasks: SIZES.tasks / 10, comments: SIZES.comments / 10, tags: SIZES.tags };

const database = connectDatabase({ url: process.env.DATABASE_URL || undefined });
const seeded = database.ready.then(() => ensureSeeded(database.db, TENTH));
// A failure is each request's error (below), not an unhandled rejection ending the command.
seeded.catch(() => undefined);
const graph = buildGraph(database.db);

export const apps = [
  {
    name: 'demo',
    handler: graph.handler,
    description: 'Users, projects, tasks, comments and tags (the ergraph demo)',
    context: async () => {
      await seeded;
      return {};
    },
  },
];
/** Drawn on the ER picture (`er`, and `serve`'s /er page) beside the entities they read. */
export const services = demoServices(database.db, graph);
