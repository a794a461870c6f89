// Compiled with experimentalDecorators (see tsconfig.json beside this file): the legacy
// decorator protocol must register the same things the standard one does.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseEntity, jsonSchema, model, mutation, query, Relationship, serialization, exclude } from 'ergraph';

const Base = baseEntity();

@Base.entity
class Author extends model({ id: z.int(), name: z.string() }) {
  @query({ returns: () => [Author], description: 'every author' })
  static async all() {
    return [new Author({ id: 1, name: 'Ann' })];
  }
  @query({ returns: () => [Author], deprecationReason: 'Use all' })
  static async everyone() {
    return [new Author({ id: 1, name: 'Ann' })];
  }
}

@Base.entity
class Book extends model({ id: z.int(), authorId: z.int(), secret: exclude(z.string().default('s')) }) {
  static __relationships__ = [
    new Relationship({ fk: 'authorId', target: Author, name: 'author', loader: async (keys: readonly number[]) => keys.map(() => null) }),
  ];
  @mutation({ args: { authorId: z.int() }, returns: () => Book, name: 'add' })
  static async create({ authorId }: { authorId: number }) {
    return new Book({ id: 1, authorId });
  }
}

@serialization
class Out extends model({ id: z.int(), hidden: exclude(z.string()) }) {}

describe('experimentalDecorators', () => {
  it('is really compiled in legacy mode', () => {
    // Legacy method decorators receive (target, key, descriptor); standard ones (value, context).
    let args: unknown[] = [];
    const spy = (...a: unknown[]) => {
      args = a;
    };
    class Probe {
      @spy static m() {}
    }
    expect(Probe).toBeDefined();
    expect(args).toHaveLength(3);
  });

  it('registers entities, queries, mutations and serialization', () => {
    const diagram = Base.getDiagram();
    expect(diagram.entityOf(Author)!.queries.map((q) => [q.name, q.deprecationReason])).toEqual([['all', undefined], ['everyone', 'Use all']]);
    expect(diagram.entityOf(Book)!.mutations.map((m) => [m.name, m.methodName])).toEqual([['add', 'create']]);
    expect(JSON.parse(JSON.stringify(new Out({ id: 1, hidden: 'x' })))).toEqual({ id: 1 });
    expect(jsonSchema(Out)).toMatchObject({ required: ['id'] });
  });
});
