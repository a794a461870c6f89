import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Annotated, DefineSubset, Entity, ErDiagram, GraphQLHandler, QueryConfig, SubsetConfig, configResolver, model, ref, type Resolver } from 'ergraph';
import { Paged, RemoteRelationship, RemoteService, buildFederableApp } from 'ergraph/federation';
import { start, type Running } from './services.js';

/** A 'reviews' member whose public NoteDTO has the given extra field (same name, other shape). */
function member(extra: 'text' | 'score') {
  class Note extends model({ id: z.int(), shopId: z.int(), text: z.string(), score: z.int() }) {
    static __federation_keys__ = ['shopId'];
  }
  class NoteDTO extends DefineSubset(new SubsetConfig({ kls: Note, fields: ['id', 'shopId', extra], federationPublic: true })) {}
  const rows = [1, 2].map((shopId) => ({ id: shopId * 10, shopId, text: `note ${shopId}`, score: shopId * 5 }));
  const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Note })] }), { serviceName: 'reviews' });
  return buildFederableApp(handler, {
    dtos: [NoteDTO],
    keyLoaders: { Note: async (_key, values) => rows.filter((r) => values.includes(r.shopId)).map((r) => new Note(r)) },
  });
}

/** A mounter with its own `new RemoteService('reviews')` handle and a view on its DTO. */
function mounter() {
  const reviews = new RemoteService('reviews');
  class Shop extends model({ id: z.int() }) {
    static __relationships__ = [new RemoteRelationship({ fk: 'id', target: [reviews.Note], name: 'notes', joinRemote: 'shopId' })];
  }
  class ShopView extends DefineSubset(Shop, ['id'], {
    notes: Annotated(z.array(ref(() => reviews.NoteDTO)).default([]), Paged({ limit: 2 })),
  }) {}
  const diagram = new ErDiagram({
    entities: [
      new Entity({
        kls: Shop,
        relationships: Shop.__relationships__ as never,
        queries: [new QueryConfig({ name: 'all', returns: () => [Shop], method: async () => [new Shop({ id: 1 })] })],
      }),
    ],
  });
  return { handler: new GraphQLHandler(diagram, { serviceName: 'shops' }), diagram, ShopView };
}

let a: Running;
let b: Running;

beforeAll(async () => {
  a = await start(member('text'));
  b = await start(member('score'));
});

afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('RemoteService handles', () => {
  it('bind DTO classes per mounter, not per service name in the process', async () => {
    const first = mounter();
    const second = mounter();
    await first.handler.federate({ services: { reviews: a.address }, timeoutMs: 5_000 });
    await second.handler.federate({ services: { reviews: b.address }, timeoutMs: 5_000 });
    const load = async (m: ReturnType<typeof mounter>) => {
      const R = configResolver(`R${Math.random().toString(36).slice(2)}`, m.diagram) as typeof Resolver;
      const [view] = await new R().resolve([new m.ShopView({ id: 2 })]);
      return { ...(view as unknown as { notes: object[] }).notes[0] };
    };
    expect(await load(first)).toEqual({ id: 20, shopId: 2, text: 'note 2' });
    expect(await load(second)).toEqual({ id: 20, shopId: 2, score: 10 });
  });
});
