import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exclude, isModelInstance, jsonSchema, model, ref, serialization } from 'ergraph';

class Tag extends model({ label: z.string(), internal: exclude(z.string().default('x')) }) {}

class Parent extends model({ id: z.int(), title: z.string(), secret: exclude(z.string().default('s')) }) {}

@serialization
class Post extends model({
  id: z.int(),
  title: z.string(),
  draft: z.boolean().default(false),
  notes: exclude(z.string().nullable()),
  tags: z.array(ref(() => Tag)).default([]),
  parent: ref(() => Parent).nullable(),
}) {}

describe('models', () => {
  it('infers instance types, fills defaults and builds nested models from plain data', () => {
    const post = new Post({ id: 1, title: 'hi', notes: null, tags: [{ label: 'a' }], parent: null });
    const title: string = post.title; // typed field
    expect(title).toBe('hi');
    expect(post.draft).toBe(false);
    expect(post.tags[0]).toBeInstanceOf(Tag);
    expect(post.tags[0]!.internal).toBe('x');
    expect(isModelInstance(post)).toBe(true);
    expect(Post.schema.shape.title).toBeInstanceOf(z.ZodString);
  });

  it('defaults are fresh per instance', () => {
    const a = new Post({ id: 1, title: 'a', notes: null, parent: null });
    const b = new Post({ id: 2, title: 'b', notes: null, parent: null });
    a.tags.push(new Tag({ label: 'z' }));
    expect(b.tags).toEqual([]);
  });

  it('@serialization leaves excluded fields out of toJSON, recursively', () => {
    const post = new Post({ id: 1, title: 't', notes: 'secret', tags: [{ label: 'a', internal: 'i' }], parent: { id: 0, title: 'root', secret: 'n' } });
    expect(JSON.parse(JSON.stringify(post))).toEqual({
      id: 1,
      title: 't',
      draft: false,
      tags: [{ label: 'a' }],
      parent: { id: 0, title: 'root' },
    });
  });

  it('jsonSchema() marks every non-excluded field required, nested models through $defs', () => {
    const schema = jsonSchema(Post) as Record<string, any>;
    expect(schema.required).toEqual(['id', 'title', 'draft', 'tags', 'parent']);
    expect(schema.properties.notes).toBeUndefined();
    expect(schema.properties.tags).toEqual({ type: 'array', items: { $ref: '#/$defs/Tag' } });
    expect(schema.properties.parent).toEqual({ anyOf: [{ $ref: '#/$defs/Parent' }, { type: 'null' }] });
    expect(schema.$defs.Parent.required).toEqual(['id', 'title']);
    expect(schema.$defs.Tag).toMatchObject({ required: ['label'], properties: { label: { type: 'string' } } });
    expect((Post as unknown as { jsonSchema(): unknown }).jsonSchema()).toEqual(schema);
  });

  it('serialization is callable as a plain function', () => {
    const Out = serialization(class Out extends model({ a: z.int(), b: exclude(z.int()) }) {});
    expect(JSON.stringify(new Out({ a: 1, b: 2 }))).toBe('{"a":1}');
  });
});

describe('bigint fields', () => {
  it('serialize as decimal strings and are documented as such', () => {
    const Big = serialization(class Big extends model({ id: z.bigint(), ids: z.array(z.bigint()) }) {});
    expect(JSON.stringify(new Big({ id: 2n ** 63n - 1n, ids: [1n] }))).toBe('{"id":"9223372036854775807","ids":["1"]}');
    const schema = jsonSchema(Big) as Record<string, any>;
    expect(schema.properties.id).toEqual({ type: 'string', pattern: '^-?\\d+$', format: 'int64' });
    expect(schema.properties.ids.items).toEqual({ type: 'string', pattern: '^-?\\d+$', format: 'int64' });
  });
});
