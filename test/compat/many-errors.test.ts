/**
 * A v6 answer with more errors than a call can take arguments (V8 keeps a spread's arguments on
 * the stack; the limit is ~125,000 here): compat gathers them one by one and answers with every
 * one, mapped to its v5 path, where it threw a RangeError before. The v6 handler is the real one
 * (its schema), answering this query with a prepared result: 150,000 errors through the real
 * executor take graphql-js ~11 µs each to build, and under vitest most of a minute.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { baseEntity, GraphQLHandler, model, query } from 'ergraph';
import { createCompatHandler } from 'ergraph/compat';

const N = 150_000;

class Item extends model({ id: z.int(), ownerId: z.int() }) {
  @query({ returns: () => [Item] })
  static async all() {
    return [];
  }
}
const Base = baseEntity();
Base.entity(Item, { name: 'Item' });
const real = new GraphQLHandler(Base.getDiagram());

describe('150,000 errors in one v6 answer', () => {
  it('reach the v5 client, each at its v5 path', async () => {
    const sent: string[] = [];
    const v6 = Object.create(real, {
      execute: {
        value: async (query: string) => {
          sent.push(query);
          return {
            data: { Item: { itemAll: Array.from({ length: N }, (_, i) => ({ id: i })) } },
            errors: Array.from({ length: N }, (_, i) => ({ message: 'no owner', path: ['Item', 'itemAll', i, 'id'] })),
          };
        },
      },
    }) as GraphQLHandler;
    const result = await createCompatHandler(v6).execute('{ itemAll { id } }');
    expect(sent.map((q) => q.replace(/\s+/g, ' '))).toEqual(['{ Item { itemAll: all { id } } }']);
    expect(result.errors).toHaveLength(N);
    expect(result.errors![N - 1]).toEqual({ message: 'no owner', path: ['itemAll', N - 1, 'id'] });
    expect((result.data!.itemAll as unknown[]).length).toBe(N);
  });
});
