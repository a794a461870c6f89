import { describe, expect, it } from 'vitest';
import { buildSchema } from 'graphql';
import { createV5McpAdapter } from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

describe('createV5McpAdapter', () => {
  const adapter = createV5McpAdapter(createV6Handler().schema);

  it('turns get_query_schema({ name }) into the v6 call, keeping other arguments', () => {
    expect(adapter.adapt('get_query_schema', { name: 'userGetById', app_name: 'demo', response_type: 'sdl' })).toEqual({
      kind: 'call',
      tool: 'get_query_schema',
      arguments: { app_name: 'demo', response_type: 'sdl', entity: 'User', method: 'get_by_ID' },
      hint: "get_query_schema({ name }) is the v5 form; call get_query_schema({ entity: 'User', method: 'get_by_ID' })",
    });
    expect(adapter.adapt('get_mutation_schema', { name: 'taskCreate' })).toMatchObject({
      kind: 'call',
      arguments: { entity: 'Task', method: 'create' },
    });
  });

  it('leaves v6-shaped calls and unrelated tools to the server', () => {
    expect(adapter.adapt('get_query_schema', { entity: 'User', method: 'getAll' })).toBeNull();
    expect(adapter.adapt('graphql_query', { query: '{ __typename }' })).toBeNull();
  });

  it('answers list_queries and list_mutations with v5 entries', () => {
    expect(adapter.adapt('list_queries', { app_name: 'demo' })).toEqual({
      kind: 'result',
      result: {
        success: true,
        data: [
          { name: 'userGetAll', description: 'All users' },
          { name: 'userById', description: null },
          { name: 'userListItems2Fa', description: null },
          { name: 'userGetById', description: null },
          { name: 'taskGetAll', description: null },
          { name: 'taskById', description: null },
          { name: 'taskMustExist', description: null },
        ],
      },
    });
    expect(adapter.list('mutation').map((e) => e.name)).toEqual(['taskCreate', 'taskComplete', 'taskFail', 'userRename']);
  });

  it('explains unknown and ambiguous names in the MCP result shape', () => {
    expect(adapter.adapt('get_query_schema', { name: 'userNope' })).toEqual({
      kind: 'result',
      result: { success: false, error: 'no query is named "userNope" in v5 terms', error_type: 'NOT_FOUND', hint: 'list_queries lists the available queries' },
    });
    expect(adapter.adapt('get_mutation_schema', { name: 'userGetAll' })).toMatchObject({ result: { error_type: 'NOT_FOUND' } });
    const clash = createV5McpAdapter(buildSchema('type Query { User: UserQuery! } type UserQuery { get_all: Int getAll: Int }'));
    expect(clash.adapt('get_query_schema', { name: 'userGetAll' })).toEqual({
      kind: 'result',
      result: {
        success: false,
        error: '"userGetAll" names several v6 queries',
        error_type: 'AMBIGUOUS_NAME',
        hint: "call with { entity: 'User', method: 'get_all' } or { entity: 'User', method: 'getAll' }",
      },
    });
    expect(adapter.adapt('get_query_schema', {})).toMatchObject({ result: { success: false, error_type: 'INVALID_ARGUMENTS' } });
  });
});
