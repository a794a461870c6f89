/**
 * products: the mounter clients talk to. Product.reviews is a paginated remote relationship to
 * reviews (which itself mounts users), and GET /cards shows DTO federation: ProductCard's
 * `reviews` are the top 2 ReviewDTOs per product, loaded through one dto-batch request.
 */
import { z } from 'zod';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import { Annotated, configResolver, DefineSubset, Entity, ErDiagram, GraphQLHandler, ref } from 'ergraph';
import { AutoQueryConfig, tableModel } from 'ergraph/orm';
import { buildFederableApp, Paged, RemoteRelationship, RemoteService } from 'ergraph/federation';
import { address, database, listen, PORTS } from './serve.js';

export const productsTable = pgTable('products', { id: integer('id').primaryKey(), name: text('name').notNull() });

const reviews = new RemoteService('reviews');

export class Product extends tableModel(productsTable) {
  static __relationships__ = [
    new RemoteRelationship({ fk: 'id', target: [reviews.Review], name: 'reviews', joinRemote: 'productId', pagination: true }),
  ];
}

export class ProductCard extends DefineSubset(Product, ['id', 'name'], {
  reviews: Annotated(z.array(ref(() => reviews.ReviewDTO)).default([]), Paged({ limit: 2 })),
  headline: z.string().default(''),
}) {
  postHeadline() {
    return `${this.name} ${this.reviews.map((r) => r.stars).join(' / ')}`;
  }
}

const { db } = await database('create table products (id integer primary key, name text not null)');
await db.insert(productsTable).values(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `product ${i + 1}` })));

const diagram = new ErDiagram({ entities: [new Entity({ kls: Product, relationships: Product.__relationships__ as never })] });
const handler = new GraphQLHandler(diagram, { serviceName: 'products', sessionFactory: () => db, autoQueryConfig: new AutoQueryConfig() });
await handler.federate({ services: { reviews: address('reviews') } });

const CardResolver = configResolver('CardResolver', diagram);
const app = new Hono();
app.get('/cards', async (c) => {
  const rows = await db.select().from(productsTable).orderBy(productsTable.id);
  const cards = await new CardResolver().resolve(rows.map((row) => new ProductCard(row)));
  return c.json(cards);
});
app.route('/', buildFederableApp(handler));
listen('products', app, PORTS.products);
