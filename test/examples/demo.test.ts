import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { createApp, DEMO_QUERY, DEMO_V5_QUERY } from '../../examples/demo/app.js';
import { openDatabase, type DemoDatabase } from '../../examples/demo/database.js';
import { buildGraph, DEMO_MUTATION } from '../../examples/demo/graph.js';
import { ensureSeeded } from '../../examples/demo/seed.js';
import { tasks as taskTable } from '../../examples/demo/schema.js';
import { eq } from 'drizzle-orm';

// A tenth of the demo's rows: the same code paths, seeded in a fraction of the time.
const SMALL = { users: 30, projects: 60, tasks: 600, comments: 1800, tags: 24 };

describe('the demo service, in-process', () => {
  let database: DemoDatabase;
  let app: Hono;

  beforeAll(async () => {
    database = await openDatabase();
    expect(await ensureSeeded(database.db, SMALL)).toBe(true);
    expect(await ensureSeeded(database.db, SMALL)).toBe(false); // second start finds the data
    app = createApp(buildGraph(database.db), database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const post = async (query: string) => {
    const response = await app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { data: Record<string, any> | null; errors: unknown[] | null };
  };

  it('answers a nested paginated query over HTTP', async () => {
    const body = await post(`{
      Project { getAll(limit: 3) {
        id name owner { email }
        tasks(limit: 2) {
          items { id priority title tags(limit: 2) { items { label } } comments(limit: 1) { items { body } pagination { total_count } } }
          pagination { has_more total_count }
        }
      } }
    }`);
    expect(body.errors).toBeNull();
    const projects = body.data!.Project.getAll as any[];
    expect(projects.map((p) => p.id)).toEqual([1, 2, 3]);
    for (const project of projects) {
      expect(project.owner.email).toMatch(/@example\.com$/);
      const { items, pagination } = project.tasks;
      expect(items.length).toBe(Math.min(2, pagination.total_count));
      expect(pagination.has_more).toBe(pagination.total_count > 2);
      const priorities = items.map((t: { priority: number }) => t.priority);
      expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
      for (const task of items) expect(task.comments.items.length).toBe(Math.min(1, task.comments.pagination.total_count));
    }
  });

  it('serves GraphiQL on GET /graphql and the hand-written search query', async () => {
    const page = await app.request('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/graphiql/i);
    const body = await post(`{ Project { search(text: "revamp", limit: 2) { name } } }`);
    expect(body.errors).toBeNull();
    expect(body.data!.Project.search.every((p: { name: string }) => p.name.includes('revamp'))).toBe(true);
  });

  it('serves the ER diagram at /er: every entity linked to its GraphiQL docs, the use-case services and what they read', async () => {
    const page = await app.request('/er');
    expect(page.status).toBe(200);
    const html = await page.text();
    const entities = [...html.matchAll(/<g class="er-entity" data-entity="(\w+)"/g)].map((m) => m[1]);
    expect(entities.sort()).toEqual(['Comment', 'Project', 'Tag', 'Task', 'User']);
    for (const name of entities) expect(html).toContain(`href="/graphql?docs=${name}"`);
    expect(html).toContain('data-service="TaskService"');
    const picture = await (await app.request('/er?format=json')).json();
    const taskService = picture.services.find((s: { name: string }) => s.name === 'TaskService');
    expect(taskService.operations.some((op: { reads: string[] }) => op.reads.includes('Task'))).toBe(true);
    expect(picture.relationships.length).toBeGreaterThan(5);
    expect(await (await app.request('/')).text()).toContain('<a href="/er">');
  });

  it("opens GraphiQL on a nested paginated query that runs against the demo's data", async () => {
    const html = await (await app.request('/graphql', { headers: { accept: 'text/html' } })).text();
    // The page embeds the query as a JSON string literal (with `<` escaped).
    expect(html).toContain(JSON.stringify(DEMO_QUERY).replace(/</g, '\\u003c'));
    const body = await post(DEMO_QUERY);
    expect(body.errors).toBeNull();
    const users = body.data!.User.getAll as any[];
    expect(users).toHaveLength(3);
    // Every level must show data, or the newcomer's first run would look empty.
    const tasks = users.flatMap((u) => u.assignedTasks.items);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.some((t) => t.tags.items.length > 0)).toBe(true);
    expect(tasks.some((t) => t.comments.items.length > 0 && t.comments.items[0].author.name)).toBe(true);
    for (const user of users) {
      const { items, pagination } = user.assignedTasks;
      expect(items.length).toBe(Math.min(2, pagination.total_count));
      expect(pagination.has_more).toBe(pagination.total_count > 2);
    }
  });

  const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('serves the use-case routes with the caller from the context, and their OpenAPI document', async () => {
    const mine = await call('/api/task_service/myTasks', { limit: 100 }, { 'x-user-id': '2' });
    expect(mine.status).toBe(200);
    const tasks = (await mine.json()) as { id: number; status: string; priority: number; project: { name: string }; assignee: { id: number }; tags: { label: string }[] }[];
    expect(tasks.every((t) => t.assignee.id === 2 && typeof t.project.name === 'string' && Array.isArray(t.tags))).toBe(true);
    // "The caller's open tasks": every task of theirs not done, and none that is.
    const theirs = await database.db.select({ id: taskTable.id, status: taskTable.status }).from(taskTable).where(eq(taskTable.assigneeId, 2));
    expect(theirs.some((t) => t.status === 'done')).toBe(true);
    expect(tasks.map((t) => t.id).sort((a, b) => a - b)).toEqual(theirs.filter((t) => t.status !== 'done').map((t) => t.id).sort((a, b) => a - b));
    expect(tasks.map((t) => t.priority)).toEqual([...tasks.map((t) => t.priority)].sort((a, b) => a - b));

    const anonymous = await call('/api/task_service/myTasks', { limit: 3 });
    expect([anonymous.status, ((await anonymous.json()) as { error: string }).error]).toEqual([400, 'context_error']);
    expect((await call('/api/task_service/getTask', { taskId: 'x' })).status).toBe(400);
    const missing = await call('/api/task_service/getTask', { taskId: 999_999 });
    expect([missing.status, await missing.json()]).toEqual([200, null]);

    const added = await call('/api/task_service/addComment', { taskId: 1, body: 'looks good' }, { 'x-user-id': '3' });
    expect(added.status).toBe(200);
    expect(await added.json()).toMatchObject({ body: 'looks good', author: { id: 3 } });

    const doc = (await (await app.request('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/task_service/myTasks', '/api/task_service/addComment']));
  });

  it('has mutations a newcomer can try: the one the landing page shows, and setStatus', async () => {
    expect(await (await app.request('/')).text()).toContain('Task { create(title: &quot;Try ergraph&quot;)');
    const created = await post(DEMO_MUTATION);
    expect(created.errors).toBeNull();
    const task = created.data!.Task.create;
    expect(task).toMatchObject({ title: 'Try ergraph', status: 'todo', project: { name: expect.any(String) } });
    const moved = await post(`mutation { Task { setStatus(id: ${task.id}, status: done) { id status } } }`);
    expect(moved).toEqual({ data: { Task: { setStatus: { id: task.id, status: 'done' } } }, errors: null });
    const nowhere = await post('mutation { Task { create(title: "x", projectId: 999999) { id } } }');
    expect(JSON.stringify(nowhere.errors)).toContain('project 999999 does not exist');
  });

  it('opens GraphiQL on /graphql/v5 on a v5 example that runs', async () => {
    const html = await (await app.request('/graphql/v5', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain(JSON.stringify(DEMO_V5_QUERY).replace(/</g, '\\u003c'));
    const v5 = (await (await call('/graphql/v5', { query: DEMO_V5_QUERY })).json()) as { data: Record<string, unknown[]>; errors?: unknown };
    expect(v5.errors ?? null).toBeNull();
    expect(v5.data.userGetAll).toHaveLength(3);
    expect(v5.data.projectSearch!.length).toBeGreaterThan(0);
  });

  it('serves the v5 flat schema over the same executor, announcing its deprecation', async () => {
    const v5 = await call('/graphql/v5', { query: '{ projectGetAll(limit: 2) { id name } }' });
    expect(v5.status).toBe(200);
    expect(v5.headers.get('deprecation')).toMatch(/^@\d+$/);
    const body = (await v5.json()) as { data: { projectGetAll: { id: number }[] } };
    const v6 = await post('{ Project { getAll(limit: 2) { id name } } }');
    expect(body.data.projectGetAll).toEqual(v6.data!.Project.getAll);
  });

  it('answers MCP clients over Streamable HTTP', async () => {
    const server: ServerType = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new Client({ name: 'demo-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      const listed = await client.callTool({ name: 'list_queries', arguments: { app_name: 'demo' } });
      const result = listed.structuredContent as { success: boolean; data: { name: string }[] };
      expect(result.success).toBe(true);
      expect(result.data.map((e) => e.name)).toEqual(expect.arrayContaining(['Project.getAll', 'Project.search']));
      // The graphql_mutation tool's own description shows an example; it must run on the demo.
      const { tools } = await client.listTools();
      const example = /(mutation \{.*\}\s*\})/.exec(tools.find((t) => t.name === 'graphql_mutation')!.description!)![1]!;
      const ran = await client.callTool({ name: 'graphql_mutation', arguments: { app_name: 'demo', mutation: example } });
      const answer = ran.structuredContent as { success: boolean; data: { Task: { create: { id: number } } } };
      expect(answer.success, JSON.stringify(ran.structuredContent)).toBe(true);
      expect(answer.data.Task.create.id).toBeGreaterThan(0);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
