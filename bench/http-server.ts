/**
 * One server of the HTTP load bench (bench/http.ts), in a process of its own so its RSS is its
 * own and the load generator does not share its event loop. `tsx bench/http-server.ts <kind>`:
 *   ergraph  the demo app (examples/demo/app.ts): /graphql and /graphql/v5
 *   minimal  Hono + graphql-js + DataLoader over the same tables, written the short way
 * Both open the embedded database (or the PostgreSQL database named by BENCH_DATABASE_URL) seeded
 * with the same rows, listen on a free loopback port and print `{"port": n}` on stdout.
 */
import DataLoader from 'dataloader';
import { asc, inArray, sql } from 'drizzle-orm';
import { buildSchema, graphql } from 'graphql';
import { Hono } from 'hono';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../examples/demo/app.js';
import { openDatabase } from '../examples/demo/database.js';
import { buildGraph } from '../examples/demo/graph.js';
import { projects, users } from '../examples/demo/schema.js';
import { ensureSeeded, SIZES } from '../examples/demo/seed.js';
import type { SqlDatabase } from 'ergraph/orm';
import { serveApp } from 'ergraph/http';

/** The same rows for every server: a tenth of the demo unless ERGRAPH_BENCH_FULL=1. */
export const BENCH_SIZES = process.env.ERGRAPH_BENCH_FULL ? SIZES : { users: 30, projects: 60, tasks: 600, comments: 1800, tags: 24 };

const MINIMAL_SDL = /* GraphQL */ `
  type Project { id: Int! name: String! }
  type ProjectPage { items: [Project!]! }
  type User { id: Int! name: String! email: String! projects(limit: Int = 20): ProjectPage! }
  type Query { users(limit: Int = 20): [User!]! }
`;

type Row = Record<string, unknown>;

/** What a developer writes in an afternoon: one DataLoader per request and relationship. */
export function minimalApp(db: SqlDatabase): Hono {
  const schema = buildSchema(MINIMAL_SDL);
  const loaders = () => {
    // Pages per (owner, limit): one windowed query per batch, newest first like the demo's order.
    const pages = new Map<number, DataLoader<number, Row[]>>();
    return {
      projects(limit: number) {
        let loader = pages.get(limit);
        if (!loader) {
          loader = new DataLoader<number, Row[]>(async (owners) => {
            const rows = (await db.execute(sql`
              select id, name, owner_id from (
                select id, name, owner_id, row_number() over (partition by owner_id order by created_at desc, id) as rn
                from ${projects} where ${inArray(projects.ownerId, [...owners])}
              ) t where rn <= ${limit}`)) as unknown as { rows: Row[] };
            const byOwner = new Map<number, Row[]>();
            for (const row of rows.rows) {
              const list = byOwner.get(row.owner_id as number) ?? [];
              list.push(row);
              byOwner.set(row.owner_id as number, list);
            }
            return owners.map((o) => byOwner.get(o) ?? []);
          });
          pages.set(limit, loader);
        }
        return loader;
      },
    };
  };
  const rootValue = {
    users: ({ limit }: { limit: number }) => db.select().from(users).orderBy(asc(users.id)).limit(limit),
  };
  const resolvers = schema.getType('User') as unknown as { getFields(): Record<string, { resolve?: unknown }> };
  resolvers.getFields().projects!.resolve = (user: Row, args: { limit: number }, ctx: ReturnType<typeof loaders>) =>
    ctx.projects(Math.min(args.limit, 100)).load(user.id as number).then((items) => ({ items }));
  const app = new Hono();
  app.post('/graphql', async (c) => {
    const { query, variables, operationName } = await c.req.json();
    const result = await graphql({ schema, source: query, rootValue, variableValues: variables, operationName, contextValue: loaders() });
    return c.json(result);
  });
  return app;
}

async function main() {
  const kind = process.argv[2];
  if (kind !== 'ergraph' && kind !== 'minimal') throw new Error(`usage: tsx bench/http-server.ts ergraph|minimal (got ${kind})`);
  // BENCH_DATABASE_URL: a PostgreSQL database of the bench's own (bench/load.ts creates and drops one).
  const database = await openDatabase({ url: process.env.BENCH_DATABASE_URL });
  await ensureSeeded(database.db, BENCH_SIZES);
  const app = kind === 'ergraph' ? createApp(buildGraph(database.db), database.db) : minimalApp(database.db);
  // Served as the demo and `ergraph serve` are: with the package's server limits.
  const served = await serveApp(app);
  process.stdout.write(`${JSON.stringify({ port: served.port })}\n`);
  const stop = () => void served.close().then(() => database.close()).then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
