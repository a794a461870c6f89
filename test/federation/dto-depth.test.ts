import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefineSubset, Entity, ErDiagram, GraphQLHandler, SubsetConfig, model } from 'ergraph';
import { PROTOCOL, buildFederableApp } from 'ergraph/federation';
import { start, type Running } from './services.js';

class Doc extends model({ id: z.int(), ownerId: z.int(), tree: z.json() }) {
  static __federation_keys__ = ['ownerId'];
}
class DocDTO extends DefineSubset(new SubsetConfig({ kls: Doc, fields: ['id', 'ownerId', 'tree'], federationPublic: true })) {}

/** Arrays nested `levels` deep: the DTO serializer walks arrays, so this trips its depth bound. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

let member: Running;
const logged: Array<[unknown, string]> = [];

beforeAll(async () => {
  const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Doc })] }), { serviceName: 'docs', onError: (error, id) => logged.push([error, id]) });
  const app = buildFederableApp(handler, {
    dtos: [DocDTO],
    keyLoaders: { Doc: async (_key, values) => values.map((ownerId) => new Doc({ id: 1, ownerId: ownerId as number, tree: nested(80) })) },
  });
  member = await start(app);
});

afterAll(async () => {
  await member?.close();
});

describe('dto-batch depth bound', () => {
  it('names the DTO whose value nests too deep', async () => {
    const response = await fetch(`${member.address}/ergraph/dto-batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ protocol: PROTOCOL, dto: 'DocDTO', keys: [1] }),
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string };
    // The caller gets an id; the member's log gets the message naming the DTO (issue 13.4).
    expect(body.error).toMatch(/^docs: Internal server error \(error id \w+\)$/);
    const [[error, id]] = logged as [[Error, string]];
    expect(body.error).toContain(id);
    expect(error.message).toMatch(/^DTO DocDTO: value nests deeper than 64 levels/);
  });
});
