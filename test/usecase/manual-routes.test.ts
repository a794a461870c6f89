/**
 * Manual routes (spec 4.3 item 3): the application writes GET/PUT/DELETE routes with Hono itself,
 * delegating to the same service methods, checking results with `getReturnType()`, and choosing
 * to answer 404 when the service returns nothing.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUseCaseRouter, getReturnType, UseCaseAppConfig } from 'ergraph/usecase';
import { resetTasks, TaskService } from './services.js';

function buildApp() {
  const app = new Hono();
  const taskOut = getReturnType(TaskService.getTask);

  app.get('/tasks/:id', async (c) => {
    const task = await TaskService.getTask({ taskId: Number(c.req.param('id')) });
    if (!task) throw new HTTPException(404, { message: 'task not found' });
    return c.json(JSON.parse(JSON.stringify(taskOut.parse(task))));
  });

  app.get('/tasks', async (c) => {
    const limit = z.coerce.number().int().min(1).max(100).default(20).parse(c.req.query('limit') ?? undefined);
    return c.json((await TaskService.listTasks({ limit })).map((t) => ({ id: t.id, title: t.title })));
  });

  app.put('/tasks/:id', async (c) => {
    const { title } = z.object({ title: z.string().min(1) }).parse(await c.req.json());
    const task = await TaskService.renameTask({ taskId: Number(c.req.param('id')), title });
    if (!task) throw new HTTPException(404, { message: 'task not found' });
    return c.json({ id: task.id, title: task.title });
  });

  app.delete('/tasks/:id', async (c) => {
    const deleted = await TaskService.deleteTask({ taskId: Number(c.req.param('id')) });
    if (!deleted) throw new HTTPException(404, { message: 'task not found' });
    return c.body(null, 204);
  });

  // The generated routes live beside the manual ones.
  app.route('/', createUseCaseRouter(new UseCaseAppConfig({ name: 'Tasks', services: [TaskService] })));
  return app;
}

beforeEach(resetTasks);

describe('manual routes beside the generated ones', () => {
  const app = buildApp();

  it('GET with a path parameter, 404 on null', async () => {
    const found = await app.request('/tasks/1');
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id: 1, title: 'compile' });
    const missing = await app.request('/tasks/99');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('task not found');
  });

  it('GET with a query parameter', async () => {
    expect(await (await app.request('/tasks?limit=1')).json()).toEqual([{ id: 1, title: 'compile' }]);
  });

  it('PUT and DELETE reuse the service methods; the generated route sees the change', async () => {
    const put = await app.request('/tasks/2', { method: 'PUT', body: JSON.stringify({ title: 'release' }) });
    expect(await put.json()).toEqual({ id: 2, title: 'release' });
    expect((await app.request('/tasks/7', { method: 'PUT', body: '{"title":"x"}' })).status).toBe(404);

    expect((await app.request('/tasks/2', { method: 'DELETE' })).status).toBe(204);
    expect((await app.request('/tasks/2', { method: 'DELETE' })).status).toBe(404);
    const generated = await app.request('/api/task_service/getTask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"taskId":2}' });
    expect(await generated.json()).toBeNull();
  });
});
