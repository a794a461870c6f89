/**
 * GraphiQL pages of one server keep their saved editor state apart (issue 28.7): GraphiQL stores
 * tabs and queries in localStorage under fixed keys, one set per origin, so a newcomer who used v6
 * at /graphql opened v5 at /graphql/v5 on the v6 query, which v5 cannot run. Pages in one browser
 * profile, as a user's tabs share localStorage.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { diagram } from '../graphql/domain.js';
import { requireChromium, screenshot, withPages } from '../support/chromium.js';

const V5_QUERY = '# v5 start\n{ userGetAll(limit: 2) { id name } }\n';
const V6_TYPED = '{ User { getAll(limit: 1) { id } } } # typed on v6';

/** The query editor's text (GraphiQL 3 edits with CodeMirror 5, which hangs itself on its wrapper). */
const editorText = (page: Page) =>
  page.evaluate(() => (document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());

async function ready(page: Page) {
  await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 15_000 });
}

async function run(page: Page, expected: string) {
  await page.click('.graphiql-execute-button');
  await page.waitForFunction((text) => document.querySelector('.result-window')?.textContent?.includes(text), expected, { timeout: 15_000 });
}

describe.runIf(requireChromium())('GraphiQL saved state per endpoint, in headless Chromium', () => {
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    const handler = new GraphQLHandler(diagram);
    const app = new Hono();
    app.route('/', compatApp(createCompatHandler(handler), { path: '/graphql/v5', defaultQuery: V5_QUERY }));
    app.route('/', graphqlApp(handler, { path: '/graphql', name: 'tasks' }));
    app.route('/', graphqlApp(new GraphQLHandler(diagram), { path: '/other/graphql', name: 'other' }));
    await new Promise<void>((ready) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => ready());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('v5 opens on its own query after a v6 query ran, each app keeps its own, and each page says which schema it is on', async () => {
    await withPages(async (open, problems) => {
      const v6 = await open(`${base}/graphql`);
      await ready(v6);
      expect(await v6.textContent('.graphiql-logo')).toBe('ergraph · tasks · v6 grouped schema');
      await v6.evaluate((text) => {
        (document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as { CodeMirror: { setValue(t: string): void } }).CodeMirror.setValue(text);
      }, V6_TYPED);
      await run(v6, '"getAll"');
      // GraphiQL has saved the typed query (the signal that a later page could read it).
      await v6.waitForFunction((text) => Object.keys(localStorage).some((key) => localStorage.getItem(key)?.includes(text)), 'typed on v6', {
        timeout: 15_000,
      });

      const v5 = await open(`${base}/graphql/v5`);
      await ready(v5);
      expect(await v5.textContent('.graphiql-logo')).toBe('ergraph · v5 compat schema (deprecated)');
      expect(await editorText(v5)).toBe(V5_QUERY);
      await run(v5, '"userGetAll"');
      expect(await v5.textContent('.result-window')).not.toContain('Cannot query field');
      await screenshot(v5, 'graphiql-v5-own-state');

      // Another app of the same origin starts from GraphiQL's own welcome text, not from `tasks`' query.
      const other = await open(`${base}/other/graphql`);
      await ready(other);
      expect(await other.textContent('.graphiql-logo')).toBe('ergraph · other · v6 grouped schema');
      expect(await editorText(other)).not.toContain('typed on v6');

      // And v6, opened again, still has what was typed there.
      const again = await open(`${base}/graphql`);
      await ready(again);
      expect(await editorText(again)).toBe(V6_TYPED);
      expect(problems).toEqual([]);
    });
  }, 180_000); // four GraphiQL pages in one run, on a machine with a load of 5-20
});
