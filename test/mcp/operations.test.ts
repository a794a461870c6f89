/**
 * `createMcpServer({ operations })` (issue 16.5): named operations become tools of their own,
 * with the variables as the input schema, checked through the SDK's real client.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, GraphQLHandler } from 'ergraph';
import { createMcpServer, type McpServerOptions } from 'ergraph/mcp';
import { call, newClient } from './client.js';
import { demoApps } from './fixture.js';
import { diagram } from '../graphql/domain.js';

const OPERATIONS = /* GraphQL */ `
# Users, the first ones first.
# At most \`limit\` of them.
query ListUsers($limit: Int = 20) {
  User { getAll(limit: $limit) { ...UserBits } }
}

query UserById($id: Int!) {
  User { byId(id: $id) { ...UserBits tasks { title status } } }
}

fragment UserBits on User { id name }

# Open a task for a user.
mutation CreateTask($input: TaskInput!) {
  Task { create(input: $input) { id title status owner { name } } }
}
`;

const clients: ReturnType<typeof newClient>[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(options: McpServerOptions) {
  const server = createMcpServer(options);
  const client = newClient();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

const tasksApp = () => demoApps().slice(0, 1);

describe('MCP tools from operations', () => {
  it('offers one tool per operation, with the variables as its JSON schema and the comment as its description', async () => {
    const client = await connect({ apps: tasksApp(), operations: OPERATIONS, mutations: true });
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['ListUsers', 'UserById', 'CreateTask', 'graphql_query']));
    expect(byName.ListUsers!.description).toBe('Users, the first ones first.\nAt most `limit` of them.');
    expect(byName.UserById!.description).toBe('The GraphQL query UserById.');
    expect(byName.ListUsers!.inputSchema).toMatchObject({
      type: 'object',
      properties: { limit: { anyOf: [{ type: 'integer', minimum: -2147483648, maximum: 2147483647 }, { type: 'null' }], default: 20 } },
    });
    expect(byName.ListUsers!.inputSchema.required ?? []).toEqual([]);
    expect(byName.UserById!.inputSchema).toMatchObject({ properties: { id: { type: 'integer' } }, required: ['id'] });
    // input object: non-null fields required, a field with a default optional, enums as enums
    const input = (byName.CreateTask!.inputSchema.properties as any).input;
    expect(byName.CreateTask!.inputSchema.required).toEqual(['input']);
    expect(input).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' }, ownerId: { type: 'integer' }, status: { anyOf: [{ type: 'string', enum: ['OPEN', 'DONE'] }, { type: 'null' }] } },
      required: ['title', 'ownerId'],
      additionalProperties: false,
    });
  });

  it('runs the operation through the handler with the arguments as variables', async () => {
    const client = await connect({ apps: tasksApp(), operations: OPERATIONS, mutations: true });
    expect(await call(client, 'ListUsers', { limit: 1 })).toEqual({ success: true, error_type: null, data: { User: { getAll: [{ id: 1, name: 'Ada' }] } } });
    expect((await call(client, 'ListUsers')).data.User.getAll).toHaveLength(2); // the default
    expect((await call(client, 'UserById', { id: 1 })).data).toEqual({ User: { byId: { id: 1, name: 'Ada', tasks: [{ title: 'compile', status: 'OPEN' }] } } });
    const created = await call(client, 'CreateTask', { input: { title: 'ship', ownerId: 2 } });
    expect(created.data).toEqual({ Task: { create: { id: 2, title: 'ship', status: 'OPEN', owner: { name: 'Grace' } } } });
  });

  it('refuses arguments that do not fit the variables before anything runs', async () => {
    const apps = tasksApp();
    const client = await connect({ apps, operations: OPERATIONS, mutations: true });
    const before = (apps[0]!.handler as unknown as { contexts: unknown[] }).contexts.length;
    const wrong = await client.callTool({ name: 'UserById', arguments: { id: 'one' } });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toMatch(/id/);
    const missing = await client.callTool({ name: 'CreateTask', arguments: { input: { title: 'x' } } });
    expect(missing.isError).toBe(true);
    expect((apps[0]!.handler as unknown as { contexts: unknown[] }).contexts.length).toBe(before);
  });

  it('offers mutation operations only when mutation tools are enabled', async () => {
    const client = await connect({ apps: tasksApp(), operations: OPERATIONS });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('ListUsers');
    expect(names).not.toContain('CreateTask');
    expect(names).not.toContain('graphql_mutation');
  });

  it('reads a .graphql file, a { name, document } list and an Apollo persisted query manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-ops-'));
    writeFileSync(join(dir, 'ops.graphql'), OPERATIONS);
    const manifest = {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'abc', name: 'FirstUser', type: 'query', body: 'query FirstUser { User { getAll(limit: 1) { name } } }' }],
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));

    const fromFile = await connect({ apps: tasksApp(), operations: join(dir, 'ops.graphql') });
    expect((await call(fromFile, 'UserById', { id: 2 })).data.User.byId.name).toBe('Grace');

    const fromManifest = await connect({ apps: tasksApp(), operations: join(dir, 'manifest.json') });
    expect((await call(fromManifest, 'FirstUser')).data).toEqual({ User: { getAll: [{ name: 'Ada' }] } });
    const fromObject = await connect({ apps: tasksApp(), operations: manifest as never });
    expect((await call(fromObject, 'FirstUser')).success).toBe(true);

    // a list entry may name its document's one anonymous operation
    const fromList = await connect({
      apps: tasksApp(),
      operations: [{ name: 'AllTasks', document: '{ Task { list { title } } }', description: 'Every task' }],
    });
    const tool = (await fromList.listTools()).tools.find((t) => t.name === 'AllTasks');
    expect(tool?.description).toBe('Every task');
    expect((await call(fromList, 'AllTasks')).data).toEqual({ Task: { list: [{ title: 'compile' }] } });
  });

  it('reads an operations file once per schema, not again for every session a server is built for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-ops-'));
    const file = join(dir, 'ops.graphql');
    writeFileSync(file, OPERATIONS);
    const apps = tasksApp();
    const first = await connect({ apps, operations: file });
    expect((await call(first, 'UserById', { id: 2 })).data.User.byId.name).toBe('Grace');
    writeFileSync(file, 'this is not GraphQL'); // a second session must not parse it again
    const second = await connect({ apps, operations: file });
    expect((await call(second, 'UserById', { id: 1 })).data.User.byId.name).toBe('Ada');
  });

  it('runs the operations of an ergraph handler within its operation limits', async () => {
    const handler = new GraphQLHandler(diagram, { limits: { aliases: 1 } });
    const client = await connect({
      apps: [{ name: 'domain', handler }],
      operations: 'query Twice { User { a: getAll(limit: 1) { id } b: getAll(limit: 1) { id } } }',
    });
    const result = await call(client, 'Twice');
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/alias/i);
  });
});

describe('bad operations are refused at server creation, naming the operation', () => {
  const create = (operations: McpServerOptions['operations'], apps = tasksApp()) => () => createMcpServer({ apps, operations });

  it.each([
    ['an unknown field', 'query Broken { User { getAll { id nickname } } }', /MCP operation Broken does not validate.*nickname/],
    ['an unknown variable type', 'query Typed($x: Nope) { User { byId(id: 1) { id } } }', /MCP operation Typed does not validate.*Nope/],
    ['an anonymous operation', '{ User { getAll { id } } }', /anonymous operation .*needs a name/],
    ['two operations with one name', 'query Same { User { getAll { id } } } query Same { Task { list { id } } }', /MCP operation Same: two operations have this name/],
    ['a name taken by a built-in tool', 'query list_apps { User { getAll { id } } }', /MCP operation list_apps: the server already has a tool/],
    ['a syntax error', 'query Bad { User { ', /MCP operation the operations document: Syntax Error/],
    ['a subscription', 'subscription Live { User { id } }', /MCP operation Live: subscriptions are not served/],
  ])('%s', (_, document, message) => {
    expect(create(document)).toThrow(ConfigError);
    expect(create(document)).toThrow(message);
  });

  it('a missing file, a list entry naming another operation, and several apps without operationsApp', () => {
    expect(create('./no-such-ops.graphql')).toThrow(/MCP operations: no file .*no-such-ops.graphql/);
    expect(create([{ name: 'A', document: 'query B { User { getAll { id } } }' }])).toThrow(/MCP operation A: the document's operation is named B/);
    expect(create('query A { User { getAll { id } } }', demoApps())).toThrow(/operationsApp: the server has 2 apps \(tasks, empty\)/);
    expect(() => createMcpServer({ apps: demoApps(), operations: 'query A { ping }', operationsApp: 'empty' })).not.toThrow();
    expect(() => createMcpServer({ apps: demoApps(), operations: 'query A { ping }', operationsApp: 'nope' })).toThrow(/operationsApp nope is not one of the apps/);
  });
});
