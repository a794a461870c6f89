import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newClient } from './client.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const client = newClient();
let stderr = '';

beforeAll(async () => {
  // The real command an agent's config runs: `ergraph mcp --app <module>`, here on a TypeScript
  // app module served by the real GraphQLHandler, loaded through tsx.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/ergraph.js', 'mcp', '--app', 'test/mcp/fixtures/app.ts', '--mutations'],
    cwd: root,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  await client.connect(transport);
});
afterAll(() => client.close());

describe('ergraph mcp over stdio', () => {
  it("announces the installed package's version, prereleases included", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(client.getServerVersion()).toEqual({ name: 'ergraph', version });
  });

  it('serves the tools of the module apps to the SDK client', async () => {
    expect((await call(client, 'list_apps')).data).toEqual([{ name: 'demo', description: 'Users and their tasks', queries: 2, mutations: 1 }]);
    expect((await call(client, 'list_queries', { app_name: 'demo' })).data).toEqual([
      { entity: 'User', method: 'getAll', name: 'User.getAll', description: 'All users' },
      { entity: 'User', method: 'byId', name: 'User.byId', description: 'One user by id' },
    ]);
  }, 60_000);

  it('shows one operation of the real GraphQLHandler schema', async () => {
    const { data } = await call(client, 'get_mutation_schema', { entity: 'Task', method: 'create', app_name: 'demo' });
    expect(data.schema).toContain('type Mutation {\n  Task: TaskMutation!\n}');
    expect(data.schema).toContain('create(title: String!, ownerId: Int!): Task!');
    expect(data.schema).toContain('type Task {');
    expect(data.schema).toContain('type User {');
  });

  it('runs queries and mutations, refusing the wrong kind', async () => {
    const q = await call(client, 'graphql_query', { app_name: 'demo', query: '{ User { byId(id: 2) { name tasks { title owner { name } } } } }' });
    expect(q.data).toEqual({ User: { byId: { name: 'Grace', tasks: [{ title: 'debug', owner: { name: 'Grace' } }] } } });
    const m = await call(client, 'graphql_mutation', { app_name: 'demo', mutation: 'mutation { Task { create(title: "review", ownerId: 2) { title owner { name } } } }' });
    expect(m.data).toEqual({ Task: { create: { title: 'review', owner: { name: 'Grace' } } } });
    expect((await call(client, 'graphql_query', { app_name: 'demo', query: 'mutation { Task { create(title: "x", ownerId: 1) { id } } }' })).error_type).toBe(
      'wrong_operation_type',
    );
    expect(stderr).toBe('');
  });
});
