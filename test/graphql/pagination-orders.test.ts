// Spec 2.7 rule 4: local one-to-many pagination reads the target entity's __pagination_orders__.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, QueryConfig, ref, Relationship, buildList, type PageRequest } from 'ergraph';
import { BatchPageConfig, OrderTerm, PageOrder } from 'ergraph/federation';

class Author extends model({ id: z.int() }) {}
class Post extends model({ id: z.int(), authorId: z.int(), title: z.string(), score: z.int().nullable() }) {
  static __pagination_orders__ = new BatchPageConfig({
    defaultOrder: 'best',
    orders: { best: new PageOrder([new OrderTerm('score', 'DESC')]), title: new PageOrder([new OrderTerm('title')]) },
  });
}

const posts = [
  { id: 1, authorId: 1, title: 'c', score: 5 },
  { id: 2, authorId: 1, title: 'a', score: null },
  { id: 3, authorId: 1, title: 'b', score: 9 },
  { id: 4, authorId: 2, title: 'z', score: 1 },
].map((p) => new Post(p));

const requests: PageRequest[] = [];
const postsByAuthor = async (ids: readonly number[]) => buildList(posts, ids, (p) => p.authorId);

function diagram(withPageLoader: boolean) {
  return new ErDiagram({
    entities: [
      new Entity({
        kls: Author,
        relationships: [
          new Relationship({
            fk: 'id',
            target: [Post],
            name: 'posts',
            loader: postsByAuthor,
            // A page loader that records what it was asked and answers from the in-memory list.
            pageLoader: withPageLoader
              ? async (ids: readonly number[], page) => {
                  requests.push(page);
                  return ids.map((id) => {
                    const all = posts.filter((p) => p.authorId === id);
                    return { items: all.slice(page.offset, page.offset + page.limit), hasMore: false, total: null };
                  });
                }
              : undefined,
          }),
        ],
        queries: [new QueryConfig({ name: 'all', returns: z.array(ref(() => Author)), method: async () => [new Author({ id: 1 }), new Author({ id: 2 })] })],
      }),
      new Entity({ kls: Post }),
    ],
  });
}

describe('order profiles on local pagination', () => {
  const handler = new GraphQLHandler(diagram(false), { enablePagination: true });
  const titles = async (args: string) => {
    const result = await handler.execute(`{ Author { all { posts(${args}) { items { title score } } } } }`);
    expect(result.errors).toBeNull();
    return (result.data as any).Author.all[0].posts.items.map((p: { title: string }) => p.title);
  };

  it('publishes the profile names and the direction as enums on the field', () => {
    const field = handler.schema.getType('Author') as any;
    const args = field.getFields().posts.args.map((a: { name: string; type: unknown }) => `${a.name}: ${String(a.type)}`);
    expect(args).toEqual(['limit: Int', 'offset: Int', 'order: PostOrder', 'direction: PageDirection']);
  });

  it('orders by the chosen profile, the default one when only direction is given, and flips to the strict reverse', async () => {
    expect(await titles('order: title')).toEqual(['a', 'b', 'c']);
    expect(await titles('order: title, direction: DESC')).toEqual(['c', 'b', 'a']);
    // best = score DESC, nulls first (PostgreSQL's placement); ASC is the exact reverse: nulls last.
    expect(await titles('order: best')).toEqual(['a', 'b', 'c']);
    expect(await titles('direction: ASC')).toEqual(['c', 'b', 'a']);
    expect(await titles('order: title, limit: 1, offset: 1')).toEqual(['b']);
  });

  it('rejects profiles that are not published', async () => {
    const result = await handler.execute('{ Author { all { posts(order: score) { items { title } } } } }');
    expect(result.errors?.[0]?.message).toMatch(/Value "score" does not exist in "PostOrder" enum/);
  });

  it('hands the chosen profile and absolute direction to a page loader', async () => {
    const paged = new GraphQLHandler(diagram(true), { enablePagination: true });
    requests.length = 0;
    await paged.execute('{ Author { all { posts(order: best, direction: ASC) { items { id } } } } }');
    await paged.execute('{ Author { all { posts { items { id } } } } }');
    expect(requests).toEqual([
      { limit: 20, offset: 0, withTotal: false, order: 'best', direction: 'ASC' },
      { limit: 20, offset: 0, withTotal: false },
    ]);
  });
});
