/**
 * `handler.schema` in graphql-js's own `graphql()`/`execute()`,
 * as users hand it to Yoga, Apollo Server or Mercurius: whatever context they pass, or none,
 * each operation gets its own run — same data, same batching, no cache shared between requests.
 */
import { execute, graphql, parse } from 'graphql';
import { beforeEach, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { calls, callsOf, diagram } from './domain.js';

const handler = new GraphQLHandler(diagram);
const QUERY = '{ User { getAll(limit: 3) { id tasks { id owner { name } comments { author { id } } } } } }';
beforeEach(() => {
  calls.length = 0;
});

describe('handler.schema in graphql-js', () => {
  it('graphql() without a context answers like handler.execute, one loader call per relationship per level', async () => {
    const expected = await handler.execute(QUERY);
    calls.length = 0;
    const result = await graphql({ schema: handler.schema, source: QUERY });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected.data);
    expect(callsOf('tasksByOwner')).toEqual(['tasksByOwner(3)']);
    expect(callsOf('usersById')).toHaveLength(2); // owners at level 2, comment authors at level 3
    expect(callsOf('commentsByTask')).toEqual(['commentsByTask(9)']);
  });

  it('a context object reused across requests shares no loader cache between them', async () => {
    const context = { user: 'ada' };
    const document = parse('{ User { getAll(limit: 2) { tasks { id } } } }');
    await execute({ schema: handler.schema, document, contextValue: context });
    await execute({ schema: handler.schema, document, contextValue: context });
    expect(callsOf('tasksByOwner')).toEqual(['tasksByOwner(2)', 'tasksByOwner(2)']);
  });

  it('the given context reaches methods as their context', async () => {
    const result = await graphql({ schema: handler.schema, source: '{ User { whoami } }', contextValue: { user: 'grace' } });
    expect(result.data).toEqual({ User: { whoami: 'User:grace:-' } });
  });
});
