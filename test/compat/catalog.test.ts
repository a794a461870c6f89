/**
 * The operation catalog as the compat handler fills it (issue 46.1): one row per client and
 * distinct operation, normalised (layout and literals do not make two), never a variable or a
 * literal's value; its v6 form from the rewrite `ergraph-migrate v5-to-v6` writes; persisted ids
 * with their v6 id; and the recorder's buffer between writes bounded by the catalog's defaults.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createCompatHandler,
  createUsageRecorder,
  DEFAULT_CATALOG_BYTES,
  DEFAULT_CATALOG_OPERATIONS,
  memoryUsageStore,
  type CompatHandlerOptions,
  type UsageStore,
} from 'ergraph/compat';
import type { CatalogEntry } from '../../compat/catalog.js';
import { createV6Handler } from './helpers.js';

const APOLLO_MAP = fileURLToPath(new URL('../../fixtures/v5-to-v6/manifests/expected/persisted-query-manifest.v6-map.json', import.meta.url));
const OLD_ID = 'eb9b4d7d80ccd2294da196e0021ee363545602c3a8fe451ea9d63976df4d1df6';
const NEW_ID = '81af9de18d37195a7c8e1255fb8a39b7d809668dde15a81b6312630864bb3325';

function setup(options: Omit<CompatHandlerOptions, 'usage'> = {}, store: UsageStore = memoryUsageStore()) {
  const usage = createUsageRecorder(store, { flushIntervalMs: 60_000 });
  const compat = createCompatHandler(createV6Handler(), { ...options, usage });
  const rows = async (client?: string) => {
    await usage.flush();
    return store.readOperations!(client === undefined ? {} : { client });
  };
  return { compat, usage, store, rows };
}

describe('operation catalog (compat handler)', () => {
  it('keeps one row per client and operation: layout, comments and literal values do not make two', async () => {
    const { compat, rows, usage } = setup();
    const sent = [
      '{ userById(id: 1) { id name } }',
      '# the same operation\n{\n  userById(id: 2) {\n    id,\n    name\n  }\n}',
      '{userById(id:3){id name}}',
    ];
    for (const query of sent) expect((await compat.execute(query, { client: 'web' })).errors).toBeNull();
    await compat.execute(sent[0], { client: 'ios' });
    const web = await rows('web');
    expect(web).toHaveLength(1);
    expect(web[0]).toMatchObject({ client: 'web', operationName: null, kind: 'query', count: 3, fields: ['Query.userById'], text: '{\n  userById(id: 0) {\n    id\n    name\n  }\n}' });
    expect(web[0]!.operationId).toBe(createHash('sha256').update(web[0]!.text).digest('hex'));
    expect(web[0]!.firstSeen).toBeLessThanOrEqual(web[0]!.lastSeen);
    expect((await rows('ios')).map((r) => r.count)).toEqual([1]);
    await usage.close();
  });

  it('never stores a variable or a literal value: numbers, strings, lists and objects are masked', async () => {
    const { compat, rows, usage, store } = setup();
    const secret = 'ssn-078-05-1120';
    const response = await compat.execute(
      'mutation Add($title: String!) { taskCreate(input: { title: $title, ownerId: 31337 }) { id title } }',
      { variables: { title: secret }, client: 'ops' },
    );
    expect(response.errors).toBeNull();
    await compat.execute(`{ taskGetAll(limit: 7777, status: OPEN) { title } userGetById(id: 424242) { name } }`, { client: 'ops' });
    const [mutation] = (await rows('ops')).filter((r) => r.kind === 'mutation');
    expect(mutation!.text).toBe('mutation Add($title: String!) {\n  taskCreate(input: {}) {\n    id\n    title\n  }\n}');
    const stored = JSON.stringify(await store.readOperations!());
    // As a value of its own: ids (sha256 hex) and times (ms) may hold these digits by chance.
    for (const value of [secret, '31337', '424242', '7777']) expect(stored).not.toMatch(new RegExp(`\\b${value}\\b`));
    // Enums choose shape, not data: kept.
    expect(stored).toContain('status: OPEN');
    await usage.close();
  });

  it('keeps the operation the request ran and only the fragments it reaches', async () => {
    const { compat, rows, usage } = setup();
    const document = 'query A { ...F } query B { taskById(id: 1) { owner { ...G } } } fragment F on Query { userGetAll { id } } fragment G on User { name }';
    await compat.execute(document, { operationName: 'A', client: 'web' });
    await compat.execute(document, { operationName: 'B', client: 'web' });
    const byName = Object.fromEntries((await rows('web')).map((r) => [r.operationName, r]));
    expect(byName.A!.text).toBe('query A {\n  ...F\n}\n\nfragment F on Query {\n  userGetAll {\n    id\n  }\n}');
    expect(byName.B!.text).toBe('query B {\n  taskById(id: 0) {\n    owner {\n      ...G\n    }\n  }\n}\n\nfragment G on User {\n  name\n}');
    await usage.close();
  });

  it('stores the v6 form v5-to-v6 writes and the paths that move, or why it needs manual work', async () => {
    const { compat, rows, usage } = setup();
    await compat.execute('query Board { people: userGetAll { id } taskById(id: 1) { title } }', { client: 'web' });
    await compat.execute('{ User: __typename userGetAll { id } }', { client: 'web' });
    const all = await rows('web');
    const [board, clash] = ['Board', null].map((name) => all.find((o) => o.operationName === name)!);
    expect(board!.v6).toEqual({
      text: 'query Board {\n  User {\n    people: getAll {\n      id\n    }\n  }\n  Task {\n    taskById: byId(id: 0) {\n      title\n    }\n  }\n}',
      moves: [
        { from: ['people'], to: ['User', 'people'] },
        { from: ['taskById'], to: ['Task', 'taskById'] },
      ],
    });
    expect(clash!.v6).toEqual({ problem: expect.stringContaining('the response key `User` is also the v6 group `User`') });
    await usage.close();
  });

  it('records the persisted id a client sent, and for an old manifest id the id of its v6 document', async () => {
    const { compat, rows, usage } = setup({ persisted: { mapping: APOLLO_MAP } });
    expect((await compat.execute(undefined, { documentId: OLD_ID, client: 'relay-app' })).errors).toBeNull();
    const apqQuery = '{ userGetAll(limit: 1) { name } }';
    const hash = createHash('sha256').update(apqQuery).digest('hex');
    await compat.execute(apqQuery, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } }, client: 'apollo-app' });
    await compat.execute(undefined, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } }, client: 'apollo-app' });
    expect(await rows('relay-app')).toEqual([expect.objectContaining({ operationName: 'Users', persistedId: OLD_ID, v6PersistedId: NEW_ID, count: 1 })]);
    // APQ clients hash the document they send: their v6 document registers itself, there is no id to map.
    expect(await rows('apollo-app')).toEqual([expect.objectContaining({ persistedId: hash, v6PersistedId: null, count: 2 })]);
    await usage.close();
  });

  it('records nothing in a store without a catalog, and still counts the uses', async () => {
    const inner = memoryUsageStore();
    const { readOperations: _none, ...plain } = inner;
    const adds: unknown[][] = [];
    const store: UsageStore = { ...plain, add: (rows, id, ...rest) => (adds.push(rest), inner.add(rows, id)) };
    const { compat, usage } = setup({}, store);
    await compat.execute('{ userGetAll { id } }', { client: 'web' });
    await usage.flush();
    expect(adds).toEqual([[]]);
    expect((await inner.read('2000-01-01')).rows.map((r) => `${r.coordinate} ${r.count}`)).toEqual(['Query.userGetAll 1']);
    await usage.close();
  });
});

describe('the recorder buffers operations between writes as a catalog keeps them (defaults)', () => {
  const entry = (i: number, text = `{ op${i} }`): CatalogEntry => ({
    operationId: String(i).padStart(64, '0'),
    operationName: null,
    kind: 'query',
    text,
    fields: ['Query.userGetAll'],
    v6: { text, moves: [] },
    bytes: 2 * Buffer.byteLength(text),
  });

  it(`holds ${DEFAULT_CATALOG_OPERATIONS} new operations; uses of one more are counted as dropped`, async () => {
    const store = memoryUsageStore();
    const usage = createUsageRecorder(store, { flushIntervalMs: 60_000 });
    // One entry per prepared operation, as the handler keeps them.
    const entries = Array.from({ length: DEFAULT_CATALOG_OPERATIONS + 2 }, (_, i) => entry(i));
    for (let i = 0; i <= DEFAULT_CATALOG_OPERATIONS; i++) usage.record(['Query.userGetAll'], 'web', entries[i]);
    usage.record(['Query.userGetAll'], 'web', entries[0]);
    expect(usage.status().droppedOperations).toBe(1);
    await usage.flush();
    const kept = await store.readOperations!();
    expect(kept).toHaveLength(DEFAULT_CATALOG_OPERATIONS);
    expect(kept[0]).toMatchObject({ operationId: entries[0]!.operationId, count: 2 });
    // Written: the buffer has room again.
    usage.record(['Query.userGetAll'], 'web', entries[DEFAULT_CATALOG_OPERATIONS + 1]);
    expect(usage.status().droppedOperations).toBe(1);
    await usage.close();
  });

  it(`holds ${DEFAULT_CATALOG_BYTES / 1024 / 1024} MiB of operation texts`, async () => {
    const usage = createUsageRecorder(memoryUsageStore(), { flushIntervalMs: 60_000 });
    const text = (i: number) => `{ ${String(i).repeat(512 * 1024)} }`;
    // 1 MiB and a few bytes each (v5 and v6): three fit, the fourth does not.
    for (let i = 1; i <= 4; i++) usage.record(['Query.userGetAll'], 'web', entry(i, text(i)));
    expect(usage.status().droppedOperations).toBe(1);
    await usage.close();
  });
});
