/**
 * The demo app (examples/demo/app.ts) as an attacker meets it: built in-process on the embedded
 * database with a few of the demo's rows, optionally listening on a free loopback port.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../examples/demo/app.js';
import { openDatabase, type DemoDatabase } from '../../examples/demo/database.js';
import { buildGraph } from '../../examples/demo/graph.js';
import { ensureSeeded } from '../../examples/demo/seed.js';

// Attacks are refused before any row is read; a few rows are enough to show good requests still work.
export const SMALL = { users: 10, projects: 20, tasks: 100, comments: 300, tags: 8 };

export interface DemoUnderAttack {
  app: Hono;
  database: DemoDatabase;
  /** `http://127.0.0.1:<port>` once `listen()` ran. */
  base: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function startDemo(): Promise<DemoUnderAttack> {
  const database = await openDatabase();
  await ensureSeeded(database.db, SMALL);
  const app = createApp(buildGraph(database.db), database.db);
  let server: ServerType | undefined;
  const demo: DemoUnderAttack = {
    app,
    database,
    base: '',
    async listen() {
      await new Promise<void>((resolve) => {
        server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
      });
      demo.base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
      return demo.base;
    },
    async close() {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      await database.close();
    },
  };
  return demo;
}

/** POST a GraphQL request in-process; the parsed body and status. */
export async function postGraphQL(app: Hono, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: any; errors: any[] | null } };
}

/** Memory the heap grew by while `run` ran, in MB (after a GC when node exposes it). */
export async function heapGrowth<T>(run: () => Promise<T>): Promise<{ result: T; mb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const result = await run();
  const mb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  return { result, mb };
}
