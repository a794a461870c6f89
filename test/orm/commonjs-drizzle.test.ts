/**
 * A CommonJS project's `require('drizzle-orm')` gets Drizzle's CommonJS build, a second copy
 * beside the ES module build ergraph loads (src/orm/drizzle.ts). Tables, relations and the
 * database from that copy still work through ergraph/orm: models, relationship loaders and
 * pages, on embedded PGlite.
 */
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErDiagram, GraphQLHandler } from 'ergraph';
import { AutoQueryConfig, buildRelationship, tableModel } from 'ergraph/orm';
import { pgCore } from '../../src/orm/drizzle.js';

const cjs = createRequire(import.meta.url);
const { integer, pgTable, serial, text, PgTable } = cjs('drizzle-orm/pg-core') as typeof import('drizzle-orm/pg-core');
const { relations } = cjs('drizzle-orm') as typeof import('drizzle-orm');
const { drizzle } = cjs('drizzle-orm/pglite') as typeof import('drizzle-orm/pglite');

const authors = pgTable('cjs_authors', { id: serial('id').primaryKey(), name: text('name').notNull() });
const books = pgTable('cjs_books', {
  id: serial('id').primaryKey(),
  authorId: integer('author_id').notNull().references(() => authors.id),
  title: text('title').notNull(),
});
const authorsRelations = relations(authors, ({ many }) => ({ books: many(books) }));
const booksRelations = relations(books, ({ one }) => ({ author: one(authors, { fields: [books.authorId], references: [authors.id] }) }));
const schema = { authors, books, authorsRelations, booksRelations };

class Author extends tableModel(authors) {}
class Book extends tableModel(books) {}

describe("Drizzle's CommonJS build through ergraph/orm", () => {
  const client = new PGlite();
  const db = drizzle({ client });
  let handler: GraphQLHandler;

  beforeAll(async () => {
    await client.exec(`
      CREATE TABLE cjs_authors (id serial PRIMARY KEY, name text NOT NULL);
      CREATE TABLE cjs_books (id serial PRIMARY KEY, author_id integer NOT NULL REFERENCES cjs_authors(id), title text NOT NULL);
      INSERT INTO cjs_authors (id, name) VALUES (1, 'Ada'), (2, 'Alan');
      INSERT INTO cjs_books (id, author_id, title) VALUES (1, 1, 'Notes'), (2, 1, 'Letters'), (3, 2, 'Computable Numbers');
    `);
    const entities = buildRelationship({ db, schema, models: [Author, Book], orderBy: { 'authors.books': books.id }, defaultPageSize: 10 });
    handler = new GraphQLHandler(new ErDiagram({ entities }), { enablePagination: true, base: schema, sessionFactory: () => db, autoQueryConfig: new AutoQueryConfig() });
  });
  afterAll(() => client.close());

  it('is a second copy indeed', () => {
    expect(PgTable).not.toBe(pgCore().PgTable);
  });

  it('loads relationships and pages from its tables', async () => {
    const result = await handler.execute('{ Author { byId(id: 1) { name books(limit: 1) { items { title author { name } } } } } }');
    expect(result).toEqual({ data: { Author: { byId: { name: 'Ada', books: { items: [{ title: 'Notes', author: { name: 'Ada' } }] } } } }, errors: null });
  });
});
