import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { diagram } from '../graphql/domain.js';
import { requireChromium, withPage } from '../support/chromium.js';

describe.runIf(requireChromium())('GraphiQL in headless Chromium', () => {
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    const app = graphqlApp(new GraphQLHandler(diagram), { defaultQuery: '{ User { getAll(limit: 2) { id name } } }' });
    await new Promise<void>((ready) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => ready());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('renders offline, runs the default query and shows the result', async () => {
    await withPage(`${base}/graphql`, 'graphiql', async (page, problems) => {
      await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
      await page.click('.graphiql-execute-button');
      await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('user1'), null, {
        timeout: 15_000,
      });
      expect(await page.textContent('.result-window')).toContain('"getAll"');
      expect(problems).toEqual([]);
    });
  });
});
