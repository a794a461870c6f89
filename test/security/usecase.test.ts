/**
 * Issue 13: on the demo's use-case routes an out-of-range integer and an unknown user gave 500,
 * text/plain bodies were accepted, and GET on a POST route was 404. Bad input is now the
 * client's 4xx, with nothing of the database's text.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDemo, type DemoUnderAttack } from './demo.js';

let demo: DemoUnderAttack;
beforeAll(async () => {
  demo = await startDemo();
  vi.spyOn(console, 'error').mockImplementation(() => {}); // the masked errors' log lines
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await demo?.close();
});

const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await demo.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
};

describe('use-case routes answer bad input with 4xx', () => {
  it('an integer past the column (int4) but inside zod.int(): 400 from the database, no SQL', async () => {
    const res = await call('/api/task_service/getTask', { taskId: 99_999_999_999 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request', sql_state: '22003' });
    expect(res.body.message).toMatch(/a number is out of range/);
    expect(JSON.stringify(res.body)).not.toMatch(/select|where|\$1/i);
  });

  it('an integer past zod.int() (a safe integer) is refused by zod first: 400 with its issues', async () => {
    const res = await call('/api/task_service/getTask', { taskId: 2 ** 60 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
  });

  it('an unknown user commenting: 400 (a referenced record does not exist), not 500', async () => {
    const res = await call('/api/task_service/addComment', { taskId: 1, body: 'hello' }, { 'x-user-id': '987654' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request', sql_state: '23503' });
    expect(res.body.message).toMatch(/a referenced record does not exist/);
    // and a user id past int4 in the header
    expect((await call('/api/task_service/addComment', { taskId: 1, body: 'hello' }, { 'x-user-id': '99999999999' })).status).toBe(400);
  });

  it('text/plain (a CORS "simple" request) gets 415', async () => {
    const res = await call('/api/task_service/getTask', '{"taskId":1}', { 'content-type': 'text/plain;charset=UTF-8' });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'unsupported_media_type', message: 'request bodies must be application/json, got text/plain' });
  });

  it('GET on a POST route: 405 with Allow: POST', async () => {
    const res = await demo.app.request('/api/task_service/getTask');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await res.json()).message).toBe('TaskService.getTask is served by POST /api/task_service/getTask');
  });

  it('good input still works', async () => {
    const res = await call('/api/task_service/getTask', { taskId: 1 });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(1);
  });
});
