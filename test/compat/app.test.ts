import { readFileSync } from 'node:fs';
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { assetFile } from 'ergraph/http';
import { createV6Handler } from './helpers.js';

/** What @hono/node-server hands the app for a client on this machine: the report is served to it by default. */
const LOOPBACK = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };

const get = (app: ReturnType<typeof compatApp>, params: Record<string, string>, headers: Record<string, string> = {}, path = '/graphql') =>
  app.request(`${path}?${new URLSearchParams(params)}`, { headers: { accept: 'application/json', ...headers } });

const post = (app: ReturnType<typeof compatApp>, body: unknown, headers: Record<string, string> = {}, path = '/graphql') =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('compatApp', () => {
  const sunset = new Date('2027-06-30T00:00:00Z');
  const since = new Date('2026-11-01T00:00:00Z');

  it('serves v5 queries with Deprecation, Sunset and Link headers and names replacements', async () => {
    const app = compatApp(createCompatHandler(createV6Handler()), { sunset, deprecatedSince: since, link: 'https://example.com/v6' });
    const res = await post(app, { query: 'query ($id: Int!) { u: userById(id: $id) { name } userListItems2Fa }', variables: { id: 1 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe(`@${since.getTime() / 1000}`);
    expect(res.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(res.headers.get('link')).toBe('<https://example.com/v6>; rel="deprecation"');
    expect(await res.json()).toEqual({
      data: { u: { name: 'Ada' }, userListItems2Fa: ['totp', 'sms'] },
      errors: null,
      extensions: {
        deprecations: [
          { field: 'Query.userById', replacement: 'User.byId', entity: 'User', method: 'byId', usage: '{ User { byId } }' },
          { field: 'Query.userListItems2Fa', replacement: 'User.list_items_2fa', entity: 'User', method: 'list_items_2fa', usage: '{ User { list_items_2fa } }' },
        ],
      },
    });
  });

  it('sends Deprecation without Sunset when none is configured, and no extensions for introspection', async () => {
    const app = compatApp(createCompatHandler(createV6Handler()), { path: '/v5/graphql' });
    const res = await post(app, { query: '{ __typename }' }, {}, '/v5/graphql');
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(res.headers.get('sunset')).toBeNull();
    expect(await res.json()).toEqual({ data: { __typename: 'Query' }, errors: null });
  });

  it('counts use per field and per client, readable at <path>/usage', async () => {
    const app = compatApp(createCompatHandler(createV6Handler()), { clientHeader: 'x-app' });
    await post(app, { query: '{ userById(id: 1) { id } }' }, { 'x-app': 'web' });
    await post(app, { query: '{ userById(id: 2) { id } taskById(id: 1) { id } }' }, { 'x-app': 'ios' });
    await post(app, { query: 'mutation { taskComplete(id: 1) { id } }' });
    const usage = await (await app.request('/graphql/usage', {}, LOOPBACK)).json();
    const field = (c: string) => usage.fields.find((f: { coordinate: string }) => f.coordinate === c);
    expect(field('Query.userById')).toMatchObject({ count: 2, replacement: 'User.byId' });
    expect(field('Mutation.taskComplete')).toMatchObject({ count: 1, clients: [{ client: 'unknown', count: 1 }] });
    expect(usage.clients.map((c: { client: string }) => c.client).sort()).toEqual(['ios', 'unknown', 'web']);
    expect(usage.verdict.status).toBe('in-use');
  });

  it('answers malformed JSON and a missing query with HTTP 400 and a GraphQL-shaped error', async () => {
    const app = compatApp(createCompatHandler(createV6Handler()));
    const malformed = await post(app, '{"query": ');
    expect(malformed.status).toBe(400);
    // The same texts as /graphql: both endpoints share one GraphQL-over-HTTP layer.
    expect((await malformed.json()).errors[0].message).toBe('The request body is not valid JSON');
    for (const body of [{}, { query: '' }, [1], { query: '{ __typename }', variables: [1] }, { query: '{ __typename }', operationName: 3 }]) {
      const res = await post(app, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const json = await res.json();
      expect(json.data).toBeNull();
      expect(json.errors).toHaveLength(1);
    }
  });

  it('passes a GraphQL error (an invalid v5 document) through with HTTP 200, as v5 did', async () => {
    const app = compatApp(createCompatHandler(createV6Handler()));
    const res = await post(app, { query: '{ User { getAll { id } } }' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: null,
      errors: [{ message: 'Cannot query field "User" on type "Query".', locations: [{ line: 1, column: 3 }] }],
    });
  });

  it('builds the request context for v6 methods', async () => {
    const v6 = createV6Handler();
    let seen: unknown;
    const app = compatApp(
      createCompatHandler({ schema: v6.schema, execute: (q, o) => ((seen = o?.context), v6.execute(q, o)) }),
      { context: (c) => ({ user: c.req.header('x-user') }) },
    );
    await post(app, { query: '{ userById(id: 1) { id } }' }, { 'x-user': 'ada' });
    expect(seen).toEqual({ user: 'ada' });
  });

  describe('GET', () => {
    const since = new Date('2026-11-01T00:00:00Z');

    it('serves GraphiQL to a browser, with its assets from the installed packages (offline)', async () => {
      const app = compatApp(createCompatHandler(createV6Handler()), { path: '/v5/graphql', deprecatedSince: since });
      const page = await app.request('/v5/graphql', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('deprecation')).toBe(`@${since.getTime() / 1000}`);
      const html = await page.text();
      expect(html).toContain('<title>ergraph v5 compat GraphiQL (deprecated)</title>');
      expect(html).toContain('new URL("/v5/graphql", window.location.href)');
      // The icon is inline (a data: URL); the rest is served by this app.
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
      expect(assets).toHaveLength(6);
      // nothing from the network: every script and style is served by this app
      for (const url of assets) {
        expect(url).toMatch(/^\/v5\/graphql\/assets\//);
        const res = await app.request(url);
        expect(res.status, url).toBe(200);
        const name = url.slice('/v5/graphql/assets/'.length);
        expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(assetFile(name)!)), name).toBe(true);
      }
      expect(await (await app.request('/v5/graphql/assets/evil.js')).text()).toBe('No GraphiQL asset named evil.js');
    });

    it('the page introspects the old flat schema: what GraphiQL shows is v5', async () => {
      const app = compatApp(createCompatHandler(createV6Handler()));
      // GraphiQL's fetcher POSTs the introspection query to the page's endpoint
      const json = await (await post(app, { query: getIntrospectionQuery() })).json();
      const query = json.data.__schema.types.find((t: { name: string }) => t.name === json.data.__schema.queryType.name);
      expect(query.fields.map((f: { name: string }) => f.name)).toContain('userGetAll');
      expect(query.fields.map((f: { name: string }) => f.name)).not.toContain('User');
    });

    it('graphiql: false serves no page and no assets', async () => {
      const app = compatApp(createCompatHandler(createV6Handler()), { graphiql: false });
      const page = await app.request('/graphql', { headers: { accept: 'text/html' } });
      // Accept: text/html alone and no page to give: nothing acceptable, as on /graphql.
      expect(page.status).toBe(406);
      const noQuery = await get(app, {});
      expect(noQuery.status).toBe(400);
      expect((await noQuery.json()).errors[0].message).toBe("The request needs a 'query' string");
      expect((await app.request('/graphql/assets/graphiql.min.js')).status).toBe(404);
    });

    it('runs ?query= queries with variables and operationName, counted and announced like POST', async () => {
      const app = compatApp(createCompatHandler(createV6Handler()), { deprecatedSince: since });
      const res = await get(
        app,
        { query: 'query A($id: Int!) { u: userById(id: $id) { name } } query B { __typename }', variables: '{"id":1}', operationName: 'A' },
        { 'x-client-name': 'curl' },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBe(`@${since.getTime() / 1000}`);
      expect(await res.json()).toEqual({
        data: { u: { name: 'Ada' } },
        errors: null,
        extensions: { deprecations: [{ field: 'Query.userById', replacement: 'User.byId', entity: 'User', method: 'byId', usage: '{ User { byId } }' }] },
      });
      // A browser's Accept with a query runs it (application/json via */*), as on /graphql.
      expect((await get(app, { query: '{ __typename }' }, { accept: 'text/html,*/*;q=0.8' })).status).toBe(200);
      const usage = await (await app.request('/graphql/usage', {}, LOOPBACK)).json();
      expect(usage.fields.find((f: { coordinate: string }) => f.coordinate === 'Query.userById').clients).toMatchObject([{ client: 'curl', count: 1 }]);
    });

    it('refuses mutations with 405 and Allow: POST, before anything runs', async () => {
      const v6 = createV6Handler();
      let calls = 0;
      const app = compatApp(createCompatHandler({ schema: v6.schema, execute: (q, o) => (calls++, v6.execute(q, o)) }));
      const requests: Record<string, string>[] = [
        { query: 'mutation { taskComplete(id: 1) { id } }' },
        { query: 'query Q { __typename } mutation M { taskComplete(id: 1) { id } }', operationName: 'M' },
      ];
      for (const params of requests) {
        const res = await get(app, params);
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(await res.json()).toEqual({ data: null, errors: [{ message: 'GET requests may only run queries, not mutations; use POST' }] });
      }
      expect(calls).toBe(0);
      expect((await (await app.request('/graphql/usage', {}, LOOPBACK)).json()).clients).toEqual([]);
    });

    it('a GET mutation is refused whatever its size: the check reads the same parse as execution', async () => {
      const v6 = createV6Handler();
      let calls = 0;
      const compat = createCompatHandler({ schema: v6.schema, execute: (q, o) => (calls++, v6.execute(q, o)) }, { limits: { tokens: 10_000 } });
      const padding = Array.from({ length: 800 }, (_, i) => `a${i}: __typename`).join(' ');
      const res = await get(compatApp(compat), { query: `mutation { taskComplete(id: 1) { id } ${padding} }` });
      expect(res.status).toBe(405);
      expect(calls).toBe(0);
    });

    it('bad parameters are 400s; GraphQL errors stay 200 as for POST', async () => {
      const app = compatApp(createCompatHandler(createV6Handler()));
      const noQuery = await get(app, {});
      expect(noQuery.status).toBe(400);
      const badJson = await get(app, { query: '{ __typename }', variables: '{' });
      expect(badJson.status).toBe(400);
      expect((await badJson.json()).errors[0].message).toBe("'variables' is not valid JSON");
      expect((await get(app, { query: '{ __typename }', variables: '[1]' })).status).toBe(400);
      const syntax = await get(app, { query: '{ userById(' });
      expect(syntax.status).toBe(200);
      expect((await syntax.json()).errors[0].message).toMatch(/^Syntax Error/);
      const unknownOp = await get(app, { query: 'query A { __typename }', operationName: 'B' });
      expect(await unknownOp.json()).toEqual({ data: null, errors: [{ message: 'Unknown operation named "B".' }] });
    });
  });
});
