import { describe, expect, it } from 'vitest';
import { buildSchema } from 'graphql';
import { buildFlatIndex, toV5CamelCase, v5FieldName } from 'ergraph/compat';
import { RULE_TABLE } from '../support/flat-names.js';

describe('v5FieldName', () => {
  // The hand-written table every flat-name test reads (DESIGN.md's examples and the rule's edges).
  it.each(RULE_TABLE.map(([e, m, f]) => [e, m, f] as const))('%s.%s → %s', (entity, method, flat) => {
    expect(v5FieldName(entity, method)).toBe(flat);
  });

  it('drops empty pieces and keeps a leading one verbatim, as v5 did', () => {
    expect(toV5CamelCase('get__all')).toBe('getAll');
    expect(toV5CamelCase('get_all_')).toBe('getAll');
    expect(toV5CamelCase('_private')).toBe('Private');
    expect(v5FieldName('User', '_private')).toBe('userPrivate');
  });

  it('title-cases every later piece: upper after a digit, lower after a letter', () => {
    expect(toV5CamelCase('find_by_x2y_ZZ')).toBe('findByX2YZz');
    expect(toV5CamelCase('keepCamel_THEN_snake')).toBe('keepCamelThenSnake');
    expect(toV5CamelCase('a_1_b')).toBe('a1B');
  });
});

describe('buildFlatIndex', () => {
  it('maps each flat name to its v6 methods, keeping clashes for callers to report', () => {
    const index = buildFlatIndex(
      buildSchema(`
        type Query { User: UserQuery! }
        type UserQuery { get_all: [Int!]! getAll: [Int!]! byId(id: Int!): Int }
        type Mutation { User: UserMutation! }
        type UserMutation { rename(name: String!): Int }`),
    );
    expect(index.query.get('userById')!.map((t) => [t.entity, t.method])).toEqual([['User', 'byId']]);
    expect(index.query.get('userGetAll')!.map((t) => t.method)).toEqual(['get_all', 'getAll']);
    expect(index.mutation.get('userRename')![0]!.operation).toBe('mutation');
    expect(index.query.get('userRename')).toBeUndefined();
  });
});
