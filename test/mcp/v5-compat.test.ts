/** `createMcpServer({ apps, v5Compat })`: v5-shaped calls through the SDK's real Client. */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildSchema } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpServer, type McpApp, type McpServerOptions } from 'ergraph/mcp';
// Loading compat registers the v5 side of `v5Compat: true` (the v6 engine never imports it).
import 'ergraph/compat';
import { call, newClient } from './client.js';
import { demoApps } from './fixture.js';

/** Two v6 methods whose v5 flat names collide: `User.getAll` and `User.get_all` are both `userGetAll`. */
const clashing: McpApp = {
  name: 'clash',
  handler: {
    schema: buildSchema('type UserQuery { getAll: [Int!]! get_all: [Int!]! byId: Int }\ntype Query { User: UserQuery! }'),
    execute: async () => ({ data: null, errors: null }),
  },
};

const clients: Client[] = [];
async function connect(options: Omit<McpServerOptions, 'apps'>): Promise<Client> {
  const server = createMcpServer({ apps: [...demoApps(), clashing], ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient();
  await client.connect(clientSide);
  clients.push(client);
  return client;
}
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe('v5Compat: true', async () => {
  const client = await connect({ v5Compat: true });

  it('adds the optional v5 arguments to the tools', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
    expect(Object.keys(byName.get_query_schema!.properties ?? {})).toEqual(['entity', 'method', 'name', 'app_name', 'response_type']);
    expect(byName.get_query_schema!.required).toEqual(['app_name']);
    expect(Object.keys(byName.list_mutations!.properties ?? {})).toEqual(['app_name', 'format']);
    expect(tools.find((t) => t.name === 'get_mutation_schema')!.description).toContain('v5 form');
  });

  it('get_query_schema({ name }) answers what { entity, method } answers, with the v6 form as hint', async () => {
    const v6 = await call(client, 'get_query_schema', { entity: 'User', method: 'getAll', app_name: 'tasks' });
    const v5 = await call(client, 'get_query_schema', { name: 'userGetAll', app_name: 'tasks' });
    expect(v5).toEqual({
      ...v6,
      hint: "get_query_schema({ name }) is the v5 form; call get_query_schema({ entity: 'User', method: 'getAll' })",
    });
    expect(v5.data.schema).toContain('getAll(limit: Int = 20): [User!]!');
    // response_type passes through
    const introspection = await call(client, 'get_query_schema', { name: 'userById', app_name: 'tasks', response_type: 'introspection' });
    expect(introspection.data).toMatchObject({ entity: 'User', method: 'byId', response_type: 'introspection' });
    expect(introspection.data.schema.__schema.queryType).toEqual({ kind: 'OBJECT', name: 'Query' });
  });

  it('get_mutation_schema({ name }) resolves against the mutation root only', async () => {
    const created = await call(client, 'get_mutation_schema', { name: 'taskCreate', app_name: 'tasks' });
    expect(created.data).toMatchObject({ entity: 'Task', method: 'create', name: 'Task.create', description: 'Create a task' });
    expect(created.data.schema).toContain('input TaskInput');
    expect(await call(client, 'get_mutation_schema', { name: 'userGetAll', app_name: 'tasks' })).toMatchObject({
      success: false,
      error_type: 'operation_not_found',
      error: 'no mutation is named "userGetAll" in v5 terms',
      hint: 'list_mutations lists the available mutations',
    });
  });

  it('names the candidates when a v5 name stands for several methods', async () => {
    expect(await call(client, 'get_query_schema', { name: 'userGetAll', app_name: 'clash' })).toEqual({
      success: false,
      error_type: 'ambiguous_name',
      error: '"userGetAll" names several v6 queries',
      hint: "call with { entity: 'User', method: 'getAll' } or { entity: 'User', method: 'get_all' }",
    });
    // the v6 form still reaches either one
    expect((await call(client, 'get_query_schema', { entity: 'User', method: 'get_all', app_name: 'clash' })).success).toBe(true);
  });

  it('entity and method win over name; anything less than either form is invalid_arguments', async () => {
    const both = await call(client, 'get_query_schema', { entity: 'Task', method: 'list', name: 'userGetAll', app_name: 'tasks' });
    expect(both.data.name).toBe('Task.list');
    expect(both.hint).toBeUndefined();
    for (const args of [{}, { entity: 'User' }, { method: 'getAll' }, { entity: 'User', name: 'userGetAll' }]) {
      expect(await call(client, 'get_query_schema', { ...args, app_name: 'tasks' })).toEqual({
        success: false,
        error_type: 'invalid_arguments',
        error: 'get_query_schema needs entity and method, or the v5 name alone',
        hint: 'list_queries shows the entity and method of each query',
      });
    }
  });

  it('checks the app and response_type before resolving the name', async () => {
    expect((await call(client, 'get_query_schema', { name: 'userGetAll', app_name: 'nope' })).error_type).toBe('app_not_found');
    expect((await call(client, 'get_query_schema', { name: 'userGetAll', app_name: 'tasks', response_type: 'xml' })).error_type).toBe(
      'invalid_response_type',
    );
  });

  it("list tools answer v6 entries by default and v5 entries for format: 'v5'", async () => {
    expect((await call(client, 'list_queries', { app_name: 'tasks' })).data[0]).toEqual({
      entity: 'User',
      method: 'getAll',
      name: 'User.getAll',
      description: 'All users',
    });
    expect((await call(client, 'list_queries', { app_name: 'tasks', format: 'v5' })).data).toEqual([
      { name: 'userGetAll', description: 'All users' },
      { name: 'userById', description: null },
      { name: 'taskList', description: null },
      { name: 'taskAudit', description: null },
    ]);
    expect(await call(client, 'list_mutations', { app_name: 'tasks', format: 'v5' })).toEqual({
      success: true,
      error_type: null,
      data: [{ name: 'taskCreate', description: 'Create a task' }],
    });
    expect((await call(client, 'list_mutations', { app_name: 'empty', format: 'v5' })).data).toEqual([]);
    expect(await call(client, 'list_queries', { app_name: 'tasks', format: 'v4' })).toMatchObject({
      success: false,
      error_type: 'invalid_format',
      hint: "use 'v6' or 'v5'",
    });
  });

  it('every v5 list entry resolves back through get_query_schema({ name })', async () => {
    const { data } = await call(client, 'list_queries', { app_name: 'tasks', format: 'v5' });
    for (const { name } of data as Array<{ name: string }>) {
      expect((await call(client, 'get_query_schema', { name, app_name: 'tasks' })).success).toBe(true);
    }
  });
});

describe("v5Compat: { listFormat: 'v5' }", async () => {
  const client = await connect({ v5Compat: { listFormat: 'v5' } });

  it('answers v5 entries when the call gives no format, v6 entries on request', async () => {
    expect((await call(client, 'list_queries', { app_name: 'tasks' })).data[0]).toEqual({ name: 'userGetAll', description: 'All users' });
    expect((await call(client, 'list_queries', { app_name: 'tasks', format: 'v6' })).data[0].name).toBe('User.getAll');
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'list_queries')!.inputSchema.properties!.format).toMatchObject({
      description: expect.stringContaining("default 'v5'"),
    });
  });
});

describe('without v5Compat', () => {
  it('keeps the v6 tool inputs and rejects a bad listFormat at creation', async () => {
    const client = await connect({ v5Compat: false });
    const { tools } = await client.listTools();
    const schemaTool = tools.find((t) => t.name === 'get_query_schema')!;
    expect(Object.keys(schemaTool.inputSchema.properties ?? {})).toEqual(['entity', 'method', 'app_name', 'response_type']);
    expect(schemaTool.inputSchema.required).toEqual(['entity', 'method', 'app_name']);
    expect(() => createMcpServer({ apps: demoApps(), v5Compat: { listFormat: 'v4' as never } })).toThrow(
      "v5Compat.listFormat must be 'v6' or 'v5', not 'v4'",
    );
  });
});

describe('v5Compat: v5McpCompat() from ergraph/compat', async () => {
  const { v5McpCompat } = await import('ergraph/compat');
  const client = await connect({ v5Compat: v5McpCompat({ listFormat: 'v5' }) });

  it('is the same v5 side, passed explicitly', async () => {
    const listed = await call(client, 'list_queries', { app_name: 'tasks' });
    expect(listed.data).toContainEqual({ name: 'userGetAll', description: 'All users' });
  });
});
