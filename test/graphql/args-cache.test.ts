/**
 * A root method's literal arguments are parsed once per compiled plan when zod's parse could not
 * differ between calls (src/graphql/args-cache.ts): what a method gets must stay what a fresh
 * parse gives it, on every call.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, QueryConfig } from 'ergraph';
import { cacheableShape } from '../../src/graphql/args-cache.js';

class Item extends model({ id: z.int() }) {}

function handlerWith(args: z.ZodRawShape, method: (args: Record<string, unknown>) => unknown) {
  const diagram = new ErDiagram({
    entities: [
      new Entity({
        kls: Item,
        queries: [new QueryConfig({ name: 'echo', args, returns: z.string(), method: async (a: Record<string, unknown>) => JSON.stringify(method(a)) })],
      }),
    ],
  });
  return new GraphQLHandler(diagram, { executor: 'compiled' });
}

const echo = async (handler: GraphQLHandler, query: string) => {
  const result = await handler.execute(query);
  expect(result.errors).toBeNull();
  return JSON.parse((result.data!.Item as { echo: string }).echo) as unknown;
};

describe('parsed literal arguments', () => {
  it('each call gets its own object: what one call does to its arguments, the next does not see', async () => {
    const seen: unknown[] = [];
    const handler = handlerWith({ limit: z.int().default(20), q: z.string() }, (a) => {
      seen.push({ ...a });
      a.limit = 0; // a method that reuses its argument object
      a.q = 'changed';
      return a;
    });
    const query = '{ Item { echo(limit: 10, q: "x") } }';
    for (let i = 0; i < 3; i++) await echo(handler, query);
    expect(seen).toEqual([
      { limit: 10, q: 'x' },
      { limit: 10, q: 'x' },
      { limit: 10, q: 'x' },
    ]);
  });

  it('a transform or refinement runs on every call', async () => {
    let transforms = 0;
    let refines = 0;
    const handler = handlerWith(
      {
        t: z.string().transform((s) => `${s}#${++transforms}`),
        r: z.int().refine(() => ++refines > 0),
      },
      (a) => a,
    );
    const query = '{ Item { echo(t: "a", r: 1) } }';
    expect(await echo(handler, query)).toEqual({ t: 'a#1', r: 1 });
    expect(await echo(handler, query)).toEqual({ t: 'a#2', r: 1 });
    expect(refines).toBe(2);
  });

  it('a function default runs on every call that leaves its value to zod', async () => {
    let made = 0;
    const handler = handlerWith({ n: z.int().default(() => ++made), q: z.string() }, (a) => a);
    // An explicit null means "the default": zod's, run by the parse (the schema's own default
    // value was taken once, when the schema was built).
    const query = '{ Item { echo(n: null, q: "x") } }';
    const first = (await echo(handler, query)) as { n: number };
    expect(await echo(handler, query)).toEqual({ n: first.n + 1, q: 'x' });
  });

  it('bad literal arguments fail on every call', async () => {
    const handler = handlerWith({ q: z.string().min(3) }, (a) => a);
    for (let i = 0; i < 2; i++) {
      const result = await handler.execute('{ Item { echo(q: "x") } }');
      expect(result.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    }
  });

  it('keeps parses only for shapes of plain values with checks that only test them', () => {
    expect(cacheableShape({ limit: z.int().min(1).max(100).default(20), q: z.string().email().optional(), on: z.boolean().nullable() })).toBe(true);
    expect(cacheableShape({ kind: z.enum(['a', 'b']), lit: z.literal(3), big: z.bigint() })).toBe(true);
    expect(cacheableShape({ t: z.string().transform((s) => s) })).toBe(false);
    expect(cacheableShape({ r: z.int().refine((n) => n > 0) })).toBe(false);
    expect(cacheableShape({ o: z.string().trim() })).toBe(false); // an overwrite
    expect(cacheableShape({ c: z.int().catch(1) })).toBe(false);
    expect(cacheableShape({ list: z.array(z.int()) })).toBe(false);
    expect(cacheableShape({ obj: z.object({ a: z.int() }) })).toBe(false);
    expect(cacheableShape({ any: z.unknown() })).toBe(false);
  });
});
