/**
 * Issue 13, first attack: one small document whose nested lists multiply (comments → author →
 * comments, up to 100 items a level) froze the demo and exhausted its heap. Every GraphQL
 * surface now refuses such documents before anything runs: the v6 endpoint, the v5 compat
 * endpoint (flat documents) and MCP's graphql_query — with a code naming the limit.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEMO_QUERY } from '../../examples/demo/app.js';
import { heapGrowth, postGraphQL, startDemo, type DemoUnderAttack } from './demo.js';

let demo: DemoUnderAttack;
beforeAll(async () => {
  demo = await startDemo();
}, 60_000);
afterAll(() => demo?.close());

/** `levels` rounds of comments(limit: 100) → author, as the attacker sent it. */
function cyclic(levels: number, root = 'User { getAll(limit: 100) {', close = '} }') {
  let inner = 'body';
  for (let i = 0; i < levels; i++) inner = `comments(limit: 100) { items { author { ${inner} } } }`;
  return `{ ${root} ${inner.replace(/author \{ body \}/, 'body')} ${close} }`;
}

const codes = (errors: any[] | null) => (errors ?? []).map((e) => e.extensions?.code);

describe('nested lists multiplying: refused before execution, on every surface', () => {
  it('the three-level cyclic document (a few hundred bytes) is refused at once by its estimated cost', async () => {
    const query = cyclic(3);
    expect(query.length).toBeLessThan(300);
    const queries = vi.spyOn(PGlite.prototype, 'query');
    const { result, mb } = await heapGrowth(() => postGraphQL(demo.app, '/graphql', { query }));
    expect(queries).not.toHaveBeenCalled(); // refused before a row is read
    queries.mockRestore();
    expect(mb).toBeLessThan(50);
    expect(result.body.data).toBeNull();
    expect(codes(result.body.errors)).toEqual(['COST_LIMIT_EXCEEDED']);
    expect(result.body.errors![0].message).toMatch(/^Cost limit of 50000 exceeded, found about \d+/);
    expect(result.body.errors![0].extensions.found).toBeGreaterThan(1_000_000);
  });

  it('two levels too (13 s and +815 MB before): refused', async () => {
    const { body } = await postGraphQL(demo.app, '/graphql', { query: cyclic(2) });
    expect(codes(body.errors)).toEqual(['COST_LIMIT_EXCEEDED']);
  });

  it('the page size counts through variables, and is capped at maxPageSize', async () => {
    const query = 'query($n: Int) { User { getAll(limit: 100) { comments(limit: $n) { items { author { comments(limit: $n) { items { body } } } } } } } }';
    expect(codes((await postGraphQL(demo.app, '/graphql', { query, variables: { n: 100 } })).body.errors)).toEqual(['COST_LIMIT_EXCEEDED']);
    // 10^9 asked, 100 (maxPageSize) served: the estimate uses what would run
    const huge = await postGraphQL(demo.app, '/graphql', { query, variables: { n: 1_000_000_000 } });
    expect(huge.body.errors![0].extensions.found).toBeLessThan(2_000_000);
    const small = await postGraphQL(demo.app, '/graphql', { query, variables: { n: 2 } });
    expect(small.body.errors).toBeNull();
    expect(small.body.data.User.getAll.length).toBeGreaterThan(0);
  });

  it('the same document through the v5 compat endpoint (flat) is refused the same way', async () => {
    const { body } = await postGraphQL(demo.app, '/graphql/v5', { query: cyclic(3, 'userGetAll(limit: 100) {', '}') });
    expect(body.data).toBeNull();
    expect(codes(body.errors)).toEqual(['COST_LIMIT_EXCEEDED']);
  });

  it("and through MCP's graphql_query", async () => {
    const base = await demo.listen();
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
    try {
      const result = await client.callTool({ name: 'graphql_query', arguments: { app_name: 'demo', query: cyclic(3) } });
      const envelope = result.structuredContent as { success: boolean; error_type: string; errors: any[] };
      expect(envelope.success).toBe(false);
      expect(codes(envelope.errors)).toEqual(['COST_LIMIT_EXCEEDED']);
    } finally {
      await client.close();
    }
  });

  it('the server keeps answering: GET / and the demo query still run', async () => {
    expect((await demo.app.request('/')).status).toBe(200);
    const { body } = await postGraphQL(demo.app, '/graphql', { query: DEMO_QUERY });
    expect(body.errors).toBeNull();
    expect(body.data.User.getAll).toHaveLength(3);
  });
});

describe('depth, aliases, directives and tokens', () => {
  it('depth: a 20-level document is refused (DEPTH_LIMIT_EXCEEDED), depth 1000 by its tokens already', async () => {
    const rounds = (n: number) => {
      let inner = 'id';
      for (let i = 0; i < n; i++) inner = `owner { projects(limit: 1) { items { ${inner} } } }`;
      return `{ Project { getAll(limit: 1) { ${inner} } } }`;
    };
    const { body } = await postGraphQL(demo.app, '/graphql', { query: rounds(6) });
    expect(codes(body.errors)).toEqual(['DEPTH_LIMIT_EXCEEDED']);
    expect(body.errors![0].message).toBe('Query depth limit of 15 exceeded, found 21 (limits.depth)');
    expect((await postGraphQL(demo.app, '/graphql', { query: rounds(2) })).body.errors).toBeNull();

    const deeper = rounds(333);
    const refused = await postGraphQL(demo.app, '/graphql', { query: deeper });
    expect(codes(refused.body.errors)).toEqual(['TOKEN_LIMIT_EXCEEDED']);
  });

  it('aliases: 1000 aliases of getAll(limit: 100) never run; 40 are refused by the alias limit', async () => {
    const many = (n: number) => `{ User { ${Array.from({ length: n }, (_, i) => `a${i}: getAll(limit: 100) { id }`).join(' ')} } }`;
    const forty = await postGraphQL(demo.app, '/graphql', { query: many(40) });
    expect(codes(forty.body.errors)).toEqual(['ALIAS_LIMIT_EXCEEDED']);
    const thousand = await postGraphQL(demo.app, '/graphql', { query: many(1000) });
    expect(thousand.body.data).toBeNull();
    expect(codes(thousand.body.errors)).toEqual(['TOKEN_LIMIT_EXCEEDED']);
    const flat = await postGraphQL(demo.app, '/graphql/v5', { query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: userGetAll(limit: 1) { id }`).join(' ')} }` });
    expect(codes(flat.body.errors)).toEqual(['ALIAS_LIMIT_EXCEEDED']);
  });

  it('directives: 60 in one operation are refused', async () => {
    const { body } = await postGraphQL(demo.app, '/graphql', { query: `{ User { getAll(limit: 1) { ${'... @include(if: true) { id } '.repeat(60)} } } }` });
    expect(codes(body.errors)).toEqual(['DIRECTIVE_LIMIT_EXCEEDED']);
  });

  it('application/graphql-response+json clients get 400 for a refused operation, on both endpoints', async () => {
    for (const path of ['/graphql', '/graphql/v5']) {
      const query = path === '/graphql' ? cyclic(3) : cyclic(3, 'userGetAll(limit: 100) {', '}');
      const res = await demo.app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query }),
      });
      expect(res.status, path).toBe(400);
      expect(codes(((await res.json()) as { errors: any[] }).errors), path).toEqual(['COST_LIMIT_EXCEEDED']);
    }
  });
});
