/**
 * `ergraph compat kit --client <name>`, run as the bin on a usage database a compat app with shadow
 * runs on wrote to: the document an operator sends each partner (issue 46.3).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler, createUsageRecorder, openUsageStore } from 'ergraph/compat';
import { createV6Handler } from '../compat/helpers.js';
import { run, spawnCli, usageDatabase } from './helpers.js';

const database = usageDatabase('ergraph-kit-');

beforeAll(async () => {
  const store = await openUsageStore(database);
  const compat = createCompatHandler(createV6Handler(), { usage: createUsageRecorder(store), shadow: { sample: 1 } });
  const app = compatApp(compat);
  const send = async (query: string, client: string) => {
    await app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-client-name': client }, body: JSON.stringify({ query }) });
    await compat.shadow.idle();
  };
  await send('query Names { all: userGetAll(limit: 2) { name } }', 'partner-a');
  await send('query Names { all: userGetAll(limit: 2) { name } }', 'partner-a');
  await send('mutation { taskComplete(id: 1) { id } }', 'partner-a');
  await send('{ taskById(id: 1) { title } }', 'web');
  await compat.usage.close();
  await store.close();
}, 60_000);


describe('ergraph compat kit', () => {
  it('prints the client\'s migration kit as Markdown', async () => {
    const cli = spawnCli(['compat', 'kit', '--client', 'partner-a', '--database', database]);
    expect(await cli.exit(60_000)).toBe(0);
    const out = cli.stdout();
    expect(out).toMatch(/^# Moving partner-a from the v5 GraphQL endpoint to v6\n\n2 operations sent by partner-a, .*: 1 proven to answer the same in v6 on your own traffic/);
    expect(out).toContain('## 1. `query Names` — 2 requests, last ');
    expect(out).toMatch(/Shadow verdict: ✅ answers the same in 2 runs on your traffic \(last \d{4}-\d\d-\d\d\)/);
    expect(out).toContain('Send instead (v6):\n\n```graphql\nquery Names {\n  User {\n    all: getAll(limit: 0) {\n      name\n    }\n  }\n}\n```');
    expect(out).toContain('| `data.all` | `data.User.all` |');
    expect(out).toContain('## 2. `mutation (anonymous)` — 1 request, last ');
    expect(cli.stderr()).toBe('');
  }, 60_000);

  it('prints JSON with --format json, from DATABASE_URL when --database is not given', async () => {
    const res = await run(['compat', 'kit', '--client', 'web', '--format', 'json'], { env: { DATABASE_URL: database } });
    expect(res.code).toBe(0);
    const kit = JSON.parse(res.stdout);
    expect(kit).toMatchObject({ client: 'web', summary: { operations: 1, same: 1 }, operations: [{ operationName: null, shadow: { verdict: 'same', runs: 1 } }] });
  }, 60_000);

  it('exits 1 naming the clients it holds when the client has no operation, and 2 without a database', async () => {
    const res = await run(['compat', 'kit', '--client', 'partner-b', '--database', database]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('ergraph: no operation of client "partner-b" in the catalog; it holds "partner-a", "web"\n');
    const none = await run(['compat', 'kit', '--client', 'web'], { env: {} });
    expect(none).toMatchObject({ code: 2 });
    expect(none.stderr).toContain('give the usage database: --database <url> (postgres://…, pglite:<dir>), or set DATABASE_URL');
    const down = await run(['compat', 'kit', '--client', 'web', '--database', 'postgres://postgres:pw@127.0.0.1:1/usage']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^ergraph: cannot read the operation catalog from PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:1\/usage: .*ECONNREFUSED/);
  }, 60_000);
});
