import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, QueryConfig, model } from 'ergraph';
import { RemoteRelationship, RemoteService, buildFederableApp } from 'ergraph/federation';
import { start, type Running } from './services.js';

// Past 2^53: a JSON number would lose the last digit, so only a string key can find it.
const BIG = 9007199254740993n;

class Gadget extends model({ sku: z.bigint(), name: z.string(), meta: z.json() }) {
  static __federation_keys__ = ['sku'];
}
const GADGETS = [
  { sku: BIG, name: 'big', meta: { tags: ['a', 'b'], depth: { n: 1 } } },
  { sku: 7n, name: 'small', meta: [1, 2, 3] },
];

const gadgets = new RemoteService('gadgets');

/** The mounter has its own JSON and BigInt fields: the remote ones must reuse the same scalars. */
class Shop extends model({ id: z.int(), sku: z.bigint(), settings: z.json() }) {
  static __relationships__ = [new RemoteRelationship({ fk: 'sku', target: [gadgets.Gadget], name: 'gadgets', joinRemote: 'sku' })];
}
const SHOPS = [
  { id: 1, sku: BIG, settings: { open: true } },
  { id: 2, sku: 7n, settings: null },
  { id: 3, sku: 8n, settings: 'none' },
];

let member: Running;
const seenKeys: unknown[][] = [];
let shops: GraphQLHandler;

beforeAll(async () => {
  const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Gadget })] }), { serviceName: 'gadgets' });
  const app = buildFederableApp(handler, {
    keyLoaders: {
      Gadget: async (_key, values) => {
        seenKeys.push([...values]);
        return GADGETS.filter((g) => values.includes(g.sku)).map((g) => new Gadget(g));
      },
    },
  });
  member = await start(app);
  shops = new GraphQLHandler(
    new ErDiagram({
      entities: [
        new Entity({
          kls: Shop,
          relationships: Shop.__relationships__ as never,
          queries: [new QueryConfig({ name: 'all', returns: () => [Shop], method: async () => SHOPS.map((s) => new Shop(s)) })],
        }),
      ],
    }),
    { serviceName: 'shops' },
  );
  await shops.federate({ services: { gadgets: member.address }, timeoutMs: 5_000 });
});

afterAll(async () => {
  await member?.close();
});

describe('remote scalars', () => {
  it('serves remote JSON and BigInt fields with the core scalars, joined by a BigInt key', async () => {
    const result = await shops.execute('{ Shop { all { id sku settings gadgets { sku name meta } } } }');
    expect(result.errors).toBeNull();
    expect(result.data!.Shop).toEqual({
      all: [
        { id: 1, sku: String(BIG), settings: { open: true }, gadgets: [{ sku: String(BIG), name: 'big', meta: GADGETS[0]!.meta }] },
        { id: 2, sku: '7', settings: null, gadgets: [{ sku: '7', name: 'small', meta: [1, 2, 3] }] },
        { id: 3, sku: '8', settings: 'none', gadgets: [] },
      ],
    });
    // One batch; the member parsed the string keys back into exact bigints.
    expect(seenKeys).toEqual([[BIG, 7n, 8n]]);
    const schema = shops.schema;
    expect(schema.getType('JSON')).toBeDefined();
    expect(schema.getType('BigInt')).toBeDefined();
  });

  it('answers by_<key>_in with BigInt keys sent as strings', async () => {
    const response = await fetch(`${member.address}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query($k: [BigInt!]!) { Gadget { by_sku_in(values: $k) { sku meta } } }',
        variables: { k: [String(BIG), '7'] },
      }),
    });
    const body = (await response.json()) as { data: { Gadget: { by_sku_in: { sku: string; meta: unknown }[] } } };
    expect(body.data.Gadget.by_sku_in.map((g) => g.sku).sort()).toEqual(['7', String(BIG)]);
  });

  it('describes the key and fields with their scalar names', async () => {
    const body = (await (await fetch(`${member.address}/ergraph/er-introspection`)).json()) as {
      entities: { name: string; fields: { name: string; type: string }[]; keys: { field: string; type: string }[] }[];
    };
    const gadget = body.entities.find((e) => e.name === 'Gadget')!;
    expect(gadget.keys).toEqual([expect.objectContaining({ field: 'sku', type: 'BigInt' })]);
    expect(gadget.fields).toEqual(expect.arrayContaining([{ name: 'meta', type: 'JSON' }]));
  });
});
