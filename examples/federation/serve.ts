/** Shared by the three services: in-memory PGlite with a seed, and serving on 127.0.0.1. */
import { serve } from '@hono/node-server';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';

export const PORTS = {
  products: Number(process.env.PRODUCTS_PORT ?? 4101),
  reviews: Number(process.env.REVIEWS_PORT ?? 4102),
  users: Number(process.env.USERS_PORT ?? 4103),
};

export const address = (service: keyof typeof PORTS) => `http://127.0.0.1:${PORTS[service]}`;

export async function database(ddl: string) {
  const pglite = new PGlite();
  await pglite.exec(ddl);
  return { pglite, db: drizzle(pglite) };
}

/** Serve `app`, then print the line `start.ts` waits for. */
export function listen(name: string, app: Hono, port: number): void {
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, (info: AddressInfo) => {
    console.log(`READY ${name} http://127.0.0.1:${info.port}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
