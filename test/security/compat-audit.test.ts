/**
 * Issue 13: graphql-http's audit passed every MUST on /graphql (with nullErrors: false) but
 * /graphql/v5 failed 7 MUSTs and 12 SHOULDs: no application/graphql-response+json and 200 on
 * parse and validation errors. Both endpoints now share one GraphQL-over-HTTP layer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import type { Hono } from 'hono';
import { graphqlApp } from 'ergraph/http';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { buildGraph } from '../../examples/demo/graph.js';
import { startDemo, type DemoUnderAttack } from './demo.js';

let demo: DemoUnderAttack;
beforeAll(async () => {
  demo = await startDemo();
}, 60_000);
afterAll(() => demo?.close());

async function audit(app: Hono, path: string) {
  const audits = serverAudits({
    url: `http://demo.test${path}`,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => app.request(input instanceof Request ? input : String(input), init),
  });
  const results = await Promise.all(audits.map(async (a) => ({ name: a.name, status: (await a.fn()).status })));
  return { total: results.length, notOk: results.filter((r) => r.status !== 'ok').map((r) => r.name) };
}

describe("graphql-http's audit on the demo's data", () => {
  it('every audit (MUST and SHOULD) passes on /graphql/v5 and /graphql with nullErrors: false', async () => {
    const { handler } = buildGraph(demo.database.db);
    for (const [app, path] of [
      [compatApp(createCompatHandler(handler), { path: '/graphql/v5', nullErrors: false }), '/graphql/v5'],
      [graphqlApp(handler, { nullErrors: false }), '/graphql'],
    ] as const) {
      const { total, notOk } = await audit(app, path);
      expect(total).toBeGreaterThan(50);
      expect(notOk, path).toEqual([]);
    }
  });

  it("the demo's own /graphql/v5 (defaults) speaks application/graphql-response+json: 400 for request errors", async () => {
    for (const query of ['{ userGetAll(', '{ nope }']) {
      const res = await demo.app.request('/graphql/v5', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query }),
      });
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
      const body = await res.json();
      expect(body).not.toHaveProperty('data');
      expect(body.errors).toHaveLength(1);
    }
  });

  it('and keeps errors: null for application/json, as /graphql does (spec 4.1)', async () => {
    for (const [path, query] of [['/graphql/v5', '{ __typename }'], ['/graphql', '{ __typename }']]) {
      const res = await demo.app.request(path!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      expect(await res.json(), path).toEqual({ data: { __typename: 'Query' }, errors: null });
    }
  });
});
