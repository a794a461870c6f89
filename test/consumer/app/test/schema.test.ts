// (c) of the consumer stage: handler.schema in graphql's own functions, from a vitest file.
// Without vitest.config.ts's alias this fails with "Cannot use GraphQLSchema ... from another
// module or realm" (the stage checks that too), since graphql 16 has no exports map.
import { graphql, printSchema, validateSchema } from 'graphql';
import { expect, it } from 'vitest';
import { handler } from '../src/graph.js';

it('prints, validates and introspects handler.schema with graphql-js', async () => {
  expect(validateSchema(handler.schema)).toEqual([]);
  const sdl = printSchema(handler.schema);
  expect(sdl).toMatch(/^type UserQuery \{/m);
  expect(sdl).toMatch(/^type TaskMutation \{/m);
  expect(sdl).not.toMatch(/_User|_Task/);
  const result = await graphql({ schema: handler.schema, source: '{ __schema { queryType { name } mutationType { name } } }' });
  expect(result).toEqual({ data: { __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } } } });
});

it('runs queries through handler.execute', async () => {
  const result = await handler.execute('{ User { getAll(limit: 1) { name } } }');
  expect(result).toEqual({ data: { User: { getAll: [{ name: 'Ada' }] } }, errors: null });
});

it('executes handler.schema with graphql() and a context of its own, as Yoga or Apollo Server would', async () => {
  const result = await graphql({ schema: handler.schema, source: '{ User { getAll(limit: 1) { name } } }', contextValue: { requestId: 1 } });
  expect(result).toEqual({ data: { User: { getAll: [{ name: 'Ada' }] } } });
});
