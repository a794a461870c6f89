/**
 * Object builders (src/graphql/builders.ts) test the built-in scalars' common values inline and
 * call `serialize` for the rest: whatever they take that way must be what `serialize` returns,
 * and a value `serialize` refuses must still send the object the slow way (`undefined`).
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLLeafType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { objectBuilder } from '../../src/graphql/builders.js';
import type { FieldPlan } from '../../src/graphql/plan.js';

const parentType = new GraphQLObjectType({ name: 'Row', fields: { v: { type: GraphQLString } } });

function builderFor(type: GraphQLLeafType, nonNull: boolean) {
  const field = { kind: 'property', key: 'v', name: 'v', parentType, completion: { kind: 'leaf', type, nonNull } } as unknown as FieldPlan;
  return objectBuilder([field])!;
}

/** What the field-by-field way makes of `value`: the serialized value, or `undefined` when it must go that way. */
function expected(type: GraphQLLeafType, nonNull: boolean, value: unknown): unknown {
  if (value === null || value === undefined) return nonNull ? undefined : { v: null };
  if (typeof value === 'function') return undefined;
  try {
    const serialized = type.serialize(value);
    return serialized === null || serialized === undefined ? undefined : { v: serialized };
  } catch {
    return undefined;
  }
}

const VALUES: readonly unknown[] = [
  0, -0, 1, -1, 7, 1.5, -2.25, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 40, 2 ** 53,
  Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY,
  '', 'x', '12', '1.5', 'true',
  true, false,
  null, undefined,
  {}, [1], { valueOf: () => 3 }, { valueOf: () => 'v' }, { toJSON: () => 'j' }, new Date(0),
  10n,
];

describe('object builders: built-in scalars', () => {
  for (const type of [GraphQLInt, GraphQLFloat, GraphQLString, GraphQLID, GraphQLBoolean]) {
    for (const nonNull of [true, false]) {
      it(`${type.name}${nonNull ? '!' : ''}: every value built as serialize makes it, or left to the slow way`, () => {
        const build = builderFor(type, nonNull).build;
        for (const value of VALUES) {
          const got = build({ v: value });
          // Object.is: -0 stays -0 where serialize keeps it.
          expect({ value, got }).toEqual({ value, got: expected(type, nonNull, value) });
          if (got && typeof (expected(type, nonNull, value) as { v: unknown }).v === 'number') {
            expect(Object.is((got as { v: unknown }).v, (expected(type, nonNull, value) as { v: unknown }).v)).toBe(true);
          }
        }
      });
    }
  }

  it("a schema's own scalar named like a built-in serializes as it says", () => {
    const Int = new GraphQLScalarType({ name: 'Int', serialize: (v) => (v as number) * 10 });
    expect(builderFor(Int, true).build({ v: 4 })).toEqual({ v: 40 });
    const String = new GraphQLScalarType({ name: 'String', serialize: (v) => `<${v as string}>` });
    expect(builderFor(String, false).build({ v: 'a' })).toEqual({ v: '<a>' });
  });
});
