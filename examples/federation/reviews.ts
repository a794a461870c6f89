/** reviews: a member owning Review (paged per product), mounting users for Review.author. */
import { z } from 'zod';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { DefineSubset, Entity, ErDiagram, GraphQLHandler, SubsetConfig } from 'ergraph';
import { AutoQueryConfig, tableModel } from 'ergraph/orm';
import { BatchPageConfig, buildFederableApp, OrderTerm, PageOrder, RemoteRelationship, RemoteService } from 'ergraph/federation';
import { address, database, listen, PORTS } from './serve.js';

export const reviewsTable = pgTable('reviews', {
  id: integer('id').primaryKey(),
  productId: integer('product_id').notNull(),
  userId: integer('user_id').notNull(),
  rating: integer('rating').notNull(),
  body: text('body').notNull(),
  postedAt: integer('posted_at'),
});

const users = new RemoteService('users');

export class Review extends tableModel(reviewsTable) {
  static __federation_keys__ = ['productId', 'userId'];
  static __pagination_orders__ = new BatchPageConfig({
    defaultOrder: 'recent',
    orders: { recent: new PageOrder([new OrderTerm('postedAt', 'DESC')]), best: new PageOrder([new OrderTerm('rating', 'DESC')]) },
  });
  static __relationships__ = [new RemoteRelationship({ fk: 'userId', target: users.User, name: 'author', joinRemote: 'id' })];
}

/** Published to mounters; `stars` is computed here, by this service's resolver. */
export class ReviewDTO extends DefineSubset(
  new SubsetConfig({ kls: Review, fields: ['id', 'productId', 'rating', 'body'], federationPublic: true, federationKey: 'productId' }),
  { stars: z.string().default('') },
) {
  resolveStars() {
    return '★'.repeat(this.rating);
  }
}

const { db } = await database(
  'create table reviews (id integer primary key, product_id integer not null, user_id integer not null, rating integer not null, body text not null, posted_at integer)',
);
const rows = [];
for (let id = 1; id <= 30; id++) {
  rows.push({ id, productId: ((id - 1) % 10) + 1, userId: (id % 5) + 1, rating: ((id * 7) % 5) + 1, body: `review #${id}`, postedAt: id % 4 ? id * 100 : null });
}
await db.insert(reviewsTable).values(rows);

const diagram = new ErDiagram({ entities: [new Entity({ kls: Review, relationships: Review.__relationships__ as never })] });
const handler = new GraphQLHandler(diagram, { serviceName: 'reviews', sessionFactory: () => db, autoQueryConfig: new AutoQueryConfig() });
await handler.federate({ services: { users: address('users') } });
listen('reviews', buildFederableApp(handler, { dtos: [ReviewDTO] }), PORTS.reviews);
