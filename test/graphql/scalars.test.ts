/**
 * The JSON, BigInt and ID mappings: schema shape, serialisation, and parsing from literals and
 * variables, through GraphQLHandler with plain (non-SQL) models.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, MutationConfig, QueryConfig, SchemaBuilder } from 'ergraph';

class Doc extends model({
  id: z.uuid(),
  body: z.json(),
  meta: z.unknown(),
  size: z.bigint(),
  sizes: z.array(z.bigint()),
  parts: z.array(z.json()),
}) {}

const seen: unknown[] = [];
const DOC = {
  id: '0b6f3f0e-2a4e-4c61-9b1d-4c4f8a8e2f10',
  body: { title: 'hello', tags: ['a', 'b'], nested: { n: 1.5, ok: true, none: null } },
  meta: { at: new Date(Date.UTC(2024, 4, 1)) },
  size: 9_007_199_254_740_993n, // 2^53 + 1: a JSON number would lose the last digit
  sizes: [1n, -2n],
  parts: [1, 'two', null, [3]],
};

const entity = new Entity({
  kls: Doc,
  queries: [
    new QueryConfig({ name: 'get', returns: () => Doc, method: async () => new Doc(DOC) }),
    new QueryConfig({
      name: 'echo',
      args: { value: z.json(), big: z.bigint().optional(), id: z.uuid().optional() },
      returns: z.json(),
      method: async (args: Record<string, unknown>) => {
        seen.push(args);
        return args.value;
      },
    }),
    new QueryConfig({ name: 'bad', returns: z.unknown(), method: async () => ({ n: 1n }) }),
  ],
  mutations: [
    new MutationConfig({
      name: 'double',
      args: { n: z.bigint() },
      returns: z.bigint(),
      method: async ({ n }: { n: bigint }) => n * 2n,
    }),
  ],
});
const diagram = new ErDiagram({ entities: [entity] });
const handler = new GraphQLHandler(diagram);

describe('JSON, BigInt and ID scalars', () => {
  it('declares the scalars; JSON fields and arguments are nullable since null is a JSON value', () => {
    const sdl = new SchemaBuilder(diagram).buildSchema();
    expect(sdl).toMatch(/^scalar JSON$/m);
    expect(sdl).toMatch(/^scalar BigInt$/m);
    expect(sdl).toMatch(/\bid: ID!/);
    expect(sdl).toMatch(/\bbody: JSON\n/);
    expect(sdl).toMatch(/\bmeta: JSON\n/);
    expect(sdl).toMatch(/\bsize: BigInt!/);
    expect(sdl).toMatch(/\bsizes: \[BigInt!\]!/);
    expect(sdl).toMatch(/\bparts: \[JSON\]!/);
    expect(sdl).toMatch(/echo\(value: JSON, big: BigInt, id: ID\): JSON/);
    expect(sdl).toMatch(/double\(n: BigInt!\): BigInt!/);
  });

  it('serialises JSON values as they are (toJSON honoured) and bigints as decimal strings', async () => {
    const result = await handler.execute('{ Doc { get { id body meta size sizes parts } } }');
    expect(result).toEqual({
      data: {
        Doc: {
          get: { id: DOC.id, body: DOC.body, meta: { at: '2024-05-01T00:00:00.000Z' }, size: '9007199254740993', sizes: ['1', '-2'], parts: DOC.parts },
        },
      },
      errors: null,
    });
  });

  it('parses JSON from literals, with variables nested inside them, and from variables', async () => {
    seen.length = 0;
    const literal = await handler.execute('query($t: String) { Doc { echo(value: { a: [1, 2.5, "x", true, null, $t], b: { c: RED } }) } }', {
      variables: { t: 'var' },
    });
    expect(literal).toEqual({ data: { Doc: { echo: { a: [1, 2.5, 'x', true, null, 'var'], b: { c: 'RED' } } } }, errors: null });
    const variable = await handler.execute('query($v: JSON) { Doc { echo(value: $v) } }', { variables: { v: [{ deep: { x: [1] } }] } });
    expect(variable).toEqual({ data: { Doc: { echo: [{ deep: { x: [1] } }] } }, errors: null });
    const scalar = await handler.execute('{ Doc { s: echo(value: "just a string") n: echo(value: 42) z: echo(value: null) } }');
    expect(scalar).toEqual({ data: { Doc: { s: 'just a string', n: 42, z: null } }, errors: null });
    // An omitted JSON argument reaches zod as null (a JSON value), not as a missing key.
    const omitted = await handler.execute('{ Doc { echo } }');
    expect(omitted).toEqual({ data: { Doc: { echo: null } }, errors: null });
  });

  it('parses BigInt from integer literals of any size, decimal strings and safe integer variables', async () => {
    const big = '123456789012345678901234567890';
    const literal = await handler.execute(`mutation { Doc { a: double(n: ${big}) b: double(n: "-${big}") } }`);
    expect(literal).toEqual({ data: { Doc: { a: String(BigInt(big) * 2n), b: String(BigInt(big) * -2n) } }, errors: null });
    const vars = await handler.execute('mutation($x: BigInt!, $y: BigInt!) { Doc { x: double(n: $x) y: double(n: $y) } }', {
      variables: { x: '9007199254740993', y: 21 },
    });
    expect(vars).toEqual({ data: { Doc: { x: '18014398509481986', y: '42' } }, errors: null });
    seen.length = 0;
    await handler.execute('{ Doc { echo(value: 1, big: 7, id: "0b6f3f0e-2a4e-4c61-9b1d-4c4f8a8e2f10") } }');
    expect(seen).toEqual([{ value: 1, big: 7n, id: '0b6f3f0e-2a4e-4c61-9b1d-4c4f8a8e2f10' }]);
  });

  it('refuses BigInt values that are not exact integers, saying how to send them', async () => {
    const unsafe = await handler.execute('mutation($x: BigInt!) { Doc { double(n: $x) } }', { variables: { x: 2 ** 60 } });
    expect(unsafe.data).toBeNull(); // a bad variable stops the request before execution
    expect(unsafe.errors![0]!.message).toMatch(/BigInt cannot represent .*send a string/);
    for (const bad of ['1.5', '"12a"', 'true']) {
      const result = await handler.execute(`mutation { Doc { double(n: ${bad}) } }`);
      expect(result.errors?.[0]?.message, bad).toMatch(/BigInt/);
    }
  });

  it('an id argument that is not a uuid fails zod validation at the field', async () => {
    const result = await handler.execute('{ Doc { echo(value: 1, id: "not-a-uuid") } }');
    expect(result.errors![0]).toMatchObject({ path: ['Doc', 'echo'], extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('a value JSON cannot carry is a field error, not a silently changed value', async () => {
    const result = await handler.execute('{ Doc { bad } }');
    expect(result.data).toEqual({ Doc: { bad: null } });
    expect(result.errors![0]!.message).toMatch(/JSON cannot represent 1n \(bigint\) at \$\.n/);
  });
});
