import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { buildClientSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from 'ergraph';
import { type McpRequest, createMcpServer } from 'ergraph/mcp';
import { call, newClient } from './client.js';
import { demoApps, demoHandler } from './fixture.js';

const client = newClient();
const apps = demoApps();

beforeAll(async () => {
  const server = createMcpServer({ apps, mutations: true });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
});
afterAll(() => client.close());

describe('MCP tools', () => {
  it('lists the tools with their argument names', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
    expect(byName).toEqual({
      list_apps: [],
      list_queries: ['app_name'],
      list_mutations: ['app_name'],
      get_query_schema: ['entity', 'method', 'app_name', 'response_type'],
      get_mutation_schema: ['entity', 'method', 'app_name', 'response_type'],
      get_full_schema: ['app_name', 'response_type'],
      graphql_query: ['app_name', 'query', 'variables', 'operation_name'],
      graphql_mutation: ['app_name', 'mutation', 'variables', 'operation_name'],
    });
    expect(tools.every((t) => t.description && t.outputSchema)).toBe(true);
  });

  it('list_apps', async () => {
    expect(await call(client, 'list_apps')).toEqual({
      success: true,
      error_type: null,
      data: [
        { name: 'tasks', description: 'Users and their tasks', queries: 4, mutations: 1 },
        { name: 'empty', description: null, queries: 0, mutations: 0 },
      ],
    });
  });

  it('list_queries and list_mutations give one entry per method', async () => {
    expect((await call(client, 'list_queries', { app_name: 'tasks' })).data).toEqual([
      { entity: 'User', method: 'getAll', name: 'User.getAll', description: 'All users' },
      { entity: 'User', method: 'byId', name: 'User.byId', description: null },
      { entity: 'Task', method: 'list', name: 'Task.list', description: null },
      { entity: 'Task', method: 'audit', name: 'Task.audit', description: null },
    ]);
    expect((await call(client, 'list_mutations', { app_name: 'tasks' })).data).toEqual([
      { entity: 'Task', method: 'create', name: 'Task.create', description: 'Create a task' },
    ]);
    expect((await call(client, 'list_mutations', { app_name: 'empty' })).data).toEqual([]);
  });

  it('answers app_not_found with the apps that exist', async () => {
    expect(await call(client, 'list_queries', { app_name: 'nope' })).toEqual({
      success: false,
      error: 'no app named nope',
      error_type: 'app_not_found',
      hint: 'available apps: tasks, empty',
    });
    expect((await call(client, 'graphql_query', { app_name: 'nope', query: '{ x }' })).error_type).toBe('app_not_found');
  });

  it('get_query_schema shows the root mount, the group trimmed to the method, and every reachable type', async () => {
    const result = await call(client, 'get_query_schema', { entity: 'User', method: 'getAll', app_name: 'tasks' });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ entity: 'User', method: 'getAll', name: 'User.getAll', description: 'All users', response_type: 'sdl' });
    expect(result.data.schema).toBe(
      [
        'type Query {\n  User: UserQuery!\n}',
        'type UserQuery {\n  """All users"""\n  getAll(limit: Int = 20): [User!]!\n}',
        '"""A person who owns tasks"""\ntype User {\n  id: Int!\n  name: String!\n  tasks: [Task!]!\n}',
        'type Task {\n  id: Int!\n  title: String!\n  status: Status!\n  owner: User\n}',
        'enum Status {\n  OPEN\n  DONE\n}',
      ].join('\n\n') + '\n',
    );
  });

  it('get_mutation_schema includes input types reached through arguments', async () => {
    const { data } = await call(client, 'get_mutation_schema', { entity: 'Task', method: 'create', app_name: 'tasks' });
    expect(data.schema).toContain('type Mutation {\n  Task: TaskMutation!\n}');
    expect(data.schema).toContain('create(input: TaskInput!): Task!');
    expect(data.schema).toContain('input TaskInput {\n  title: String!\n  ownerId: Int!\n  status: Status = OPEN\n}');
    expect(data.schema).not.toContain('type Query');
    expect(data.schema).not.toContain('AuditEntry');
  });

  it('response_type introspection gives a slice buildClientSchema accepts, equal to the SDL slice', async () => {
    const args = { entity: 'User', method: 'getAll', app_name: 'tasks' };
    const sdl = (await call(client, 'get_query_schema', args)).data.schema as string;
    const { data } = await call(client, 'get_query_schema', { ...args, response_type: 'introspection' });
    expect(data.response_type).toBe('introspection');
    const rebuilt = buildClientSchema(data.schema);
    expect(Object.keys(rebuilt.getQueryType()!.getFields())).toEqual(['User']);
    expect(Object.keys((rebuilt.getType('UserQuery') as any).getFields())).toEqual(['getAll']);
    expect(rebuilt.getType('AuditEntry')).toBeUndefined();
    for (const block of sdl.trim().split('\n\n')) expect(printSchema(rebuilt)).toContain(block);

    const mutation = await call(client, 'get_mutation_schema', { entity: 'Task', method: 'create', app_name: 'tasks', response_type: 'introspection' });
    const rebuiltMutation = buildClientSchema(mutation.data.schema);
    expect(rebuiltMutation.getQueryType()).toBeFalsy();
    expect(Object.keys(rebuiltMutation.getMutationType()!.getFields())).toEqual(['Task']);
  });

  it('answers operation_not_found with what exists', async () => {
    const noMethod = await call(client, 'get_query_schema', { entity: 'User', method: 'nope', app_name: 'tasks' });
    expect(noMethod).toMatchObject({ success: false, error_type: 'operation_not_found', error: 'User has no query nope', hint: 'queries of User: getAll, byId' });
    const noEntity = await call(client, 'get_mutation_schema', { entity: 'User', method: 'create', app_name: 'tasks' });
    expect(noEntity).toMatchObject({ error_type: 'operation_not_found', hint: 'entities with mutations: Task' });
    const none = await call(client, 'get_query_schema', { entity: 'ping', method: 'x', app_name: 'empty' });
    expect(none).toMatchObject({ error_type: 'operation_not_found', hint: 'this app has no queries' });
  });

  it('answers invalid_response_type', async () => {
    const result = await call(client, 'get_full_schema', { app_name: 'tasks', response_type: 'json' });
    expect(result).toMatchObject({ success: false, error_type: 'invalid_response_type', hint: "use 'sdl' or 'introspection'" });
    expect((await call(client, 'get_query_schema', { entity: 'User', method: 'getAll', app_name: 'tasks', response_type: 'xml' })).error_type).toBe(
      'invalid_response_type',
    );
  });

  it('get_full_schema', async () => {
    const sdl = await call(client, 'get_full_schema', { app_name: 'tasks' });
    expect(sdl.data.response_type).toBe('sdl');
    expect(sdl.data.schema).toContain('type AuditEntry');
    const introspection = await call(client, 'get_full_schema', { app_name: 'tasks', response_type: 'introspection' });
    expect(printSchema(buildClientSchema(introspection.data.schema))).toBe(sdl.data.schema);
  });

  it('graphql_query runs a grouped query with variables', async () => {
    const result = await call(client, 'graphql_query', {
      app_name: 'tasks',
      query: 'query($n: Int) { User { getAll(limit: $n) { name tasks { title owner { name } } } } }',
      variables: { n: 1 },
    });
    expect(result).toEqual({
      success: true,
      error_type: null,
      data: { User: { getAll: [{ name: 'Ada', tasks: [{ title: 'compile', owner: { name: 'Ada' } }] }] } },
    });
    // variables given as a JSON string are accepted too
    const fromString = await call(client, 'graphql_query', { app_name: 'tasks', query: 'query($id: Int!) { User { byId(id: $id) { name } } }', variables: '{"id":2}' });
    expect(fromString.data).toEqual({ User: { byId: { name: 'Grace' } } });
  });

  it('graphql_mutation runs a mutation', async () => {
    const result = await call(client, 'graphql_mutation', {
      app_name: 'tasks',
      mutation: 'mutation { Task { create(input: { title: "ship", ownerId: 2 }) { id status owner { name } } } }',
    });
    expect(result.data).toEqual({ Task: { create: { id: 2, status: 'OPEN', owner: { name: 'Grace' } } } });
  });

  it('graphql_query refuses a mutation document, and graphql_mutation a query', async () => {
    const refused = await call(client, 'graphql_query', { app_name: 'tasks', query: 'mutation Make { Task { create(input: { title: "x", ownerId: 1 }) { id } } }' });
    expect(refused).toEqual({
      success: false,
      error: 'graphql_query runs query operations, but the document holds a mutation (Make)',
      error_type: 'wrong_operation_type',
      hint: 'use graphql_mutation for mutation operations',
    });
    const list = await call(client, 'list_queries', { app_name: 'tasks' });
    expect(list.data.find((q: { name: string }) => q.name === 'Task.list')).toBeDefined();
    // nothing ran: still one task created by the earlier test at most
    const tasks = await call(client, 'graphql_query', { app_name: 'tasks', query: '{ Task { list { title } } }' });
    expect(tasks.data.Task.list.map((t: { title: string }) => t.title)).not.toContain('x');

    const reverse = await call(client, 'graphql_mutation', { app_name: 'tasks', mutation: '{ User { getAll { id } } }' });
    expect(reverse).toMatchObject({ error_type: 'wrong_operation_type', hint: 'use graphql_query for query operations' });
  });

  it('selects by operation_name when a document holds both kinds', async () => {
    const document = 'query Q { User { byId(id: 1) { name } } } mutation M { Task { create(input: { title: "m", ownerId: 1 }) { title } } }';
    expect((await call(client, 'graphql_query', { app_name: 'tasks', query: document, operation_name: 'Q' })).data).toEqual({
      User: { byId: { name: 'Ada' } },
    });
    expect((await call(client, 'graphql_query', { app_name: 'tasks', query: document, operation_name: 'M' })).error_type).toBe('wrong_operation_type');
  });

  it('reports GraphQL errors with their paths, and syntax errors', async () => {
    const bad = await call(client, 'graphql_query', { app_name: 'tasks', query: '{ User { getAll { nope } } }' });
    expect(bad).toMatchObject({ success: false, error_type: 'graphql_error', data: null });
    expect(bad.error).toContain('Cannot query field "nope" on type "User"');
    expect(bad.errors).toHaveLength(1);
    expect(bad.hint).toContain('get_query_schema');

    const syntax = await call(client, 'graphql_query', { app_name: 'tasks', query: '{ User { ' });
    expect(syntax).toMatchObject({ success: false, error_type: 'graphql_error', hint: 'the document does not parse; check its syntax' });
    expect(syntax.error).toContain('Syntax Error');

    const vars = await call(client, 'graphql_query', { app_name: 'tasks', query: '{ Task { list { id } } }', variables: '[1' });
    expect(vars).toMatchObject({ success: false, error_type: 'invalid_variables' });
  });
});

describe('createMcpServer', () => {
  it('passes each app its context, built from the request (no HTTP request here: the process env)', async () => {
    const handler = demoHandler();
    const seen: McpRequest[] = [];
    const context = (request: McpRequest) => (seen.push(request), { user: 7 });
    const server = createMcpServer({ apps: [{ name: 'a', handler, context }] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const own = newClient();
    await own.connect(clientSide);
    await call(own, 'graphql_query', { app_name: 'a', query: '{ Task { list { id } } }' });
    expect(handler.contexts).toEqual([{ user: 7 }]);
    expect(seen).toEqual([{ transport: 'stdio', env: process.env }]);
    await own.close();
  });

  it('offers graphql_mutation only with mutations: true', async () => {
    const server = createMcpServer({ apps: [{ name: 'a', handler: demoHandler() }] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const own = newClient();
    await own.connect(clientSide);
    const names = (await own.listTools()).tools.map((t) => t.name);
    expect(names).toContain('graphql_query');
    expect(names).toContain('list_mutations'); // describing mutations is reading
    expect(names).not.toContain('graphql_mutation');
    const refused = await own.callTool({ name: 'graphql_mutation', arguments: { app_name: 'a', mutation: 'mutation { Task { create(input: { title: "x", ownerId: 1 }) { id } } }' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/graphql_mutation not found/i);
    await own.close();
  });

  it('a context function that throws refuses the call without its text', async () => {
    const server = createMcpServer({
      apps: [{ name: 'a', handler: demoHandler(), context: () => { throw new Error('token abc123 expired'); } }],
      onError: () => {},
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const own = newClient();
    await own.connect(clientSide);
    const result = await call(own, 'graphql_query', { app_name: 'a', query: '{ Task { list { id } } }' });
    expect(result).toMatchObject({ success: false, error_type: 'unauthorized' });
    expect(JSON.stringify(result)).not.toContain('abc123');
    await own.close();
  });

  it('refuses duplicate app names and apps without a schema', () => {
    const handler = demoHandler();
    expect(() => createMcpServer({ apps: [{ name: 'a', handler }, { name: 'a', handler }] })).toThrow(ConfigError);
    expect(() => createMcpServer({ apps: [{ name: 'b', handler: {} as never }] })).toThrow(/MCP app b has no handler/);
  });
});
