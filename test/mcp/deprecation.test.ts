/** Deprecated methods and fields as MCP clients see them (issue 16.2): flagged in lists and in the schema slices. */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { buildClientSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { createMcpServer } from 'ergraph/mcp';
import { Base } from '../graphql/deprecated-domain.js';
import { call, newClient } from './client.js';

const client = newClient();

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ apps: [{ name: 'old', handler: new GraphQLHandler(Base.getDiagram()) }] }).connect(serverSide);
  await client.connect(clientSide);
});
afterAll(() => client.close());

describe('deprecation over MCP', () => {
  it('list_queries and list_mutations give deprecated methods their reason, and only them', async () => {
    expect((await call(client, 'list_queries', { app_name: 'old' })).data).toEqual([
      { entity: 'User', method: 'getAll', name: 'User.getAll', description: 'All users' },
      { entity: 'User', method: 'byName', name: 'User.byName', description: 'One user by name', deprecationReason: 'Use User.getAll' },
    ]);
    expect((await call(client, 'list_mutations', { app_name: 'old' })).data).toEqual([
      { entity: 'User', method: 'retire', name: 'User.retire', description: null, deprecationReason: 'Use Task.archive' },
    ]);
  });

  it('get_query_schema says so in SDL and in introspection', async () => {
    const sdl = (await call(client, 'get_query_schema', { entity: 'User', method: 'byName', app_name: 'old' })).data;
    expect(sdl.deprecationReason).toBe('Use User.getAll');
    expect(sdl.schema).toContain('byName(name: String!, exact: Boolean @deprecated(reason: "Always exact now")): User! @deprecated(reason: "Use User.getAll")');
    expect(sdl.schema).toContain('fullName: String! @deprecated(reason: "Use name")');

    const intro = (await call(client, 'get_query_schema', { entity: 'User', method: 'byName', app_name: 'old', response_type: 'introspection' })).data;
    const schema = buildClientSchema(intro.schema);
    const byName = (schema.getType('UserQuery') as any).getFields().byName;
    expect(byName.deprecationReason).toBe('Use User.getAll');
    expect(byName.args.find((a: any) => a.name === 'exact').deprecationReason).toBe('Always exact now');
    expect((schema.getType('User') as any).getFields().todo.deprecationReason).toBe('Use tasks');

    const plain = (await call(client, 'get_query_schema', { entity: 'User', method: 'getAll', app_name: 'old' })).data;
    expect('deprecationReason' in plain).toBe(false);
  });
});
