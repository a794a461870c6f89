/**
 * Issue 27 item 1: nothing a client chooses per request grows the server past a bound. N (20,000;
 * 100,000 with KEYSPACE_N=100000; `@include` combinations 8,000) distinct values of each key — operation names, `@include` variable combinations, document texts,
 * persisted-query hashes — through `/graphql`, `/graphql/v5` and MCP's `graphql_query`, with the
 * default options, each stream on fresh servers; the heap is measured once its garbage is gone
 * (`settledHeap`) before and after each stream.
 * Unbounded, each of these grew the heap by hundreds of MB (a `GraphQLError` kept per name, a plan
 * per combination, documents charged below what they hold).
 */
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { createMcpServer } from 'ergraph/mcp';
import { DEFAULT_DOCUMENT_CACHE_BYTES } from '../../src/graphql/document-cache.js';
import { diagram } from '../graphql/domain.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
// 20,000 by default: enough for every stream to pass its bound with the bound removed, in minutes
// on a shared machine; KEYSPACE_N=100000 runs the full count for every stream.
const N = Number(process.env.KEYSPACE_N ?? 20_000);
// `@include` combinations cost the most per request (a plan compiled for each) and grow the most
// unbounded: 81-82 MB over 8,000 requests on each of the three paths with the plan cap and the
// charge removed (2026-11-28), twice `BOUND`. 20,000 of them took a third of this file's time.
const COMBINATIONS = Number(process.env.KEYSPACE_N ?? 8_000);

let app: Hono;
let mcp: Client;
// Fresh servers per stream: each stream's growth is its own, and one stream's evictions cannot
// hide another's growth (a document cache emptied of the last stream's entries shrinks the heap).
beforeEach(async () => {
  const handler = new GraphQLHandler(diagram);
  const compat = createCompatHandler(handler);
  app = new Hono();
  app.route('/', graphqlApp(handler, { path: '/graphql' }));
  app.route('/', compatApp(compat, { path: '/graphql/v5' }));
  // The session's tool-call rate is off here: this floods the caches behind it, not the bucket (mcp-limits.test.ts).
  const server = createMcpServer({ apps: [{ name: 'test', handler }], toolCallRate: false });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  mcp = new Client({ name: 'flood', version: '1' });
  await mcp.connect(client);
});
afterEach(async () => {
  await mcp?.close();
});

async function post(path: string, body: Record<string, unknown>): Promise<{ data?: unknown; errors?: { message: string }[] | null }> {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { data?: unknown; errors?: { message: string }[] | null };
}

async function graphqlQuery(args: Record<string, unknown>): Promise<{ success: boolean; error?: string }> {
  const result = await mcp.callTool({ name: 'graphql_query', arguments: { app_name: 'test', ...args } });
  return result.structuredContent as { success: boolean; error?: string };
}

/**
 * The heap once garbage is gone: a collection alone is not enough, because each `Request` the
 * test makes registers its signal with a `FinalizationRegistry` (undici), whose holdings (and what
 * they reach) stay until the registry's cleanup task has run in a later turn of the event loop —
 * 4 kB per request measured on the graphql-js executor, 83 MB over 20,000 requests, none of it
 * the server's. So collect, let a turn pass, and again until a collection frees under 256 kB.
 */
async function settledHeap(): Promise<number> {
  gc();
  let heap = process.memoryUsage().heapUsed;
  for (let turn = 0; turn < 20; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const now = process.memoryUsage().heapUsed;
    if (heap - now < 256 * 1024) return Math.min(heap, now);
    heap = now;
  }
  return heap;
}

/** Heap growth in MB over `count` requests, made 100 at a time; `check` sees the first answer. */
async function flood(request: (i: number) => Promise<unknown>, check: (first: any) => void, count = N): Promise<number> {
  check(await request(0));
  const before = await settledHeap();
  for (let i = 1; i < count; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => request(i + j)));
  }
  return ((await settledHeap()) - before) / MB;
}

// 20 condition variables: 2^20 combinations, a fresh one per request.
const BITS = 20;
const conditionVariables = (i: number) => Object.fromEntries(Array.from({ length: BITS }, (_, b) => [`b${b}`, ((i >> b) & 1) === 1]));
const declared = Array.from({ length: BITS }, (_, b) => `$b${b}: Boolean!`).join(', ');
const V6_CONDITIONS = `query Q(${declared}) { User { ${Array.from({ length: BITS }, (_, b) => `a${b}: byId(id: ${b + 1}) @include(if: $b${b}) { id name }`).join(' ')} } }`;
const V5_CONDITIONS = `query Q(${declared}) { ${Array.from({ length: BITS }, (_, b) => `a${b}: userById(id: ${b + 1}) @include(if: $b${b}) { id name }`).join(' ')} }`;
const name = (i: number) => `N${i}_${'x'.repeat(30)}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Growth allowed per stream: the default document cache's whole budget, and a little for the
// runtime's own. With its bound removed, on /graphql: names 299 MB over 20,000 requests (a
// `GraphQLError` cached per name), combinations 191 MB over 20,000 and 82 MB over 8,000 (no plan
// cap, no charge), document texts 75 MB over 20,000 (entries charged for their text alone);
// bounded, every stream grows 0.3-11 MB.
const BOUND = DEFAULT_DOCUMENT_CACHE_BYTES / MB + 8;

describe('distinct values of each per-request key hold a bounded heap (defaults)', { timeout: 900_000 }, () => {
  it('/graphql: operation names', async () => {
    const mb = await flood(
      (i) => post('/graphql', { query: '{ __typename }', operationName: name(i) }),
      (first) => expect(first.errors[0].message).toMatch(/^Unknown operation named "N0_x+"\.$/),
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('/graphql: @include variable combinations of one document', async () => {
    const mb = await flood(
      (i) => post('/graphql', { query: V6_CONDITIONS, variables: conditionVariables(i) }),
      (first) => expect(first).toMatchObject({ data: { User: {} } }),
      COMBINATIONS,
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('/graphql: document texts, charged for what an entry holds beyond its text', async () => {
    const mb = await flood(
      (i) => post('/graphql', { query: `{ __typename } # ${i}` }),
      (first) => expect(first).toMatchObject({ data: { __typename: 'Query' } }),
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('/graphql/v5: operation names', async () => {
    const mb = await flood(
      (i) => post('/graphql/v5', { query: '{ __typename }', operationName: name(i) }),
      (first) => expect(first.errors![0].message).toMatch(/^Unknown operation named "N0_x+"\.$/),
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('/graphql/v5: @include variable combinations of one document', async () => {
    const mb = await flood(
      (i) => post('/graphql/v5', { query: V5_CONDITIONS, variables: conditionVariables(i) }),
      (first) => expect(first.errors ?? null).toBeNull(),
      COMBINATIONS,
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('/graphql/v5: documents registered as automatic persisted queries', async () => {
    const mb = await flood(
      (i) => {
        const query = `{ __typename } # ${i}`;
        return post('/graphql/v5', { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
      },
      (first) => expect(first).toMatchObject({ data: { __typename: 'Query' } }),
    );
    // Two caches of documents (v5's and the v6 handler's), and the persisted store (4 MB).
    expect(mb).toBeLessThan(BOUND + 8);
  });

  it('MCP graphql_query: operation names', async () => {
    const mb = await flood(
      (i) => graphqlQuery({ query: 'query Q { __typename }', operation_name: name(i) }),
      (first) => expect(first.error).toMatch(/Unknown operation named "N0_x+"/),
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('MCP graphql_query: @include variable combinations of one document', async () => {
    const mb = await flood(
      (i) => graphqlQuery({ query: V6_CONDITIONS, variables: conditionVariables(i) }),
      (first) => expect(first.success).toBe(true),
      COMBINATIONS,
    );
    expect(mb).toBeLessThan(BOUND);
  });

  it('MCP graphql_query: document texts', async () => {
    const mb = await flood(
      (i) => graphqlQuery({ query: `{ __typename } # ${i}` }),
      (first) => expect(first.success).toBe(true),
    );
    expect(mb).toBeLessThan(BOUND);
  });
});
