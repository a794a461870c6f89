import { describe, expect, it } from 'vitest';
import { createUseCaseRouter, UseCaseAppConfig } from 'ergraph/usecase';
import { ReportService, TaskService } from './services.js';

const app = createUseCaseRouter(new UseCaseAppConfig({ name: 'Tasks API', version: '2.1.0', services: [TaskService, ReportService] }));

async function document(): Promise<any> {
  const res = await app.request('/openapi.json');
  expect(res.status).toBe(200);
  return res.json();
}

/** Every `$ref` in the document, so tests can check they all resolve. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with one tagged POST operation per method', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: 'Tasks API', version: '2.1.0' });
    expect(doc.tags).toEqual([{ name: 'TaskService' }, { name: 'ReportService' }]);
    expect(Object.keys(doc.paths)).toEqual([
      '/api/task_service/listTasks',
      '/api/task_service/getTask',
      '/api/task_service/createTask',
      '/api/task_service/renameTask',
      '/api/task_service/deleteTask',
      '/api/report_service/summary',
      '/api/report_service/broken',
      '/api/report_service/crash',
      '/api/report_service/refuse',
    ]);
    const list = doc.paths['/api/task_service/listTasks'].post;
    expect(list.tags).toEqual(['TaskService']);
    expect(list.operationId).toBe('TaskService_listTasks');
    expect(list.description).toBe('Tasks, oldest first');
    const ids = Object.values(doc.paths).map((p: any) => p.post.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes request bodies from the zod argument shapes', async () => {
    const doc = await document();
    const body = doc.paths['/api/task_service/listTasks'].post.requestBody.content['application/json'].schema;
    expect(body.type).toBe('object');
    expect(body.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    // a defaulted argument is optional in the request
    expect(body.required ?? []).not.toContain('limit');
  });

  it('hides FromContext arguments from the request schema', async () => {
    const doc = await document();
    const body = doc.paths['/api/task_service/createTask'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['title']);
    expect(body.required).toEqual(['title']);
  });

  it('describes responses with model classes as components, in their serialized form', async () => {
    const doc = await document();
    const ok = (path: string) => doc.paths[path].post.responses['200'].content['application/json'].schema;
    // null is always a possible answer of a generated route, and the document says so
    expect(ok('/api/task_service/listTasks')).toEqual({
      anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/Task' } }, { type: 'null' }],
    });
    expect(ok('/api/task_service/getTask')).toEqual({ anyOf: [{ $ref: '#/components/schemas/Task' }, { type: 'null' }] });
    expect(ok('/api/report_service/summary').anyOf[0]).toMatchObject({
      type: 'object',
      properties: { open: { type: 'integer' }, done: { type: 'integer' } },
    });
    const { Task, Owner } = doc.components.schemas;
    expect(Task).toMatchObject({ type: 'object', required: ['id', 'title', 'done', 'owner'] });
    expect(Task.properties.owner).toEqual({ anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] });
    // the excluded field is not part of the serialized schema
    expect(Object.keys(Owner.properties)).toEqual(['id', 'name']);
  });

  it('documents the error responses, and every $ref resolves', async () => {
    const doc = await document();
    const responses = doc.paths['/api/task_service/getTask'].post.responses;
    expect(Object.keys(responses)).toEqual(['200', '400', '500']);
    for (const ref of refs(doc)) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });
});

describe('GET /docs', () => {
  it('serves a Swagger UI page whose assets all come from the app itself', async () => {
    const res = await app.request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<title>Tasks API — API docs</title>');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['docs/swagger-ui.css', 'docs/swagger-ui-bundle.js', 'docs/init.js']));
    for (const asset of assets) {
      const served = await app.request(`/${asset}`);
      expect(served.status, asset).toBe(200);
      expect((await served.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    const init = await (await app.request('/docs/init.js')).text();
    expect(init).toContain("new URL('openapi.json', document.baseURI)");
  });

  it('serves only the known asset files', async () => {
    expect((await app.request('/docs/package.json')).status).toBe(404);
    expect((await app.request('/docs/..%2Fpackage.json')).status).toBe(404);
  });
});
