/** GraphQL variable types → the zod schema of an operation tool's input, and the JSON Schema agents see. */
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { variablesShape } from '../../src/mcp/variables.js';

const schema = buildSchema(/* GraphQL */ `
  scalar DateTime
  scalar BigInt
  scalar Money
  enum Color { RED GREEN }
  "A tree of filters"
  input Filter { and: [Filter!], name: String, color: Color = RED, ids: [ID!]! }
  type Query { find(filter: Filter, at: DateTime, big: BigInt, price: Money, ratio: Float, flags: [Boolean]): Int }
`);

const shapeOf = (document: string) =>
  variablesShape(schema, parse(document).definitions[0] as OperationDefinitionNode);
const jsonOf = (document: string) => z.toJSONSchema(z.object(shapeOf(document)), { io: 'input' }) as any;

describe('operation variables as tool input', () => {
  it('maps scalars, lists and non-null; non-null without default is required', () => {
    const json = jsonOf('query Q($ratio: Float!, $flags: [Boolean], $at: DateTime, $big: BigInt!, $price: Money) { find(ratio: $ratio, flags: $flags, at: $at, big: $big, price: $price) }');
    expect(json.required).toEqual(['ratio', 'big']);
    expect(json.properties.ratio).toEqual({ type: 'number' });
    expect(json.properties.flags).toEqual({ anyOf: [{ type: 'array', items: { type: ['boolean', 'null'] } }, { type: 'null' }] });
    expect(json.properties.at).toEqual({ type: ['string', 'null'] });
    expect(json.properties.big.anyOf.map((s: any) => s.type)).toEqual(['string', 'integer']);
    // a scalar ergraph does not know: any JSON value, but something must be sent when required
    expect(JSON.stringify(json.properties.price)).toContain('"object"');
  });

  it('maps a recursive input object, its enum default and its ID list', () => {
    const shape = shapeOf('query Q($filter: Filter!) { find(filter: $filter) }');
    const input = z.object(shape);
    expect(input.parse({ filter: { ids: ['a', 2], and: [{ ids: [] }] } })).toEqual({ filter: { ids: ['a', 2], and: [{ ids: [] }] } });
    expect(() => input.parse({ filter: { ids: [], and: [{ name: 'x' }] } })).toThrow(/ids/); // the nested one lacks ids
    expect(() => input.parse({ filter: { ids: [], color: 'BLUE' } })).toThrow();
    expect(() => input.parse({ filter: { ids: [], extra: 1 } })).toThrow(); // GraphQL refuses unknown input fields too
    const json = JSON.stringify(z.toJSONSchema(input, { io: 'input' }));
    expect(json).toContain('"enum":["RED","GREEN"]');
    expect(json).toContain('"$ref"'); // the recursion is a reference, not an endless expansion
  });

  it('a variable default becomes the JSON Schema default and fills a missing argument', () => {
    const shape = shapeOf('query Q($ratio: Float = 0.5) { find(ratio: $ratio) }');
    expect(z.object(shape).parse({})).toEqual({ ratio: 0.5 });
    expect((z.toJSONSchema(z.object(shape), { io: 'input' }) as any).properties.ratio.default).toBe(0.5);
  });
});
