/**
 * The v5 endpoint and persisted queries (issue 12.6), over real HTTP: Automatic Persisted Queries
 * as Apollo clients speak them (hash only → PersistedQueryNotFound → hash and document → hash
 * only), old ids from the mapping `ergraph-migrate v5-to-v6` writes, and the bound on what
 * clients may register.
 */
import { createHash } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { CompatConfigError, compatApp, createCompatHandler, type CompatHandlerOptions } from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const MANIFESTS = fileURLToPath(new URL('../../fixtures/v5-to-v6/manifests/expected/', import.meta.url));
const APOLLO_MAP = join(MANIFESTS, 'persisted-query-manifest.v6-map.json');
const RELAY_MAP = join(MANIFESTS, 'relay/persisted_queries.v6-map.json');

const servers: ServerType[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The compat endpoint on 127.0.0.1 (a free port), and helpers speaking to it with fetch. */
async function endpoint(options: CompatHandlerOptions = {}) {
  const compat = createCompatHandler(createV6Handler(), options);
  const app = compatApp(compat);
  const url = await new Promise<string>((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}/graphql`));
    servers.push(server);
  });
  const post = async (body: Record<string, unknown>, accept = 'application/json') => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, any> };
  };
  const get = async (params: Record<string, unknown>) => {
    const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    const res = await fetch(`${url}?${search}`, { headers: { accept: 'application/json' } });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return { compat, post, get };
}

const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const USERS = 'query Names { userGetAll(limit: 2) { name } }';
const NAMES = { userGetAll: [{ name: 'Ada' }, { name: 'Brian' }] };

describe('compat endpoint: Automatic Persisted Queries', () => {
  it('answers an unknown hash PersistedQueryNotFound (200), then runs it by hash once registered', async () => {
    const { post, get } = await endpoint();
    const hash = sha256(USERS);
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const miss = await post({ extensions: apq(hash) }, accept);
      // 200 whatever the media type: Apollo clients read this answer as "send the document".
      expect(miss.status, accept).toBe(200);
      expect(miss.body.errors, accept).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);
    }
    const register = await post({ query: USERS, extensions: apq(hash) });
    expect(register.status).toBe(200);
    expect(register.body.data).toEqual(NAMES);
    const hit = await post({ extensions: apq(hash) });
    expect(hit.body.data).toEqual(NAMES);
    // Deprecations are named for documents run by hash too.
    expect(hit.body.extensions.deprecations.map((d: { field: string }) => d.field)).toEqual(['Query.userGetAll']);
    // Apollo's GET form: `extensions` as JSON in the query string, no `query`.
    const viaGet = await get({ extensions: apq(hash), operationName: 'Names' });
    expect(viaGet.status).toBe(200);
    expect(viaGet.body.data).toEqual(NAMES);
  });

  it('refuses a hash that does not match its document (400, BAD_USER_INPUT) and remembers nothing', async () => {
    const { post, compat } = await endpoint();
    const wrong = sha256('{ somethingElse }');
    const res = await post({ query: USERS, extensions: apq(wrong) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ message: 'provided sha does not match query', extensions: { code: 'BAD_USER_INPUT' } }]);
    expect(compat.persisted.size).toBe(0);
    expect((await post({ extensions: apq(wrong) })).body.errors[0].message).toBe('PersistedQueryNotFound');
    // Not hex at all: refused the same way.
    expect((await post({ query: USERS, extensions: apq('../../etc/passwd') })).status).toBe(400);
  });

  it('does not remember a document that does not validate against the v5 schema', async () => {
    const { post, compat } = await endpoint();
    const bad = '{ userGetAll { nope } }';
    const res = await post({ query: bad, extensions: apq(sha256(bad)) });
    expect(res.body.errors[0].message).toMatch(/Cannot query field "nope"/);
    expect(compat.persisted.size).toBe(0);
    expect((await post({ extensions: apq(sha256(bad)) })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('keeps at most maxEntries documents and maxBytes of them, least recently used out first', async () => {
    const { post, compat } = await endpoint({ persisted: { maxEntries: 3 } });
    const docs = [1, 2, 3, 4, 5].map((id) => `{ userById(id: ${id}) { id } }`);
    for (const doc of docs.slice(0, 3)) await post({ query: doc, extensions: apq(sha256(doc)) });
    // Touch the first: the second is now the least recently used.
    expect((await post({ extensions: apq(sha256(docs[0]!)) })).body.data).toEqual({ userById: { id: 1 } });
    for (const doc of docs.slice(3)) await post({ query: doc, extensions: apq(sha256(doc)) });
    expect(compat.persisted.size).toBe(3);
    const known = await Promise.all(docs.map(async (doc) => (await post({ extensions: apq(sha256(doc)) })).body.errors === null));
    expect(known).toEqual([true, false, false, true, true]);

    // By size: 2 bytes per character of hash and document.
    const small = await endpoint({ persisted: { maxBytes: 600 } });
    const sized = [1, 2, 3, 4].map((id) => `{ userById(id: ${id}) { id name email } }`);
    for (const doc of sized) await small.post({ query: doc, extensions: apq(sha256(doc)) });
    const cost = 2 * (64 + sized[0]!.length);
    expect(small.compat.persisted.size).toBe(Math.floor(600 / cost));
    expect(small.compat.persisted.bytes).toBeLessThanOrEqual(600);
    // A document larger than the whole budget still runs; it is just not kept.
    const huge = `{ userById(id: 1) { id ${'name '.repeat(100)}} }`;
    expect((await small.post({ query: huge, extensions: apq(sha256(huge)) })).body.data).toEqual({ userById: { id: 1, name: 'Ada' } });
    expect((await small.post({ extensions: apq(sha256(huge)) })).body.errors[0].message).toBe('PersistedQueryNotFound');
  });

  it('with persisted: false, tells clients the extension is not supported', async () => {
    const { post } = await endpoint({ persisted: false });
    const res = await post({ query: USERS, extensions: apq(sha256(USERS)) });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([{ message: 'PersistedQueryNotSupported', extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } }]);
    // Requests without the extension are served as always.
    expect((await post({ query: USERS })).body.data).toEqual(NAMES);
  });

  it('runs the APQ round trip an Apollo client makes: hash-only GET, then POST with the document', async () => {
    const { get, post } = await endpoint();
    const query = 'query Task($id: Int!) { taskById(id: $id) { title } }';
    const variables = { id: 1 };
    // What @apollo/client's persisted-queries link does (useGETForHashedQueries), without the client.
    let res = await get({ extensions: apq(sha256(query)), variables, operationName: 'Task' });
    if (res.body.errors?.[0]?.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND') {
      res = await post({ query, variables, operationName: 'Task', extensions: apq(sha256(query)) });
    }
    expect(res.body.data).toEqual({ taskById: { title: expect.any(String) } });
    const again = await get({ extensions: apq(sha256(query)), variables, operationName: 'Task' });
    expect(again.body).toEqual({ ...res.body });
  });
});

describe('compat endpoint: old ids from the ergraph-migrate mapping', () => {
  it('serves an old Apollo id with the v5 response shape, without the client sending a document', async () => {
    const { post } = await endpoint({ persisted: { mapping: APOLLO_MAP } });
    // The id the old client was built with: sha256 of its v5 document.
    const oldId = sha256('query Users {\n  userGetAll(limit: 5) {\n    id\n    name\n  }\n  first: userById(id: 1) {\n    email\n  }\n}');
    const res = await post({ extensions: apq(oldId), operationName: 'Users' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeNull();
    expect(res.body.data.first).toEqual({ email: 'ada@example.com' });
    expect(res.body.data.userGetAll.slice(0, 2)).toEqual([{ id: 1, name: 'Ada' }, { id: 2, name: 'Brian' }]);
  });

  it('serves old Relay ids (kept by the codemod) from their mapping, given as an object', async () => {
    const { readFileSync } = await import('node:fs');
    const mapping = JSON.parse(readFileSync(RELAY_MAP, 'utf8'));
    const { post, get } = await endpoint({ persisted: { mapping } });
    const res = await post({ extensions: apq('0f3c4b2e5d1a6978b8c9d0e1f2a3b4c5'), variables: { id: 1 } });
    expect(res.body.data).toEqual({ taskById: { id: 1, title: expect.any(String) } });
    // A mapped mutation is still a mutation: not over GET.
    const viaGet = await get({ extensions: apq('9a8b7c6d5e4f30211203f4e5d6c7b8a9'), variables: { id: 1 } });
    expect(viaGet.status).toBe(405);
    const viaPost = await post({ extensions: apq('9a8b7c6d5e4f30211203f4e5d6c7b8a9'), variables: { id: 1 } });
    expect(viaPost.body.data).toEqual({ taskComplete: { id: 1, status: 'DONE' } });
  });

  it("serves old Relay ids sent as Relay clients send them (doc_id), and as GraphQL over HTTP's documentId", async () => {
    const { post, get } = await endpoint({ persisted: { mapping: RELAY_MAP } });
    const relay = await post({ doc_id: '0f3c4b2e5d1a6978b8c9d0e1f2a3b4c5', variables: { id: 2 } });
    expect(relay.status).toBe(200);
    expect(relay.body.data).toEqual({ taskById: { id: 2, title: expect.any(String) } });
    const viaGet = await get({ documentId: '0f3c4b2e5d1a6978b8c9d0e1f2a3b4c5', variables: { id: 2 } });
    expect(viaGet.body.data).toEqual(relay.body.data);
    const unknown = await post({ doc_id: 'ffffffffffffffffffffffffffffffff' });
    expect(unknown.body.errors).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);
    // A document registered through APQ is reachable by `sha256:<hash>` too.
    await post({ query: USERS, extensions: apq(sha256(USERS)) });
    expect((await post({ documentId: `sha256:${sha256(USERS)}` })).body.data).toEqual(NAMES);
  });

  it('names the v6 replacements of a mapped id in a brownout, as it does for a sent document', async () => {
    const compat = createCompatHandler(createV6Handler(), { persisted: { mapping: RELAY_MAP } });
    const app = compatApp(compat, { brownoutShare: 1 });
    const res = await app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ extensions: apq('0f3c4b2e5d1a6978b8c9d0e1f2a3b4c5'), variables: { id: 1 } }),
    });
    const body = (await res.json()) as { errors: { extensions: { code: string; replacements: { field: string }[] } }[] };
    expect(body.errors[0]!.extensions.code).toBe('V5_BROWNOUT');
    expect(body.errors[0]!.extensions.replacements.map((r) => r.field)).toEqual(['Query.taskById']);
  });

  it('refuses a mapping it cannot use at start, with one clear error', () => {
    const v6 = createV6Handler();
    expect(() => createCompatHandler(v6, { persisted: { mapping: '/nonexistent/x.v6-map.json' } })).toThrow(CompatConfigError);
    expect(() => createCompatHandler(v6, { persisted: { mapping: '/nonexistent/x.v6-map.json' } })).toThrow(/cannot read it \(ENOENT\)/);
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-pq-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'bad.json'), '[1]');
    expect(() => createCompatHandler(v6, { persisted: { mapping: join(dir, 'bad.json') } })).toThrow(/must be an object/);
    expect(() => createCompatHandler(v6, { persisted: { mapping: { abc: { id: 'x', body: '{ a }' } as never } } })).toThrow(
      /entry "abc" needs a string "v5Body"/,
    );
  });
});
