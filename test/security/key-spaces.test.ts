/**
 * Issue 27 item 1: nothing a client chooses per request grows the server past a bound. N (20,000;
 * 100,000 with KEYSPACE_N=100000) distinct values of each key — operation names, `@include` variable combinations, document texts,
 * persisted-query hashes — through `/graphql`, `/graphql/v5` and MCP's `graphql_query`, with the
 * default options; the heap is measured after a full collection before and after each stream.
 * Unbounded, each of these grew the heap by hundreds of MB (a `GraphQLError` kept per name, a plan
 * per combination, documents charged below what they hold).
 */
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
// 20,000 by default: enough for every stream to pass its bound several times over with the bound
// removed, in minutes on a shared machine; KEYSPACE_N=100000 runs the full count.
const N = Number(process.env.KEYSPACE_N ?? 20_000);

let app: Hono;
let mcp: Client;
beforeAll(async () => {
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
afterAll(async () => {
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

/** Heap growth in MB over `N` requests, made 100 at a time; `check` sees the first answer. */
async function flood(request: (i: number) => Promise<unknown>, check: (first: any) => void): Promise<number> {
  check(await request(0));
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 1; i < N; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, N - i) }, (_, j) => request(i + j)));
  }
  gc();
  return (process.memoryUsage().heapUsed - before) / MB;
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
// runtime's own; each stream below grew the heap by 150-600 MB with its bound removed.
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
