/**
 * Every bound and behaviour the docs promise by default, each shown on a thing built with NO
 * options (the tests of the mechanisms pass explicit ones, so a default switched off stayed
 * green there). Where a default lives in a constant, the test also reads the constant, so that
 * setting it to Infinity or undefined turns the test red, not only a changed number.
 *
 * docs/graphql.md "Bounded by default": limits depth 15, aliases 30, tokens 2000, directives 50,
 * cost 50,000 (listSize 5), complexity 20,000; timeout 10 s, resultValues 1,000,000; bodies over
 * 1 MB get 413 on every surface; errors that are not GraphQLErrors reach clients masked;
 * documentCacheBytes 32 MiB. docs/graphql.md: page size 20, capped at maxPageSize 100.
 * docs/retiring-v5.md: the APQ store is bounded by count and size (1000 entries, 4 MiB).
 * docs/federation.md: a member's circuit breaker opens after 3 failed calls.
 * docs/mcp.md: graphql_mutation (and mutation operations) only with `mutations: true`.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Hono } from 'hono';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DEFAULT_LIMITS, Entity, ErDiagram, GraphQLHandler, model, QueryConfig, ref, Relationship } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { compatApp, createCompatHandler, DEFAULT_PERSISTED_BYTES, DEFAULT_PERSISTED_ENTRIES } from 'ergraph/compat';
import { createMcpServer, mcpApp } from 'ergraph/mcp';
import { createUseCaseRouter, UseCaseAppConfig } from 'ergraph/usecase';
import { buildFederableApp } from 'ergraph/federation';
import { DEFAULT_DOCUMENT_CACHE_BYTES, type DocumentCache } from '../../src/graphql/document-cache.js';
import { persistedQueries, sha256Hex } from '../../compat/persisted.js';
import { call, newClient } from '../mcp/client.js';
import { productsHandler, reviewsService, start, type Running } from '../federation/services.js';
import { TaskService } from '../usecase/services.js';
import { diagram } from '../graphql/domain.js';

const codes = (r: { errors: { extensions?: Record<string, unknown> }[] | null }) => (r.errors ?? []).map((e) => e.extensions?.code);

describe('operation limits, with no options', () => {
  const handler = new GraphQLHandler(diagram);

  it('are the documented numbers', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ depth: 15, aliases: 30, tokens: 2000, directives: 50, cost: 50_000, complexity: 20_000, listSize: 5, timeout: 10_000, resultValues: 1_000_000 });
  });

  it('refuse a document past each of them, and run one at the bound', async () => {
    // depth: User(1) byId(2) tasks(3) owner(4) ... alternating, then a leaf
    const deep = (n: number) => `{ User { byId(id: 1) { ${'tasks { owner { '.repeat((n - 3) / 2)}id${' } }'.repeat((n - 3) / 2)} } } }`;
    expect((await handler.execute(deep(15))).errors).toBeNull();
    expect(codes(await handler.execute(deep(17)))).toEqual(['DEPTH_LIMIT_EXCEEDED']);
    const aliased = (n: number) => `{ User { ${Array.from({ length: n }, (_, i) => `a${i}: byId(id: 1) { id }`).join(' ')} } }`;
    expect((await handler.execute(aliased(30))).errors).toBeNull();
    expect(codes(await handler.execute(aliased(31)))).toEqual(['ALIAS_LIMIT_EXCEEDED']);
    const directed = (n: number) => `{ User { byId(id: 1) { ${Array.from({ length: n }, () => 'id @include(if: true)').join(' ')} } } }`;
    expect((await handler.execute(directed(50))).errors).toBeNull();
    expect(codes(await handler.execute(directed(51)))).toEqual(['DIRECTIVE_LIMIT_EXCEEDED']);
    const tokens = `{ User { byId(id: 1) { ${'id '.repeat(2000)} } } }`;
    expect(codes(await handler.execute(tokens))).toEqual(['TOKEN_LIMIT_EXCEEDED']);
  });

  it('refuse an operation whose estimated cost passes 50,000 (lists count listSize 5)', async () => {
    // getAll(limit: 20) x tasks (5) x reviews... each unpaginated list counts 5
    const nested = (n: number) => `{ User { getAll(limit: 20) { ${'tasks { owner { '.repeat(n)}id${' } }'.repeat(n)} } } }`;
    expect((await handler.prepare(nested(1)))).toHaveProperty('document');
    expect(codes(await handler.execute(nested(6)))).toContain('COST_LIMIT_EXCEEDED');
  });
});

describe('the execution budget, with no options', () => {
  it('stops an operation after 10 s', async () => {
    // The deadline timer and the clock it reads, fake: 10 s pass when the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      class Slow extends model({ id: z.int() }) {}
      let entered = false;
      const hung = new ErDiagram({
        entities: [new Entity({ kls: Slow, queries: [new QueryConfig({ name: 'never', returns: z.int(), method: () => ((entered = true), new Promise<number>(() => {})) })] })],
      });
      const answer: { value?: Awaited<ReturnType<GraphQLHandler['execute']>> } = {};
      void new GraphQLHandler(hung).execute('{ Slow { never } }').then((value) => (answer.value = value));
      const turns = async () => {
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      while (!entered) await turns();
      vi.advanceTimersByTime(9_999);
      await turns();
      expect(answer.value).toBeUndefined();
      vi.advanceTimersByTime(1);
      await turns();
      expect(answer.value?.errors).toMatchObject([{ extensions: { code: 'OPERATION_TIMEOUT', limit: 10_000 } }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a result past 1,000,000 values', async () => {
    class Many extends model({ id: z.int() }) {}
    const big = new ErDiagram({
      entities: [new Entity({ kls: Many, queries: [new QueryConfig({ name: 'all', returns: z.array(z.int()), method: () => Array.from({ length: 1_000_001 }, (_, i) => i) })] })],
    });
    const result = await new GraphQLHandler(big).execute('{ Many { all } }');
    expect(result.data).toBeNull();
    expect(codes(result)).toEqual(['RESULT_TOO_LARGE']);
  });
});

describe('error masking, with no options', () => {
  it('keeps the text of an unexpected error from the client and gives the log the whole error', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const result = await new GraphQLHandler(diagram).execute('{ User { broken { id } } }');
      expect(result.errors).toMatchObject([{ message: expect.stringMatching(/^Internal server error \(error id [0-9a-f]{8}\)$/), extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
      expect(JSON.stringify(result)).not.toContain('database is down');
      expect(String(log.mock.calls[0]?.[1])).toContain('database is down');
    } finally {
      log.mockRestore();
    }
  });
});

describe('page sizes, with no options on the relationship', () => {
  it('are 20 by default and at most 100', async () => {
    class Parent extends model({ id: z.int() }) {}
    class Child extends model({ id: z.int(), parentId: z.int() }) {}
    const children = Array.from({ length: 150 }, (_, i) => new Child({ id: i, parentId: 1 }));
    const paged = new ErDiagram({
      entities: [
        new Entity({
          kls: Parent,
          relationships: [new Relationship({ fk: 'id', target: () => [Child], name: 'children', loader: async (keys: readonly number[]) => keys.map(() => children) })],
          queries: [new QueryConfig({ name: 'one', returns: ref(() => Parent), method: () => new Parent({ id: 1 }) })],
        }),
        new Entity({ kls: Child }),
      ],
    });
    const handler = new GraphQLHandler(paged, { enablePagination: true });
    const result = await handler.execute('{ Parent { one { d: children { items { id } } m: children(limit: 1000) { items { id } } } } }');
    const one = (result.data as { Parent: { one: { d: { items: unknown[] }; m: { items: unknown[] } } } }).Parent.one;
    expect([one.d.items.length, one.m.items.length]).toEqual([20, 100]);
  });
});

describe('the document cache, with no options', () => {
  it('holds at most 32 MiB of estimated documents', async () => {
    const handler = new GraphQLHandler(diagram);
    // Private on purpose (nothing outside needs it); the estimate is what the bound is about.
    const cache = (handler as unknown as { documents: DocumentCache<unknown> }).documents;
    expect(cache.maxBytes).toBe(DEFAULT_DOCUMENT_CACHE_BYTES);
    expect(DEFAULT_DOCUMENT_CACHE_BYTES).toBe(32 * 1024 * 1024);
    for (let i = 0; i < 40; i++) await handler.execute(`# ${'x'.repeat(20_000)}\n{ User { byId(id: ${i}) { id } } }`);
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThan(40); // 40 x 20 kB is ~50 MiB of estimate
    expect(cache.held).toBeLessThanOrEqual(32 * 1024 * 1024);
  });
});

describe('the APQ store, with no options', () => {
  it('keeps at most 1000 documents, least recently used out first', () => {
    const store = createCompatHandler(new GraphQLHandler(diagram)).persisted;
    const doc = (i: number) => `{ userById(id: ${i}) { id } }`;
    for (let i = 0; i <= 1000; i++) store.register(sha256Hex(doc(i)), doc(i));
    expect(DEFAULT_PERSISTED_ENTRIES).toBe(1000);
    expect(store.size).toBe(1000);
    const ask = (i: number) => store.resolve(undefined, { persistedQuery: { version: 1, sha256Hash: sha256Hex(doc(i)) } });
    expect(ask(0)).toMatchObject({ kind: 'error', code: 'PERSISTED_QUERY_NOT_FOUND' });
    expect(ask(1000)).toMatchObject({ kind: 'found' });
  });

  it('keeps at most 4 MiB of documents', () => {
    const store = persistedQueries();
    const doc = (i: number) => `# ${String(i).repeat(1_000_000)}\n{ __typename }`;
    for (let i = 1; i <= 6; i++) store.register(sha256Hex(doc(i)), doc(i));
    expect(DEFAULT_PERSISTED_BYTES).toBe(4 * 1024 * 1024);
    expect(store.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(store.size).toBeLessThan(6);
  });
});

describe('request bodies, with no options', () => {
  const body = JSON.stringify({ query: `# ${'x'.repeat(1024 * 1024)}\n{ __typename }` });
  const post = (app: Hono, path: string) => app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('over 1 MB get 413 on every surface', async () => {
    const handler = new GraphQLHandler(diagram);
    const surfaces: [string, Hono, string][] = [
      ['graphqlApp', graphqlApp(handler), '/graphql'],
      ['compatApp', compatApp(createCompatHandler(handler)), '/graphql'],
      ['mcpApp', mcpApp(() => createMcpServer({ apps: [{ name: 'app', handler }] })), '/mcp'],
      ['createUseCaseRouter', createUseCaseRouter(new UseCaseAppConfig({ name: 'tasks', services: [TaskService] })), '/api/task_service/listTasks'],
      ['buildFederableApp', buildFederableApp(new GraphQLHandler(diagram, { serviceName: 'users' })), '/graphql'],
    ];
    const statuses = await Promise.all(surfaces.map(async ([name, app, path]) => [name, (await post(app, path)).status]));
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(surfaces.map(([name]) => [name, 413])));
  });
});

describe('MCP, with no options', () => {
  it('offers no mutation tool, and no mutation operation', async () => {
    const server = createMcpServer({ apps: [{ name: 'app', handler: new GraphQLHandler(diagram) }] });
    const client = newClient();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('graphql_query');
      expect(tools).not.toContain('graphql_mutation');
      const refused = await call(client, 'graphql_query', { app_name: 'app', query: 'mutation { Task { create(title: "x", ownerId: 1) { id } } }' });
      expect(refused.success).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('a federation member, with no breaker options', () => {
  let reviews: Awaited<ReturnType<typeof reviewsService>> | undefined;
  let gate: Running | undefined;
  afterAll(async () => {
    await gate?.close();
    await reviews?.close();
  });

  it('is cut off after 3 consecutive failed calls', { timeout: 120_000 }, async () => {
    // The reviews member starts an embedded PostgreSQL: slow on a loaded machine.
    reviews = await reviewsService();
    let down = false;
    let calls = 0;
    const app = new Hono();
    app.use('/graphql', async (c, next) => {
      if (!down) return next();
      calls++;
      return c.text('down for maintenance', 503);
    });
    app.route('/', reviews.app);
    gate = await start(app);
    const products = productsHandler();
    await products.federate({ services: { reviews: gate.address } });
    const query = '{ Product { getAll(limit: 2) { id reviews { id } } } }';
    expect((await products.execute(query)).errors).toBeNull();
    down = true;
    const messages: string[] = [];
    for (let i = 0; i < 6; i++) messages.push((await products.execute(query)).errors![0]!.message);
    expect(calls).toBe(3);
    expect(messages.slice(3).every((m) => /kept failing/.test(m))).toBe(true);
  });
});
