/** The tools over the real `GraphQLHandler` from 'ergraph', in process. */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from 'ergraph/mcp';
import { call, newClient } from './client.js';
import { apps } from './fixtures/app.js';

const client = newClient();

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ apps }).connect(serverSide);
  await client.connect(clientSide);
});
afterAll(() => client.close());

describe('MCP tools over GraphQLHandler', () => {
  it('lists the methods of the grouped schema', async () => {
    expect((await call(client, 'list_mutations', { app_name: 'demo' })).data).toEqual([
      { entity: 'Task', method: 'create', name: 'Task.create', description: 'Create a task' },
    ]);
  });

  it('trims get_query_schema to the method and what it reaches', async () => {
    const { data } = await call(client, 'get_query_schema', { entity: 'User', method: 'byId', app_name: 'demo' });
    expect(data.schema).toContain('type Query {\n  User: UserQuery!\n}');
    expect(data.schema).toContain('byId(id: Int!): User');
    expect(data.schema).not.toContain('getAll');
    expect(data.schema).not.toContain('Mutation');
  });

  it('turns a bare group selection into a graphql_error whose hint lists the methods', async () => {
    const result = await call(client, 'graphql_query', { app_name: 'demo', query: '{ User }' });
    expect(result).toMatchObject({ success: false, error_type: 'graphql_error' });
    expect(result.errors[0].extensions.code).toBe('BARE_GROUP_FIELD');
    expect(result.hint).toBe('select one of the methods: getAll, byId');
  });

  it('reports an unknown method with its path', async () => {
    const result = await call(client, 'graphql_query', { app_name: 'demo', query: '{ User { nope { id } } }' });
    expect(result.error_type).toBe('graphql_error');
    expect(result.errors[0].path).toEqual(['User', 'nope']);
    expect(result.hint).toBe('select one of the methods: getAll, byId');
  });
});
