// docs/federation.md, "Member": the member's table, diagram and database.
import { serve } from '@hono/node-server';
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { ErDiagram, GraphQLHandler } from 'ergraph';
import { tableModel } from 'ergraph/orm';
const reviews = pgTable('reviews', { id: integer('id').primaryKey(), productId: integer('product_id').notNull(), rating: integer('rating').notNull(), postedAt: timestamp('posted_at') });
declare const db: PgDatabase<PgQueryResultHKT>;
declare const diagram: ErDiagram;
