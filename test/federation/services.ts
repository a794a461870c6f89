/**
 * Three small services for the federation suites: `users` (plain models, key loader),
 * `reviews` (Drizzle on PGlite; mounts users) and `products` (plain models; mounts reviews).
 * Each is served on 127.0.0.1 port 0 and counts the HTTP requests it receives.
 */
import { serve, type ServerType } from '@hono/node-server';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { DefineSubset, Entity, ErDiagram, GraphQLHandler, QueryConfig, SubsetConfig, model } from 'ergraph';
import { tableModel } from 'ergraph/orm';
import { BatchPageConfig, OrderTerm, PageOrder, RemoteRelationship, RemoteService, buildFederableApp } from 'ergraph/federation';

export interface Running {
  address: string;
  /** Requests by path since the last reset. */
  requests: string[];
  close(): Promise<void>;
}

/** Serve a Hono app on 127.0.0.1:0, counting requests. */
export async function start(app: Hono, before?: () => Promise<void>): Promise<Running> {
  const requests: string[] = [];
  const outer = new Hono();
  outer.use(async (c, next) => {
    requests.push(`${c.req.method} ${new URL(c.req.url).pathname}`);
    if (before) await before();
    await next();
  });
  outer.route('/', app);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: outer.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---------- users: plain models, rows from memory through a key loader ----------

export class User extends model({ id: z.int(), name: z.string() }) {
  static __federation_keys__ = ['id'];
}
export const USERS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `user-${i + 1}` }));

export function usersService() {
  const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: User })] }), { serviceName: 'users' });
  let calls = 0;
  const app = buildFederableApp(handler, {
    keyLoaders: {
      User: async (key, values) => {
        calls++;
        return USERS.filter((u) => values.includes(u[key as 'id'])).map((u) => new User(u));
      },
    },
  });
  return { handler, app, loaderCalls: () => calls };
}

// ---------- reviews: Drizzle on PGlite, mounts users ----------

export const reviewsTable = pgTable('reviews', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull(),
  userId: integer('user_id').notNull(),
  rating: integer('rating').notNull(),
  body: text('body').notNull(),
  /** Nullable on purpose: the strict reverse must flip nulls placement too. */
  postedAt: integer('posted_at'),
});

const users = new RemoteService('users');

export class Review extends tableModel(reviewsTable) {
  static __federation_keys__ = ['productId', 'userId'];
  static __pagination_orders__ = new BatchPageConfig({
    defaultOrder: 'recent',
    orders: {
      recent: new PageOrder([new OrderTerm('postedAt', 'DESC')]),
      best: new PageOrder([new OrderTerm('rating', 'DESC')]),
    },
  });
  static __relationships__ = [new RemoteRelationship({ fk: 'userId', target: users.User, name: 'author', joinRemote: 'id' })];
}

/** Published for DTO federation; `stars` is computed on the member by its own resolver. */
export class ReviewDTO extends DefineSubset(
  new SubsetConfig({ kls: Review, fields: ['id', 'productId', 'rating', 'body'], federationPublic: true, federationKey: 'productId' }),
  { stars: z.string().default('') },
) {
  resolveStars() {
    return '*'.repeat(this.rating);
  }
}

/** 200 products × 3 reviews, with some null `postedAt`. */
export function reviewRows() {
  const rows = [];
  let id = 0;
  for (let p = 1; p <= 200; p++) {
    for (let j = 0; j < 3; j++) {
      id++;
      rows.push({ id, productId: p, userId: (id % 5) + 1, rating: ((id * 7) % 5) + 1, body: `review ${id}`, postedAt: j === 1 ? null : id * 10 });
    }
  }
  return rows;
}

export async function reviewsService() {
  const pglite = new PGlite();
  const db = drizzle(pglite);
  await pglite.exec(
    'create table reviews (id serial primary key, product_id integer not null, user_id integer not null, rating integer not null, body text not null, posted_at integer)',
  );
  await db.insert(reviewsTable).values(reviewRows());
  const statements: string[] = [];
  const counted = drizzle(pglite, { logger: { logQuery: (q) => statements.push(q) } });
  const diagram = new ErDiagram({
    entities: [new Entity({ kls: Review, relationships: Review.__relationships__ as never })],
  });
  const handler = new GraphQLHandler(diagram, { serviceName: 'reviews', sessionFactory: () => counted });
  // No query returns ReviewDTO, so the member is told which subclass carries the name and resolveStars.
  const app = buildFederableApp(handler, { dtos: [ReviewDTO] });
  return { handler, app, statements, close: () => pglite.close() };
}

// ---------- products: plain models, mounts reviews ----------

export const reviews = new RemoteService('reviews');

export class Product extends model({ id: z.int(), name: z.string() }) {
  static __relationships__ = [
    new RemoteRelationship({ fk: 'id', target: [reviews.Review], name: 'reviews', joinRemote: 'productId' }),
    new RemoteRelationship({ fk: 'id', target: [reviews.Review], name: 'reviewPage', joinRemote: 'productId', pagination: true }),
  ];
}

export const PRODUCTS = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: `product-${i + 1}` }));

export function productsHandler() {
  const entity = new Entity({
    kls: Product,
    relationships: Product.__relationships__ as never,
    queries: [
      new QueryConfig({
        name: 'getAll',
        args: { limit: z.int().default(200) },
        returns: () => [Product],
        method: async ({ limit }: { limit: number }) => PRODUCTS.slice(0, limit).map((p) => new Product(p)),
      }),
    ],
  });
  return new GraphQLHandler(new ErDiagram({ entities: [entity] }), { serviceName: 'products' });
}


/** users <- reviews <- products, the chain most federation tests query; `close()` stops it all. */
export async function startChain() {
  const usersRun = await start(usersService().app);
  const reviews = await reviewsService();
  await reviews.handler.federate({ services: { users: usersRun.address } });
  const reviewsRun = await start(reviews.app);
  const products = productsHandler();
  await products.federate({ services: { reviews: reviewsRun.address } });
  return {
    usersRun,
    reviewsRun,
    reviews,
    products,
    async close() {
      await reviewsRun.close();
      await usersRun.close();
      await reviews.close();
    },
  };
}
