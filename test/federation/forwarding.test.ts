import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Entity, ErDiagram, GraphQLHandler, QueryConfig, model } from 'ergraph';
import { buildFederableApp, RemoteRelationship, RemoteService } from 'ergraph/federation';
import { productsHandler, reviewRows, reviewsService, start, startChain, type Running } from './services.js';

let usersRun: Running;
let reviewsRun: Running;
let reviews: Awaited<ReturnType<typeof reviewsService>>;
let products: ReturnType<typeof productsHandler>;

let chain: Awaited<ReturnType<typeof startChain>>;

beforeAll(async () => {
  chain = await startChain();
  ({ usersRun, reviewsRun, reviews, products } = chain);
});

afterAll(async () => {
  await chain?.close();
});

describe('forwarded selections', () => {
  it('carries fragments, variables, directives, aliases and __typename to the member', async () => {
    const result = await products.execute(
      `query Q($withBody: Boolean!, $order: ReviewOrder, $dir: PageDirection) {
        Product { getAll(limit: 2) { id
          page: reviewPage(limit: 3, order: $order, direction: $dir) { items { ...R } pagination { total_count } }
        } }
      }
      fragment R on Review { __typename stars: rating text: body @include(if: $withBody) author { ... on User { name } } }`,
      { variables: { withBody: false, order: 'best', dir: 'ASC' } },
    );
    expect(result.errors).toBeNull();
    const first = (result.data!.Product as { getAll: { page: { items: Record<string, unknown>[]; pagination: { total_count: number } } }[] }).getAll[0]!.page;
    const expected = reviewRows()
      .filter((r) => r.productId === 1)
      .sort((a, b) => a.rating - b.rating || a.id - b.id);
    expect(first.items.map((i) => i.stars)).toEqual(expected.map((r) => r.rating));
    expect(first.items[0]).toEqual({ __typename: 'Review', stars: expected[0]!.rating, author: { name: expect.any(String) } });
    expect(first.pagination.total_count).toBe(3);
  });

  it('caps a huge page limit at the mounter before asking the member', async () => {
    const result = await products.execute('{ Product { getAll(limit: 1) { reviewPage(limit: 1000) { items { id } } } } }');
    // The mounter caps the limit before asking, so this one succeeds with at most 100 items.
    expect(result.errors).toBeNull();
  });
});

describe('cycles', () => {
  it('two services mounting each other terminate and both serve', async () => {
    const aHandle = new RemoteService('alpha');
    const bHandle = new RemoteService('beta');
    class A extends model({ id: z.int(), bId: z.int() }) {
      static __federation_keys__ = ['id'];
      static __relationships__ = [new RemoteRelationship({ fk: 'bId', target: bHandle.B, name: 'b', joinRemote: 'id' })];
    }
    class B extends model({ id: z.int(), aId: z.int() }) {
      static __federation_keys__ = ['id'];
      static __relationships__ = [new RemoteRelationship({ fk: 'aId', target: aHandle.A, name: 'a', joinRemote: 'id' })];
    }
    const rows = { A: [{ id: 1, bId: 10 }], B: [{ id: 10, aId: 1 }] };
    const handlerFor = (kls: typeof A | typeof B, name: 'alpha' | 'beta') =>
      new GraphQLHandler(
        new ErDiagram({
          entities: [
            new Entity({
              kls,
              relationships: kls.__relationships__ as never,
              queries: [new QueryConfig({ name: 'all', returns: () => [kls], method: async () => rows[kls.name as 'A' | 'B'].map((r) => new kls(r as never)) })],
            }),
          ],
        }),
        { serviceName: name },
      );
    const alpha = handlerFor(A, 'alpha');
    const beta = handlerFor(B, 'beta');
    const loader = (kls: typeof A | typeof B) => async (_key: string, values: readonly unknown[]) =>
      rows[kls.name as 'A' | 'B'].filter((r) => values.includes(r.id)).map((r) => new kls(r as never));
    const alphaRun = await start(buildFederableApp(alpha, { keyLoaders: { A: loader(A) } }));
    const betaRun = await start(buildFederableApp(beta, { keyLoaders: { B: loader(B) } }));
    try {
      await beta.federate({ services: { alpha: alphaRun.address } });
      await alpha.federate({ services: { beta: betaRun.address } });
      const fromAlpha = await alpha.execute('{ A { all { id b { id aId } } } }');
      expect(fromAlpha.errors).toBeNull();
      expect(fromAlpha.data).toEqual({ A: { all: [{ id: 1, b: { id: 10, aId: 1 } }] } });
      const fromBeta = await beta.execute('{ B { all { id a { id bId } } } }');
      expect(fromBeta.errors).toBeNull();
      expect(fromBeta.data).toEqual({ B: { all: [{ id: 10, a: { id: 1, bId: 10 } }] } });
      // B.a leads back into alpha's own A: alpha offers its own relationships instead.
      const typeB = alpha.schema.getType('B') as { getFields(): Record<string, unknown> };
      expect(Object.keys(typeB.getFields())).toEqual(['id', 'aId']);
    } finally {
      await alphaRun.close();
      await betaRun.close();
    }
  });
});
