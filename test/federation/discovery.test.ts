import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { DefineSubset, Entity, ErDiagram, GraphQLHandler, QueryConfig, SubsetConfig, model } from 'ergraph';
import { buildFederableApp, PROTOCOL } from 'ergraph/federation';

class Note extends model({ id: z.int(), ownerId: z.int(), text: z.string(), secret: z.string() }) {
  static __federation_keys__ = ['ownerId'];
}

class NoteCard extends DefineSubset(new SubsetConfig({ kls: Note, fields: ['id', 'ownerId', 'text'], federationPublic: true }), {
  shout: z.string().default(''),
}) {
  resolveShout() {
    return this.text.toUpperCase();
  }
}

const NOTES = [
  { id: 1, ownerId: 7, text: 'a', secret: 's1' },
  { id: 2, ownerId: 7, text: 'b', secret: 's2' },
  { id: 3, ownerId: 8, text: 'c', secret: 's3' },
];

describe('public DTO discovery', () => {
  it('finds a federationPublic subclass returned by a member query, with no DTO list', async () => {
    const entity = new Entity({
      kls: Note,
      queries: [new QueryConfig({ name: 'cards', returns: () => [NoteCard], method: async () => [] })],
    });
    const handler = new GraphQLHandler(new ErDiagram({ entities: [entity] }), { serviceName: 'notes' });
    const app = buildFederableApp(handler, {
      keyLoaders: { Note: async (key, values) => NOTES.filter((n) => values.includes(n[key as 'ownerId'])) },
    });
    const intro = (await (await app.request('/ergraph/dto-introspection')).json()) as { dtos: { name: string; key: string; fields: { name: string }[] }[] };
    const card = intro.dtos.find((d) => d.name === 'NoteCard')!;
    expect(card.key).toBe('ownerId'); // the single federation key, derived
    expect(card.fields.map((f) => f.name)).toEqual(['id', 'ownerId', 'text', 'shout']);

    const batch = await app.request('/ergraph/dto-batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ protocol: PROTOCOL, dto: 'NoteCard', keys: [8, 7, 9], limit: 1 }),
    });
    expect(await batch.json()).toEqual({
      protocol: PROTOCOL,
      items: [[{ id: 3, ownerId: 8, text: 'c', shout: 'C' }], [{ id: 1, ownerId: 7, text: 'a', shout: 'A' }], []],
    });
  });

  it('serves no DTO endpoints when nothing is public for the member', async () => {
    class Plain extends model({ id: z.int() }) {
      static __federation_keys__ = ['id'];
    }
    const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Plain })] }), { serviceName: 'plain' });
    const app = buildFederableApp(handler, { keyLoaders: { Plain: async () => [] } });
    expect((await app.request('/ergraph/dto-introspection')).status).toBe(404);
    const intro = (await (await app.request('/ergraph/er-introspection')).json()) as { dtos: boolean };
    expect(intro.dtos).toBe(false);
  });
});
