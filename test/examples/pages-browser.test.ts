/**
 * Every page a newcomer opens — the demo's (index, GraphiQL v6 and v5, the ER diagram, the API
 * docs, the retirement report) and `ergraph serve`'s (its index, GraphiQL) — in headless Chromium:
 * each declares its icon, so the browser asks the server for no /favicon.ico, and no request the
 * pages make is answered with an error. Chromium's own favicon request is not a page request the
 * test can wait for, so the icon is checked where it is decided: in the page's head.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServeApp } from '../../cli/serve.js';
import { createApp } from '../../examples/demo/app.js';
import { openDatabase, type DemoDatabase } from '../../examples/demo/database.js';
import { buildGraph } from '../../examples/demo/graph.js';
import { ensureSeeded } from '../../examples/demo/seed.js';
import { demoServices } from '../../examples/demo/services.js';
import { requireChromium, withPages } from '../support/chromium.js';

/** The app on a free port, every answer's status and path written down. */
async function listen(app: Hono, answers: string[]): Promise<{ server: ServerType; base: string }> {
  // The bindings go through: they carry the client's address, which the usage report checks.
  const fetch = async (request: Request, env: unknown) => {
    const response = await app.fetch(request, env);
    answers.push(`${response.status} ${new URL(request.url).pathname}`);
    return response;
  };
  let server!: ServerType;
  await new Promise<void>((ready) => {
    server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => ready());
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.runIf(requireChromium())('every first-hour page in headless Chromium', () => {
  let database: DemoDatabase;
  const servers: ServerType[] = [];
  const answers: string[] = [];
  let demo: string;
  let served: string;
  beforeAll(async () => {
    database = await openDatabase();
    await ensureSeeded(database.db, { users: 6, projects: 6, tasks: 30, comments: 30, tags: 6 });
    const graph = buildGraph(database.db);
    const one = await listen(createApp(graph, database.db), answers);
    const two = await listen(buildServeApp([{ name: 'demo', handler: graph.handler }], { services: demoServices(database.db, graph) }).app, answers);
    servers.push(one.server, two.server);
    [demo, served] = [one.base, two.base];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
    await database?.close();
  });

  it('each page declares an icon that loads, and no request is answered with an error', async () => {
    const pages = [
      `${demo}/`,
      `${demo}/graphql`,
      `${demo}/graphql/v5`,
      `${demo}/er`,
      `${demo}/docs`,
      `${demo}/graphql/v5/usage`,
      `${served}/`,
      `${served}/graphql`,
      `${served}/er`,
    ];
    await withPages(async (open, problems) => {
      for (const url of pages) {
        const page = await open(url);
        const icons = await page.$$eval('link[rel~="icon"]', (links) => links.map((l) => (l as HTMLLinkElement).href));
        expect(icons, url).not.toEqual([]);
        for (const icon of icons.filter((href) => !href.startsWith('data:'))) expect((await fetch(icon)).status, icon).toBe(200);
        await page.close();
      }
      expect(problems).toEqual([]);
    });
    expect(answers.filter((a) => !/^[23]\d\d /.test(a))).toEqual([]);
    expect(answers).not.toContainEqual(expect.stringMatching(/ \/favicon\.ico$/));
  });

  it("ergraph serve's GraphiQL opens on a query of the served schema, which runs", async () => {
    await withPages(async (open, problems) => {
      const page = await open(`${served}/graphql`);
      await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
      expect(await page.textContent('.graphiql-query-editor')).toContain('getAll(limit: 3)');
      await page.click('.graphiql-execute-button');
      await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('"email"'), null, { timeout: 15_000 });
      expect(problems).toEqual([]);
    });
  });
});
