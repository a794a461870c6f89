/**
 * openapi.json is a valid OpenAPI 3.1 document whose every $ref resolves (checked by
 * @seriousme/openapi-schema-validator against the official 3.1 schema), nested named schemas are
 * components, header-fed context arguments are declared, and the docs page's "Try it out" works
 * in headless Chromium (issue 11.6).
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model, query, ref } from 'ergraph';
import { createUseCaseRouter, FromContext, headerContext, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';
import { createApp } from '../../examples/demo/app.js';
import { openDatabase, type DemoDatabase } from '../../examples/demo/database.js';
import { buildGraph } from '../../examples/demo/graph.js';
import { ensureSeeded } from '../../examples/demo/seed.js';
import { app as exampleApp } from '../../examples/usecase/main.js';
import { requireChromium, withPage } from '../support/chromium.js';

type Doc = { paths: Record<string, { post: { parameters?: { name: string; in: string; required: boolean }[] } }>; components: { schemas: Record<string, unknown> } };

async function valid(app: Hono): Promise<Doc> {
  const doc = await (await app.request('/openapi.json')).json();
  const result = await new Validator().validate(doc);
  expect(result, JSON.stringify(result.errors)).toEqual({ valid: true });
  return doc as Doc;
}

const Status = z.enum(['todo', 'doing', 'done']).meta({ id: 'TaskStatus' });
class Label extends model({ text: z.string(), tone: z.enum(['warm', 'cold']).meta({ id: 'Tone' }) }) {}
class Item extends model({ id: z.int(), status: Status, labels: z.array(ref(() => Label)), parent: z.int().nullable() }) {}

class ItemService extends UseCaseService {
  @query({ args: { status: Status.optional(), tenant: FromContext(z.string()), userId: FromContext(z.int().optional()) }, returns: () => [Item] })
  static async listItems() {
    return [];
  }
}
const nested = createUseCaseRouter(
  new UseCaseAppConfig({
    name: 'items',
    services: [ItemService],
    contextExtractor: headerContext({ tenant: 'x-tenant', userId: { header: 'x-user-id', parse: Number } }),
  }),
);

describe('openapi.json', () => {
  let database: DemoDatabase;
  let demo: Hono;
  beforeAll(async () => {
    database = await openDatabase();
    await ensureSeeded(database.db, { users: 6, projects: 6, tasks: 30, comments: 30, tags: 6 });
    demo = createApp(buildGraph(database.db), database.db);
  });
  afterAll(() => database?.close());

  it('lifts enums and models named inside model fields into components, so every $ref resolves', async () => {
    const doc = await valid(nested);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Item', 'Label', 'TaskStatus', 'Tone']));
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('declares the headers a headerContext extractor reads, required as the argument is', async () => {
    const doc = await valid(nested);
    expect(doc.paths['/api/item_service/listItems']!.post.parameters).toEqual([
      expect.objectContaining({ name: 'x-tenant', in: 'header', required: true }),
      expect.objectContaining({ name: 'x-user-id', in: 'header', required: false }),
    ]);
    const answer = await nested.request('/api/item_service/listItems', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'acme', 'x-user-id': '7' },
      body: '{}',
    });
    expect(answer.status).toBe(200);
  });

  it('is valid for the demo and the use-case example, with their x-user-id header declared', async () => {
    for (const doc of [await valid(demo), await valid(exampleApp)]) {
      const withCaller = Object.values(doc.paths).filter((p) => p.post.parameters?.some((q) => q.name === 'x-user-id' && q.in === 'header'));
      expect(withCaller.length).toBeGreaterThan(0);
    }
  });
});

describe.runIf(requireChromium())('the demo docs page in headless Chromium', () => {
  let database: DemoDatabase;
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    database = await openDatabase();
    await ensureSeeded(database.db, { users: 6, projects: 6, tasks: 30, comments: 30, tags: 6 });
    const app = createApp(buildGraph(database.db), database.db);
    await new Promise<void>((ready) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => ready());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await database?.close();
  });

  it("fills a request's id, and the answer's, with 1 rather than the lowest safe integer", async () => {
    await withPage(`${base}/docs`, 'usecase-docs-examples', async (page, problems) => {
      const op = page.locator('#operations-TaskService-TaskService_getTask');
      await op.waitFor({ timeout: 15_000 });
      await op.locator('.opblock-summary').click();
      await op.locator('.try-out__btn').click();
      const body = op.locator('.body-param textarea');
      await body.waitFor({ timeout: 15_000 });
      expect(JSON.parse(await body.inputValue())).toEqual({ taskId: 1 });
      const answer = await op.locator('.responses-wrapper .example').first().textContent();
      expect(answer).toContain('"id": 1');
      expect(answer).not.toContain('9007199254740991');
      expect(problems).toEqual([]);
    });
  });

  it('"Try it out" on myTasks sends the x-user-id header and shows the 200 answer', async () => {
    await withPage(`${base}/docs`, 'usecase-docs-try-it-out', async (page, problems) => {
      const op = page.locator('#operations-TaskService-TaskService_myTasks');
      await op.waitFor({ timeout: 15_000 });
      expect(await page.locator('.swagger-ui .errors-wrapper').count()).toBe(0); // no "Resolver error"
      await op.locator('.opblock-summary').click();
      await op.locator('.try-out__btn').click();
      await op.locator('tr[data-param-name="x-user-id"] input').fill('2');
      await op.locator('.execute').click();
      const status = op.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor({ timeout: 15_000 });
      expect((await status.textContent())?.trim()).toBe('200');
      expect(await op.locator('.live-responses-table tr.response .response-col_description').first().textContent()).toContain('"assignee"');
      expect(problems).toEqual([]);
    });
  });
});
