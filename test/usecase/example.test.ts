import { describe, expect, it } from 'vitest';
import { app } from '../../examples/usecase/main.js';

const post = (path: string, body: unknown, user?: string) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(user ? { 'x-user-id': user } : {}) } });

describe('examples/usecase', () => {
  it('serves generated and hand-written routes side by side', async () => {
    const created = await post('/api/task_service/createTask', { title: 'ship', userId: 99 }, '7');
    expect(await created.json()).toMatchObject({ title: 'ship', ownerId: 7 });
    expect((await post('/api/task_service/createTask', { title: 'ship' })).status).toBe(401);
    expect(await (await app.request('/tasks/1')).json()).toMatchObject({ id: 1, title: 'write the docs' });
    expect((await app.request('/tasks/99')).status).toBe(404);
    expect(await (await post('/api/task_service/getTask', { taskId: 99 }, '7')).json()).toBeNull();
  });
});
