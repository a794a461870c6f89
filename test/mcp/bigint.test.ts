import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, type GraphQLAppHandler } from 'ergraph/mcp';
import { call, newClient } from './client.js';

// An app handler is any `{ schema, execute }`: nothing stops one from answering with bigint values,
// and error extensions are free-form even in graphql-js.
const handler: GraphQLAppHandler = {
  schema: buildSchema('type Query { big: String, fail: String }'),
  async execute(query) {
    if (query.includes('fail')) {
      return { data: { fail: null }, errors: [{ message: 'too large', path: ['fail'], extensions: { code: 'LIMIT', limit: 9007199254740993n } }] };
    }
    return { data: { big: 9007199254740993n, list: [1n, -2n] }, errors: null };
  },
};

const client = newClient();

beforeAll(async () => {
  const server = createMcpServer({ apps: [{ name: 'big', handler }] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
});
afterAll(() => client.close());

describe('MCP results holding bigint', () => {
  it('sends bigint data as decimal strings instead of failing', async () => {
    expect(await call(client, 'graphql_query', { app_name: 'big', query: '{ big }' })).toEqual({
      success: true,
      error_type: null,
      data: { big: '9007199254740993', list: ['1', '-2'] },
    });
  });

  it('sends bigint error extensions as decimal strings', async () => {
    const result = await call(client, 'graphql_query', { app_name: 'big', query: '{ fail }' });
    expect(result).toMatchObject({
      success: false,
      error_type: 'graphql_error',
      error: 'too large',
      errors: [{ message: 'too large', path: ['fail'], extensions: { code: 'LIMIT', limit: '9007199254740993' } }],
      data: { fail: null },
    });
  });
});
