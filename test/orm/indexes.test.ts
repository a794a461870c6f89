/** Which index each page order wants, and when a declared one serves it (`ergraph doctor` reads this). */
import { relations } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { buildRelationship, type OrderBy } from 'ergraph/orm';
import { pageIndexAdvice } from '../../src/orm/indexes.js';

type Extra = Parameters<typeof pgTable>[2];

function advice(itemsExtra: Extra | undefined, order: OrderBy | ((c: Record<string, never>) => OrderBy)) {
  const lists = pgTable('lists', { id: serial('id').primaryKey() });
  const items = pgTable(
    'items',
    { id: serial('id').primaryKey(), listId: integer('list_id').notNull(), rank: integer('rank'), label: text('label').notNull() },
    itemsExtra as never,
  );
  const tags = pgTable('tags', { id: serial('id').primaryKey(), name: text('name').notNull() });
  const itemTags = pgTable('item_tags', { itemId: integer('item_id').notNull(), tagId: integer('tag_id').notNull() }, (t) => [
    primaryKey({ columns: [t.itemId, t.tagId] }),
  ]);
  const schema = {
    lists,
    items,
    tags,
    itemTags,
    listsRelations: relations(lists, ({ many }) => ({ items: many(items) })),
    itemsRelations: relations(items, ({ one }) => ({ list: one(lists, { fields: [items.listId], references: [lists.id] }) })),
  };
  const chosen = typeof order === 'function' ? order(items as never) : order;
  const entities = buildRelationship({
    db: drizzle.mock(),
    schema,
    orderBy: { 'lists.items': chosen },
    manyToMany: [{ source: items, name: 'tags', target: tags, through: itemTags, sourceKey: itemTags.itemId, targetKey: itemTags.tagId, orderBy: tags.name }],
  });
  return pageIndexAdvice({ entities });
}

const itemsRank = (t: { rank: never }) => t.rank;

describe('page index advice', () => {
  it('wants (parent key, order column, primary key) and says how to create it', () => {
    const [items, tags] = advice(undefined, (t) => itemsRank(t as never));
    expect(items).toEqual({
      relation: 'lists.items',
      order: 'default',
      table: 'items',
      indexed: false,
      create: 'CREATE INDEX ON "items" ("list_id", "rank" ASC, "id" ASC)',
    });
    // many-to-many: the join table's composite primary key starts with the parent key
    expect(tags).toMatchObject({ relation: 'items.tags', table: 'item_tags', indexed: true, create: 'CREATE INDEX ON "item_tags" ("item_id")' });
  });

  it('accepts an index read forward or backward, not one with the other nulls placement', () => {
    const desc = (t: Record<string, never>) => ({ column: (t as never as { rank: never }).rank, direction: 'desc' as const });
    const byRank = (t: never) => [index('i').on((t as { listId: never }).listId, (t as { rank: never }).rank)];
    expect(advice(byRank as never, desc)[0]!.indexed).toBe(true); // backward scan: DESC NULLS FIRST
    expect(advice(byRank as never, (t) => itemsRank(t as never))[0]!.indexed).toBe(true);
    const lastDesc = (t: Record<string, never>) => ({ column: (t as never as { rank: never }).rank, direction: 'desc' as const, nulls: 'last' as const });
    const lost = advice(byRank as never, lastDesc)[0]!;
    expect(lost.indexed).toBe(false);
    expect(lost.create).toBe('CREATE INDEX ON "items" ("list_id", "rank" DESC NULLS LAST, "id" DESC)');
    const matching = (t: never) => [
      uniqueIndex('u').on((t as { listId: never }).listId, (t as { rank: { desc(): { nullsLast(): never } } }).rank.desc().nullsLast()),
    ];
    expect(advice(matching as never, lastDesc)[0]!.indexed).toBe(true);
  });

  it('does not count an index that does not start with the parent key', () => {
    const wrong = (t: never) => [index('i').on((t as { rank: never }).rank, (t as { listId: never }).listId)];
    expect(advice(wrong as never, (t) => itemsRank(t as never))[0]!.indexed).toBe(false);
  });
});
