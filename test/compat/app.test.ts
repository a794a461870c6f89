import { describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

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
    const usage = await (await app.request('/graphql/usage')).json();
    expect(usage.requests).toBe(3);
    expect(usage.fields['Query.userById']).toMatchObject({ count: 2, clients: { web: 1, ios: 1 }, replacement: 'User.byId' });
    expect(usage.fields['Mutation.taskComplete']).toMatchObject({ count: 1, clients: { unknown: 1 } });
    expect(Object.keys(usage.clients).sort()).toEqual(['ios', 'unknown', 'web']);
  });

  it('answers malformed JSON and a missing query with HTTP 400 and a GraphQL-shaped error', async () => {
    const app = compatApp(createCompatHandler(createV6Handler()));
    const malformed = await post(app, '{"query": ');
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).errors[0].message).toMatch(/^malformed JSON body: /);
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
});
