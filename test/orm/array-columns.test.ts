/**
 * Array columns (`text('tags').array()`, `integer('xs').array()`, ...): model type
 * `z.array(<element>)`, GraphQL `[String!]`, rows written through GraphQL arguments and read
 * back through queries and relationship loaders, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relations } from 'drizzle-orm';
import { boolean, integer, numeric, pgEnum, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ConfigError, Entity, ErDiagram, GraphQLHandler, MutationConfig, ref } from 'ergraph';
import { AutoQueryConfig, buildRelationship, tableModel } from 'ergraph/orm';
import { databaseTargets, type TestDatabase } from './databases.js';

const mood = pgEnum('ac_mood', ['calm', 'busy']);
const posts = pgTable('ac_posts', {
  id: serial('id').primaryKey(),
  tags: text('tags').array().notNull(),
  scores: integer('scores').array(),
  flags: boolean('flags').array(),
  weights: numeric('weights').array(),
  moods: mood('moods').array(),
});
const notes = pgTable('ac_notes', {
  id: serial('id').primaryKey(),
  postId: integer('post_id').notNull().references(() => posts.id),
  words: text('words').array().notNull(),
});
const postsRelations = relations(posts, ({ many }) => ({ notes: many(notes) }));
const notesRelations = relations(notes, ({ one }) => ({ post: one(posts, { fields: [notes.postId], references: [posts.id] }) }));
const schema = { posts, notes, postsRelations, notesRelations };

const DDL = `
CREATE TYPE ac_mood AS ENUM ('calm', 'busy');
CREATE TABLE ac_posts (id serial PRIMARY KEY, tags text[] NOT NULL, scores integer[], flags boolean[], weights numeric[], moods ac_mood[]);
CREATE TABLE ac_notes (id serial PRIMARY KEY, post_id integer NOT NULL REFERENCES ac_posts(id), words text[] NOT NULL);
`;
const SEED = `
INSERT INTO ac_posts (id, tags, scores, flags, weights, moods) VALUES
  (1, '{"a","b c","with,comma","{braces}","quote\\"d"}', '{3,-1,0}', '{t,f}', '{1.5,2}', '{calm,busy}'),
  (2, '{}', NULL, '{}', NULL, NULL),
  (3, '{"x",NULL}', '{1}', NULL, NULL, NULL);
INSERT INTO ac_notes (id, post_id, words) VALUES (1, 1, '{"one","two"}'), (2, 1, '{}'), (3, 2, '{"three"}');
SELECT setval('ac_posts_id_seq', 100);
`;

class Post extends tableModel(posts) {}
class Note extends tableModel(notes) {}

describe('array column model types', () => {
  it('maps an array column to a list of its element type, non-null elements, nullable per column', () => {
    expect(Post.shape.tags.safeParse(['a']).success).toBe(true);
    expect(Post.shape.tags.safeParse(null).success).toBe(false);
    expect(Post.shape.tags.safeParse(['a', null]).success).toBe(false);
    expect(Post.shape.scores.safeParse(null).success).toBe(true);
    expect(Post.shape.scores.safeParse([1.5]).success).toBe(false);
    expect(Post.shape.moods.safeParse(['calm']).success).toBe(true);
    expect(Post.shape.moods.safeParse(['angry']).success).toBe(false);
  });

  it('refuses multi-dimensional arrays with an error naming the column', () => {
    const grid = pgTable('ac_grid', { id: serial('id').primaryKey(), cells: integer('cells').array().array() });
    expect(() => tableModel(grid)).toThrow(ConfigError);
    expect(() => tableModel(grid)).toThrow(/ac_grid\.cells is a multi-dimensional array/);
  });
});

const targets = await databaseTargets();

describe.each(targets)('array columns on $name', (target) => {
  let t: TestDatabase;
  let handler: GraphQLHandler;

  beforeAll(async () => {
    t = await target.open();
    await t.exec(DDL);
    await t.exec(SEED);
    const entities = buildRelationship({ db: t.db, schema, models: [Post, Note], orderBy: { 'posts.notes': notes.id }, defaultPageSize: 10 });
    const decorated = entities.map((e) =>
      e.kls !== Post
        ? e
        : new Entity({
            kls: Post,
            relationships: e.relationships,
            mutations: [
              new MutationConfig({
                name: 'create',
                args: { tags: Post.shape.tags, scores: Post.shape.scores.optional(), weights: Post.shape.weights.optional(), moods: Post.shape.moods.optional() },
                returns: () => ref(() => Post),
                method: async (args: typeof posts.$inferInsert) => {
                  const [row] = await t.db.insert(posts).values(args).returning();
                  return new Post({ ...row!, weights: row!.weights?.map(Number) ?? null } as never);
                },
              }),
            ],
          }),
    );
    handler = new GraphQLHandler(new ErDiagram({ entities: decorated }), {
      enablePagination: true,
      base: schema,
      sessionFactory: () => t.db,
      autoQueryConfig: new AutoQueryConfig(),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('declares list types with non-null elements in the schema', () => {
    const type = (name: string) => handler.schema.getType(name) as unknown as { getFields(): Record<string, { type: unknown }> };
    const fields = (name: string) => Object.fromEntries(Object.entries(type(name).getFields()).map(([k, f]) => [k, String(f.type)]));
    expect(fields('Post')).toMatchObject({ tags: '[String!]!', scores: '[Int!]', flags: '[Boolean!]', weights: '[Float!]', moods: '[AcMood!]' });
    expect(fields('Note')).toMatchObject({ words: '[String!]!' });
  });

  it('reads arrays back exactly, including quoting, empty arrays and NULL columns, through nested loaders', async () => {
    const result = await handler.execute(`{ Post { byId(id: 1) {
      tags scores flags weights moods
      notes { items { words post { id tags } } }
    } } }`);
    expect(result).toEqual({
      data: {
        Post: {
          byId: {
            tags: ['a', 'b c', 'with,comma', '{braces}', 'quote"d'],
            scores: [3, -1, 0],
            flags: [true, false],
            weights: [1.5, 2],
            moods: ['calm', 'busy'],
            notes: {
              items: [
                { words: ['one', 'two'], post: { id: 1, tags: ['a', 'b c', 'with,comma', '{braces}', 'quote"d'] } },
                { words: [], post: { id: 1, tags: ['a', 'b c', 'with,comma', '{braces}', 'quote"d'] } },
              ],
            },
          },
        },
      },
      errors: null,
    });
    const empty = await handler.execute('{ Post { byId(id: 2) { tags scores flags weights moods notes { items { words } } } } }');
    expect(empty).toEqual({
      data: { Post: { byId: { tags: [], scores: null, flags: [], weights: null, moods: null, notes: { items: [{ words: ['three'] }] } } } },
      errors: null,
    });
  });

  it('reports a NULL element stored in the database as an error naming the field, not as a silent null', async () => {
    const result = await handler.execute('{ Post { byId(id: 3) { tags } } }');
    if (target.name === 'postgres.js') {
      // postgres.js's array parser reads an unquoted NULL element as the text 'NULL'
      // (porsager/postgres#1124, open), so the row never holds the null; docs/sql.md, "Drivers".
      // Red when the driver is fixed: then this target joins the others.
      expect(result.errors).toBeNull();
      expect(result.data).toEqual({ Post: { byId: { tags: ['x', 'NULL'] } } });
      return;
    }
    expect(result.errors).not.toBeNull();
    expect(JSON.stringify(result.errors)).toMatch(/tags/);
  });

  it('writes arrays from GraphQL literals and variables and reads them back the same', async () => {
    const create = await handler.execute(
      `mutation($tags: [String!]!) { Post {
        create(tags: $tags, scores: [7, 8], weights: [0.25], moods: [busy]) { id tags scores weights moods }
      } }`,
      { variables: { tags: ['new', 'it\'s', 'a "b"', ''] } },
    );
    expect(create.errors).toBeNull();
    const created = (create.data!.Post as { create: { id: number } }).create;
    expect(created).toEqual({ id: 101, tags: ['new', "it's", 'a "b"', ''], scores: [7, 8], weights: [0.25], moods: ['busy'] });
    const back = await handler.execute('query($id: Int!) { Post { byId(id: $id) { tags scores weights moods } } }', { variables: { id: created.id } });
    expect(back).toEqual({ data: { Post: { byId: { tags: ['new', "it's", 'a "b"', ''], scores: [7, 8], weights: [0.25], moods: ['busy'] } } }, errors: null });
    const bad = await handler.execute('mutation { Post { create(tags: ["x", null]) { id } } }');
    expect(bad.errors).not.toBeNull();
  });
});
