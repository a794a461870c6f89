/**
 * Use-case routes beside hand-written ones, in one Hono app.
 *
 *   npx tsx examples/usecase/main.ts
 *   open http://127.0.0.1:8787/docs
 */
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { model, mutation, query, ref } from 'ergraph';
import { createUseCaseRouter, FromContext, getReturnType, headerContext, HttpError, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';

class Task extends model({ id: z.int(), title: z.string(), ownerId: z.int(), done: z.boolean().default(false) }) {}

const tasks = [new Task({ id: 1, title: 'write the docs', ownerId: 1 })];

export class TaskService extends UseCaseService {
  @query({ args: { limit: z.int().min(1).max(100).default(20) }, returns: () => [Task], description: 'Tasks, oldest first' })
  static async listTasks({ limit }: { limit: number }) {
    return tasks.slice(0, limit);
  }

  @query({ args: { taskId: z.int() }, returns: () => ref(() => Task).nullable() })
  static async getTask({ taskId }: { taskId: number }) {
    return tasks.find((t) => t.id === taskId) ?? null;
  }

  @mutation({ args: { title: z.string().min(1), userId: FromContext(z.int()) }, returns: () => Task })
  static async createTask({ title, userId }: { title: string; userId: number }) {
    const task = new Task({ id: tasks.length + 1, title, ownerId: userId });
    tasks.push(task);
    return task;
  }
}

export const app = new Hono();

// Generated: POST /api/task_service/{listTasks,getTask,createTask}, GET /openapi.json, GET /docs
app.route(
  '/',
  createUseCaseRouter(
    new UseCaseAppConfig({
      name: 'Tasks',
      services: [TaskService],
      // A real app would verify a credential here; the example trusts a header, which
      // headerContext also declares in openapi.json (so the docs page can send it).
      contextExtractor: headerContext({ userId: 'x-user-id' }, (request) => {
        const user = request.headers.get('x-user-id');
        if (!user) throw new HttpError(401, 'send x-user-id');
        return { userId: Number(user) };
      }),
    }),
  ),
);

// Hand-written: same service method, same declared type, and this route chooses 404 on null.
app.get('/tasks/:id', async (c) => {
  const task = await TaskService.getTask({ taskId: Number(c.req.param('id')) });
  if (!task) throw new HTTPException(404, { message: 'task not found' });
  return c.json(getReturnType(TaskService.getTask).parse(task) as Task);
});

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 8787 }, ({ port }) => {
    console.log(`docs: http://127.0.0.1:${port}/docs`);
  });
}
