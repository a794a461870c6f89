// docs/federation.md, "Mounter": the mounter's table and handler.
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { GraphQLHandler } from 'ergraph';
import { tableModel } from 'ergraph/orm';
const products = pgTable('products', { id: integer('id').primaryKey(), name: text('name').notNull() });
declare const handler: GraphQLHandler;
