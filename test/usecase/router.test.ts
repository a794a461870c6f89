import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, model, mutation, query, ref } from 'ergraph';
import { createUseCaseRouter, snakeCase, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';
import { ReportService, reportCalls, resetTasks, TaskService } from './services.js';

const errors: unknown[] = [];
const app = createUseCaseRouter(
  new UseCaseAppConfig({
    name: 'Tasks API',
    services: [TaskService, ReportService],
    contextExtractor: (request) => {
      const user = request.headers.get('x-user-id');
      return user ? { userId: Number(user), lang: 'en' } : { lang: 'en' };
    },
    onError: (error) => errors.push(error),
  }),
);

async function post(path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

beforeEach(() => {
  resetTasks();
  errors.length = 0;
  reportCalls.length = 0;
});

describe('use-case routes', () => {
  it('snake-cases the service name before every capital and keeps the method name verbatim', () => {
    expect(snakeCase('TaskService')).toBe('task_service');
    expect(snakeCase('HTTPService')).toBe('h_t_t_p_service');
    expect(TaskService.getTagName()).toBe('TaskService');
  });

  it('calls the method with parsed args (defaults applied) and writes models out by their declared fields', async () => {
    const res = await post('/api/task_service/listTasks', {});
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { id: 1, title: 'compile', done: false, owner: { id: 1, name: 'Ada' } },
      { id: 2, title: 'ship', done: true, owner: null },
    ]);
    // the excluded field of the nested model never reaches the wire
    expect(JSON.stringify(res.json)).not.toContain('secret');
    expect((await post('/api/task_service/listTasks', { limit: 1 })).json).toHaveLength(1);
  });

  it('takes a missing body as no arguments', async () => {
    const res = await app.request('/api/report_service/summary', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ open: 1, done: 1 });
  });

  it('calls with this = the service class and the extracted context, and strips undeclared keys', async () => {
    const res = await post('/api/report_service/summary', {});
    expect(res.json).toEqual({ open: 1, done: 1 });
    expect(reportCalls).toEqual([{ self: ReportService, context: { lang: 'en' } }]);
  });

  it('answers 400 with the zod issues when the body does not match the arguments', async () => {
    const res = await post('/api/task_service/listTasks', { limit: 'many' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('validation_error');
    expect(res.json.message).toContain('TaskService.listTasks');
    expect(res.json.issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['limit'] })]);

    const tooBig = await post('/api/task_service/listTasks', { limit: 1000 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.issues[0]).toMatchObject({ code: 'too_big', path: ['limit'] });

    const notObject = await post('/api/task_service/getTask', [1]);
    expect(notObject.status).toBe(400);
    expect(notObject.json.error).toBe('validation_error');
  });

  it('answers 400 on malformed JSON', async () => {
    const res = await post('/api/task_service/getTask', '{"taskId": ');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_json');
  });

  it('answers 200 with null when the service returns nothing (no 404 on generated routes)', async () => {
    const res = await post('/api/task_service/getTask', { taskId: 404 });
    expect(res.status).toBe(200);
    expect(res.json).toBeNull();
    expect((await post('/api/task_service/getTask', { taskId: 2 })).json).toMatchObject({ id: 2, title: 'ship' });
  });

  it('takes FromContext arguments from the context, never from the body', async () => {
    const created = await post('/api/task_service/createTask', { title: 'review', userId: 99 }, { 'x-user-id': '1' });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ id: 3, title: 'review', done: false, owner: { id: 1, name: 'Ada' } });

    const anonymous = await post('/api/task_service/createTask', { title: 'review', userId: 1 });
    expect(anonymous.status).toBe(400);
    expect(anonymous.json.error).toBe('context_error');
    expect(anonymous.json.message).toBe('TaskService.createTask needs userId from the request context');
  });

  it('answers 500 naming the method when the result does not match the declared return type', async () => {
    const res = await post('/api/report_service/broken', {});
    expect(res.status).toBe(500);
    expect(res.json.error).toBe('response_validation_error');
    expect(res.json.message).toBe('ReportService.broken returned a value that does not match its declared return type');
    expect(res.json.issues.map((i: { path: unknown[] }) => i.path)).toEqual([['id'], ['title'], ['owner']]);
    expect(JSON.stringify(res.json)).not.toContain('not a number');
  });

  it('answers 500 without the exception text when a method throws, and reports the error', async () => {
    const res = await post('/api/report_service/crash', {});
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: 'internal_error', message: `ReportService.crash failed (error id ${res.json.error_id})`, error_id: expect.any(String) });
    expect(JSON.stringify(res.json)).not.toContain('hunter2');
    expect(errors).toHaveLength(1);
  });

  it('uses the status of an HttpError', async () => {
    const res = await post('/api/report_service/refuse', { code: 403 });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: 'forbidden', message: 'refused with 403', code: 403 });
    expect((await post('/api/report_service/refuse', { code: 1 })).status).toBe(409);
  });

  it('serves only POST on generated routes: another method is a 405 naming POST', async () => {
    const res = await app.request('/api/task_service/listTasks');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await app.request('/api/task_service/nope')).status).toBe(404);
  });

  it('works mounted under a prefix', async () => {
    const { Hono } = await import('hono');
    const outer = new Hono().route('/v1', app);
    const res = await outer.request('/v1/api/task_service/getTask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"taskId":1}' });
    expect(await res.json()).toMatchObject({ id: 1 });
    // the docs page links its assets relatively, so they resolve under the prefix too
    expect(await (await outer.request('/v1/docs')).text()).toContain('href="docs/swagger-ui.css"');
    expect((await outer.request('/v1/docs/swagger-ui.css')).status).toBe(200);
    expect((await outer.request('/v1/openapi.json')).status).toBe(200);
  });
});

describe('model arguments', () => {
  it('hands the method model instances built from the JSON body', async () => {
    class Draft extends model({ title: z.string(), tags: z.array(z.string()).default([]) }) {}
    const seen: unknown[] = [];
    class DraftService extends UseCaseService {
      @mutation({ args: { draft: ref(() => Draft), more: z.array(ref(() => Draft)).optional() }, returns: z.int() })
      static async save({ draft, more }: { draft: Draft; more?: Draft[] }) {
        seen.push(draft, ...(more ?? []));
        return 1 + (more?.length ?? 0);
      }
    }
    const drafts = createUseCaseRouter(new UseCaseAppConfig({ name: 'd', services: [DraftService] }));
    const res = await drafts.request('/api/draft_service/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ draft: { title: 'a' }, more: [{ title: 'b', tags: ['x'] }] }),
    });
    expect(await res.json()).toBe(2);
    expect(seen.every((d) => d instanceof Draft)).toBe(true);
    expect(seen.map((d) => ({ ...(d as object) }))).toEqual([{ title: 'a', tags: [] }, { title: 'b', tags: ['x'] }]);
    const bad = await drafts.request('/api/draft_service/save', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft: { title: 1 } }) });
    expect(bad.status).toBe(400);
  });
});

describe('configuration errors', () => {
  it('refuses a class that is not a UseCaseService', () => {
    class Plain {
      @query({ returns: z.string() })
      static async hello() {
        return 'hi';
      }
    }
    expect(() => createUseCaseRouter(new UseCaseAppConfig({ name: 'x', services: [Plain as never] }))).toThrow(
      /Plain in "x" does not extend UseCaseService/,
    );
  });

  it('refuses a service without operations', () => {
    class EmptyService extends UseCaseService {}
    expect(() => createUseCaseRouter(new UseCaseAppConfig({ name: 'x', services: [EmptyService] }))).toThrow(ConfigError);
  });

  it('refuses two model classes sharing a component name, at startup', () => {
    const make = () => class Clash extends model({ id: z.int() }) {};
    const [A, B] = [make(), make()];
    class ClashService extends UseCaseService {
      @query({ returns: () => A })
      static async a() {
        return new A({ id: 1 });
      }
      @query({ returns: () => B })
      static async b() {
        return new B({ id: 1 });
      }
    }
    expect(() => createUseCaseRouter(new UseCaseAppConfig({ name: 'x', services: [ClashService] }))).toThrow(
      /two different model classes are named Clash/,
    );
  });

  it('refuses two services mapping to the same path', () => {
    class Item extends model({ id: z.int() }) {}
    function make() {
      class ItemService extends UseCaseService {
        @query({ returns: () => [Item] })
        static async all() {
          return [];
        }
      }
      return ItemService;
    }
    expect(() => createUseCaseRouter(new UseCaseAppConfig({ name: 'x', services: [make(), make()] }))).toThrow(
      /ItemService.all and ItemService.all both map to POST \/api\/item_service\/all/,
    );
  });
});
