import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { createApp } from '../../examples/demo/app.js';
import { openDatabase, type DemoDatabase } from '../../examples/demo/database.js';
import { buildGraph } from '../../examples/demo/graph.js';
import { ensureSeeded } from '../../examples/demo/seed.js';

// A tenth of the demo's rows: the same code paths, seeded in a fraction of the time.
const SMALL = { users: 30, projects: 60, tasks: 600, comments: 1800, tags: 24 };

describe('the demo service, in-process', () => {
  let database: DemoDatabase;
  let app: Hono;

  beforeAll(async () => {
    database = await openDatabase();
    expect(await ensureSeeded(database.db, SMALL)).toBe(true);
    expect(await ensureSeeded(database.db, SMALL)).toBe(false); // second start finds the data
    app = createApp(buildGraph(database.db));
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
});
