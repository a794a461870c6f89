/**
 * A migration kit per client (issue 46.3), from a catalog a compat endpoint filled with shadow
 * runs on: every operation the client sent with its v6 text, the paths that move, the shadow
 * verdict with date and number of runs, and the v6 id of a persisted one — as data, as the
 * Markdown document handed to a partner, and as a section of the operator's report page, read in
 * headless Chromium from a real server.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatApp, compatKit, createCompatHandler, createUsageRecorder, kitMarkdown, memoryUsageStore, migrationKit, type CompatHandler } from 'ergraph/compat';
import { requireChromium, withPage } from '../support/chromium.js';
import { createV6Handler } from './helpers.js';

const APOLLO_MAP = fileURLToPath(new URL('../../fixtures/v5-to-v6/manifests/expected/persisted-query-manifest.v6-map.json', import.meta.url));
const OLD_ID = 'eb9b4d7d80ccd2294da196e0021ee363545602c3a8fe451ea9d63976df4d1df6';
const NEW_ID = '81af9de18d37195a7c8e1255fb8a39b7d809668dde15a81b6312630864bb3325';
const HOSTILE = `<img src=x onerror="window.__pwned=1">partner`;
const BOARD = 'query Board($n: Int) { people: userGetAll(limit: $n) { id name } taskById(id: 2) { title } }';

const store = memoryUsageStore();
let compat: CompatHandler;

beforeAll(async () => {
  compat = createCompatHandler(createV6Handler(), { usage: createUsageRecorder(store), shadow: { sample: 1 }, persisted: { mapping: APOLLO_MAP } });
  const send = async (query: string | undefined, options: Parameters<CompatHandler['execute']>[1]) => {
    await compat.execute(query, options);
    // One at a time: two runs at once is the default bound, and a third would be dropped.
    await compat.shadow.idle();
  };
  for (let i = 0; i < 3; i++) await send(BOARD, { variables: { n: 2 }, client: 'web' });
  await send(undefined, { documentId: OLD_ID, client: 'web' });
  await send('mutation Done { taskComplete(id: 1) { id } }', { client: 'web' });
  await send('{ User: __typename userGetAll { id } }', { client: 'web' });
  await send('{ taskById(id: 1) { title } }', { client: HOSTILE });
});

afterAll(() => compat.usage.close());

describe('migrationKit and kitMarkdown', () => {
  it('lists each operation with its v6 text, moved paths, shadow verdict and persisted id mapping', async () => {
    const kit = await compat.kit({ client: 'web' });
    expect(kit.store.ok).toBe(true);
    expect(kit.summary).toEqual({ operations: 4, same: 2, differs: 0, 'not run': 0, 'not shadowed': 1, 'no v6 form': 1 });
    const board = kit.operations[0]!;
    expect(board).toMatchObject({
      operationName: 'Board',
      count: 3,
      fields: ['Query.userGetAll', 'Query.taskById'],
      v6: {
        text: 'query Board($n: Int) {\n  User {\n    people: getAll(limit: $n) {\n      id\n      name\n    }\n  }\n  Task {\n    taskById: byId(id: 0) {\n      title\n    }\n  }\n}',
        moves: [
          { from: 'data.people', to: 'data.User.people' },
          { from: 'data.taskById', to: 'data.Task.taskById' },
        ],
      },
      shadow: { verdict: 'same', runs: 3, same: 3, differs: 0, path: null },
      persisted: null,
    });
    expect(Date.parse(board.shadow.lastRunAt!)).toBeGreaterThan(0);
    const byName = Object.fromEntries(kit.operations.map((o) => [o.operationName ?? '(anonymous)', o]));
    expect(byName.Users).toMatchObject({ persisted: { id: OLD_ID, v6Id: NEW_ID }, shadow: { verdict: 'same', runs: 1 } });
    expect(byName.Done).toMatchObject({ kind: 'mutation', shadow: { verdict: 'not shadowed', runs: 0 } });
    expect(byName['(anonymous)']).toMatchObject({ v6: { problem: expect.stringContaining('give this field another alias') }, shadow: { verdict: 'no v6 form' } });
  });

  it('renders a document to hand to the client', async () => {
    const text = kitMarkdown(await migrationKit(store, { client: 'web' }));
    expect(text).toMatch(/^# Moving web from the v5 GraphQL endpoint to v6\n\n4 operations sent by web, .*: 2 proven to answer the same in v6 on your own traffic, 0 answering differently, 0 not run yet, 1 mutations, 1 needing manual work\./);
    expect(text).toContain('## 1. `query Board` — 3 requests, last ');
    expect(text).toMatch(/Shadow verdict: ✅ answers the same in 3 runs on your traffic \(last \d{4}-\d\d-\d\d\)/);
    expect(text).toContain('Send instead (v6):\n\n```graphql\nquery Board($n: Int) {\n  User {\n    people: getAll(limit: $n) {');
    expect(text).toContain('| `data.people` | `data.User.people` |');
    expect(text).toContain(`Persisted id \`${OLD_ID}\` → v6 id \`${NEW_ID}\``);
    expect(text).toContain('Shadow verdict: ➖ not shadowed (a mutation)');
    expect(text).toContain('No v6 text is written for it: the response key \\`User\\` is also the v6 group');
    // The client's own four operations, not the other client's.
    expect(text.match(/^## \d+\. /gm)).toHaveLength(4);
  });

  it('says which clients the catalog holds when it has none of the one asked for', async () => {
    const { kit, clients } = await compatKit({ database: store, client: 'nobody' });
    expect(kit.operations).toEqual([]);
    expect(clients).toEqual([HOSTILE, 'web']);
    await expect(compatKit({ database: store, client: 'web', format: 'csv' as 'md' })).rejects.toThrow(/format must be md or json/);
  });
});

describe('the retirement verdict over the same catalog (issue 46.4)', () => {
  it('calls fields ready whose every client has a proven v6 form, and names what holds the others back', async () => {
    const report = await compat.report();
    const field = (coordinate: string) => report.fields.find((f) => f.coordinate === coordinate)!;
    // web's persisted Users and the partner's one query answered the same in v6.
    expect(field('Query.userById').verdict).toMatchObject({ status: 'ready', message: expect.stringContaining('has a v6 form that answers the same (web: 1 run)') });
    expect(field('Query.taskById').proof!.clients.map((c) => `${c.client} ${c.status} ${c.runs}`)).toEqual([`${HOSTILE} same 1`, 'web same 3']);
    expect(field('Query.taskById').verdict.status).toBe('ready');
    // Its anonymous operation has no v6 form; a mutation is never shadowed.
    expect(field('Query.userGetAll').proof!.clients).toEqual([
      { client: 'web', status: 'holds', reason: expect.stringMatching(/^query \(anonymous\): no v6 form: the response key `User` is also the v6 group/), operations: 3, runs: 4 },
    ]);
    expect(field('Mutation.taskComplete').proof!.clients[0]).toMatchObject({ client: 'web', status: 'holds', reason: expect.stringMatching(/^mutation Done: a mutation: never shadowed/) });
    expect(report.verdict).toMatchObject({ status: 'in-use', message: 'not yet: 2 of 11 fields held back, by web; 2 more used fields are ready' });
  });
});

const hasChromium = requireChromium();

describe.runIf(hasChromium)('the kit on the operator report page', () => {
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    const app = compatApp(compat, { path: '/graphql/v5' });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql/v5/usage`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('opens from the clients table: each operation, its v6 text, the paths that move, the verdict', async () => {
    const seen = await withPage(base, 'compat-usage-kit', async (page, problems) => {
      const heldBack = await page.locator('#held-back tbody tr').allInnerTexts();
      await page.locator('#clients a', { hasText: 'web' }).click();
      await page.waitForSelector('#kit');
      const operations = await page.locator('#kit article.operation').evaluateAll((nodes) =>
        nodes.map((n) => ({ verdict: n.getAttribute('data-verdict'), title: n.querySelector('h3')!.textContent, v6: n.querySelector('pre.v6')?.textContent ?? null, moves: Array.from(n.querySelectorAll('.moves tbody tr'), (r) => r.textContent) })),
      );
      return { url: page.url(), verdict: await page.locator('#verdict').getAttribute('data-status'), heldBack, operations, problems: [...problems] };
    });
    expect(seen.problems).toEqual([]);
    expect(new URL(seen.url).searchParams.get('client')).toBe('web');
    // The report stays on top of the page, with what holds fields back.
    expect(seen.verdict).toBe('in-use');
    expect(seen.heldBack.map((r) => r.split('\t').slice(0, 2).join(' '))).toEqual(['Query.userGetAll web', 'Mutation.taskComplete web']);
    // Most used first; among equally used, the latest seen first.
    expect(seen.operations.map((o) => o.verdict)).toEqual(['same', 'no v6 form', 'not shadowed', 'same']);
    expect(seen.operations[0]!.title).toMatch(/^query Board · 3 requests, last \d{4}-\d\d-\d\d · same \(3 runs, last \d{4}-\d\d-\d\d\)$/);
    expect(seen.operations[0]!.v6).toContain('people: getAll(limit: $n)');
    expect(seen.operations[0]!.moves).toEqual(['data.peopledata.User.people', 'data.taskByIddata.Task.taskById']);
    expect(seen.operations[1]!.v6).toBeNull();
  });

  it('keeps a hostile client name as text, and serves the kit alone as JSON without naming the store', async () => {
    const html = await (await fetch(`${base}?client=${encodeURIComponent(HOSTILE)}`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<h2>Migration kit: &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;partner</h2>');
    expect(html).not.toContain('<img src=x');
    const json = await (await fetch(`${base}?client=web&format=json`)).json();
    expect(json).toMatchObject({ client: 'web', store: { ok: true }, summary: { operations: 4 } });
    expect(json.store).toEqual({ ok: true });
    expect((await fetch(`${base}?client=`)).status).toBe(400);
    expect((await fetch(`${base}?client=${'x'.repeat(101)}`)).status).toBe(400);
  });
});
