import { describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { diagram } from '../graphql/domain.js';

const handler = new GraphQLHandler(diagram);
const app = graphqlApp(handler, { context: (c) => ({ user: c.req.header('x-user') ?? 'nobody' }) });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  app.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('POST /graphql', () => {
  it('executes { query, variables, operationName } and answers 200 with { data, errors }', async () => {
    const res = await post({ query: 'query W($r: Role) { User { whoami(role: $r) } }', variables: { r: 'MEMBER' }, operationName: 'W' }, { 'x-user': 'ada' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ data: { User: { whoami: 'User:ada:MEMBER' } }, errors: null });
  });

  it('answers execution and validation errors with 200 for application/json', async () => {
    const res = await post({ query: '{ User }' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toBeNull();
    expect(body.errors[0].extensions.code).toBe('BARE_GROUP_FIELD');
  });

  it('rejects malformed requests with 400 and { data: null, errors: [{ message }] }', async () => {
    for (const [body, message] of [
      ['{ not json', 'The request body is not valid JSON'],
      [{}, "The request needs a 'query' string"],
      [{ query: 42 }, "The request needs a 'query' string"],
      [{ query: '{ __typename }', variables: [1] }, "'variables' must be an object or null"],
      [{ query: '{ __typename }', variables: 'x' }, "'variables' must be an object or null"],
      // A persisted document id alone: the v6 endpoint knows no ids (compat does), so it needs a query.
      [{ doc_id: 'abc123' }, "The request needs a 'query' string"],
      [{ documentId: 42 }, "'documentId' must be a non-empty string"],
      [{ query: '{ __typename }', doc_id: '' }, "'doc_id' must be a non-empty string"],
    ] as const) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ data: null, errors: [{ message }] });
    }
  });

  it('speaks application/graphql-response+json when accepted (400 when nothing executed)', async () => {
    const ok = await post({ query: '{ User { byId(id: 2) { name } } }' }, { accept: 'application/graphql-response+json' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(await ok.json()).toEqual({ data: { User: { byId: { name: 'user2' } } } }); // no errors entry
    const bad = await post({ query: '{ User { nope } }' }, { accept: 'application/graphql-response+json' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].extensions.code).toBe('UNKNOWN_QUERY');
  });
});

describe('GET /graphql', () => {
  it('runs queries from the query string', async () => {
    const res = await app.request(`/graphql?query=${encodeURIComponent('query($id: Int!) { User { byId(id: $id) { id } } }')}&variables=${encodeURIComponent('{"id":5}')}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { User: { byId: { id: 5 } } }, errors: null });
  });

  it('refuses mutations with 405', async () => {
    const res = await app.request(`/graphql?query=${encodeURIComponent('mutation { Task { create(title: "x", ownerId: 1) { id } } }')}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('serves the GraphiQL page and its assets from the installed packages', async () => {
    const page = await app.request('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('GraphiQLPluginExplorer.explorerPlugin()');
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3)/); // nothing from a CDN
    // The icon is inline (a data: URL); the rest is served by this app.
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
    expect(assets).toEqual([
      '/graphql/assets/graphiql.min.css',
      '/graphql/assets/plugin-explorer.css',
      '/graphql/assets/react.production.min.js',
      '/graphql/assets/react-dom.production.min.js',
      '/graphql/assets/graphiql.min.js',
      '/graphql/assets/plugin-explorer.umd.js',
    ]);
    for (const asset of assets) {
      const res = await app.request(asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
    expect((await app.request('/graphql/assets/graphiql.min.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await app.request('/graphql/assets/nope.js')).status).toBe(404);
  });

  it('honours a custom path', async () => {
    const custom = graphqlApp(handler, { path: '/api/gql' });
    const res = await custom.request('/api/gql', { headers: { accept: 'text/html' } });
    expect(await res.text()).toContain('/api/gql/assets/graphiql.min.js');
    expect((await custom.request('/api/gql/assets/graphiql.min.css')).status).toBe(200);
  });
});

describe('GraphQL-over-HTTP audit (graphql-http)', () => {
  const audit = async (target: ReturnType<typeof graphqlApp>, path = '/graphql') => {
    const audits = serverAudits({
      url: `http://ergraph.test${path}`,
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => target.request(input instanceof Request ? input : String(input), init),
    });
    const results = await Promise.all(audits.map(async (a) => ({ name: a.name, result: await a.fn() })));
    return {
      total: results.length,
      failedMust: results.filter(({ name, result }) => name.startsWith('MUST') && result.status !== 'ok').map(({ name }) => name),
      notOk: results.filter(({ result }) => result.status !== 'ok').map(({ name }) => name),
    };
  };

  it('passes every MUST audit with nullErrors: false', async () => {
    const { total, failedMust, notOk } = await audit(graphqlApp(handler, { nullErrors: false }));
    expect(failedMust).toEqual([]);
    console.log(`graphql-http audit: ${total - notOk.length}/${total} ok; not ok:\n  ${notOk.join('\n  ') || 'none'}`);
  });

  it('the v5 compat endpoint passes every MUST audit with nullErrors: false too (one shared layer)', async () => {
    const compat = compatApp(createCompatHandler(handler), { path: '/graphql/v5', nullErrors: false });
    const { total, failedMust, notOk } = await audit(compat, '/graphql/v5');
    expect(failedMust).toEqual([]);
    console.log(`graphql-http audit of /graphql/v5: ${total - notOk.length}/${total} ok; not ok:\n  ${notOk.join('\n  ') || 'none'}`);
  });

  it('with the default (errors: null, spec 4.1) only the "no errors entry" audits for application/json fail', async () => {
    const { failedMust } = await audit(app);
    expect(failedMust.length).toBeGreaterThan(0);
    for (const name of failedMust) expect(name).toMatch(/^MUST allow .* parameter when accepting application\/json$/);
  });
});
