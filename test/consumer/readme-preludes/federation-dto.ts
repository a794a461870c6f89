// docs/federation.md, "DTO federation (mounter side)": the mounter's entity and its handle on the member.
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { Annotated, DefineSubset, ref } from 'ergraph';
import { tableModel } from 'ergraph/orm';
import { Paged, RemoteService } from 'ergraph/federation';
const products = pgTable('products', { id: integer('id').primaryKey(), name: text('name').notNull() });
class Product extends tableModel(products) {}
const reviews = new RemoteService('reviews');
