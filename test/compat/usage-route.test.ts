/**
 * `GET <path>/usage` is an operator's page: with no options it is served to loopback peers only,
 * its window is capped at 366 days, it names the top 50 clients, a report is computed once a minute
 * per window however many ask, and nothing in it names the store or quotes its errors.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compatApp, createCompatHandler, createUsageRecorder, memoryUsageStore, type UsageRow, type UsageStore } from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

/** The environment @hono/node-server hands an app: the socket the request came on. */
const peer = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
const LOOPBACK = peer('127.0.0.1');

const row = (client: string, count: number): UsageRow => {
  const now = Date.now();
  return { coordinate: 'Query.userGetAll', client, day: new Date(now).toISOString().slice(0, 10), count, firstSeen: now, lastSeen: now };
};

function appWith(store: UsageStore, options: Parameters<typeof compatApp>[1] = {}) {
  const compat = createCompatHandler(createV6Handler(), { usage: createUsageRecorder(store, { onError: () => undefined }) });
  return compatApp(compat, { path: '/graphql/v5', ...options });
}

/** A store that counts its reads. */
function countingStore(rows: UsageRow[] = []) {
  const store = memoryUsageStore();
  void store.add(rows);
  let reads = 0;
  const counted: UsageStore = { ...store, description: store.description, read: (since) => (reads++, store.read(since)) };
  return { store: counted, reads: () => reads };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('who may read the report', () => {
  it('with no options: loopback peers only, and not through a proxy', async () => {
    const app = appWith(memoryUsageStore());
    const status = async (env?: object, headers: Record<string, string> = {}) => (await app.request('/graphql/v5/usage', { headers }, env)).status;
    expect(await status(LOOPBACK)).toBe(200);
    expect(await status(peer('::1'))).toBe(200);
    expect(await status(peer('::ffff:127.0.0.1'))).toBe(200);
    expect(await status(peer('10.0.0.5'))).toBe(403);
    expect(await status(peer('::ffff:192.168.1.9'))).toBe(403);
    // No socket to read (another runtime, or a test harness): no.
    expect(await status()).toBe(403);
    // A reverse proxy on this machine forwards the internet: loopback peer, but not an operator.
    expect(await status(LOOPBACK, { 'x-forwarded-for': '203.0.113.7' })).toBe(403);
    expect(await status(LOOPBACK, { forwarded: 'for=203.0.113.7' })).toBe(403);
    expect(await status(LOOPBACK, { 'x-real-ip': '203.0.113.7' })).toBe(403);
    const refused = await app.request('/graphql/v5/usage', {}, peer('10.0.0.5'));
    expect(await refused.json()).toEqual({
      error: 'The usage report is for operators: this server serves it to loopback clients only (compatApp option usageAccess)',
    });
  });

  it('the app decides with usageAccess(request)', async () => {
    const app = appWith(memoryUsageStore(), { usageAccess: async (c) => c.req.header('authorization') === 'Bearer ops' });
    expect((await app.request('/graphql/v5/usage', { headers: { authorization: 'Bearer ops' } }, peer('10.0.0.5'))).status).toBe(200);
    expect((await app.request('/graphql/v5/usage', {}, LOOPBACK)).status).toBe(403);
  });
});

describe('bounded work per request', () => {
  it('caps the window at 366 days with a clear 400', async () => {
    const app = appWith(memoryUsageStore());
    expect((await app.request('/graphql/v5/usage?days=366', {}, LOOPBACK)).status).toBe(200);
    const over = await app.request('/graphql/v5/usage?days=3660', {}, LOOPBACK);
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: 'days must be a whole number from 1 to 366, got 3660' });
    expect((await app.request('/graphql/v5/usage?days=99999999', {}, LOOPBACK)).status).toBe(400);
  });

  it('names the top 50 clients and counts the rest', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => row(`invented-${i}`, 1000 - i));
    const app = appWith(countingStore(rows).store);
    const report = await (await app.request('/graphql/v5/usage', {}, LOOPBACK)).json();
    expect(report.clients).toHaveLength(50);
    expect(report.otherClients.clients).toBe(250);
    expect(report.fields.find((f: { coordinate: string }) => f.coordinate === 'Query.userGetAll').clients).toHaveLength(50);
    const page = await (await app.request('/graphql/v5/usage?format=html', {}, LOOPBACK)).text();
    expect(page.match(/<tr><td><a href="\?client=invented-/g)).toHaveLength(50);
    expect(page).toContain('250 more clients');
  });

  it('computes a report once per minute per window, however many ask at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-01-01T12:00:00Z'));
    const { store, reads } = countingStore();
    const app = appWith(store);
    const ask = (days = 30) => app.request(`/graphql/v5/usage?days=${days}`, {}, LOOPBACK);
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask()));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(reads()).toBe(1);
    await ask(7);
    expect(reads()).toBe(2);
    vi.setSystemTime(new Date('2027-01-01T12:00:59Z'));
    await ask();
    expect(reads()).toBe(2);
    vi.setSystemTime(new Date('2027-01-01T12:01:01Z'));
    await ask();
    expect(reads()).toBe(3);
  });
});

describe('what the report shows', () => {
  it('no store path, host or error text, in JSON or the page (the log has them)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const secret = 'PGlite /srv/secret/data-dir on db.internal:5432';
    const broken: UsageStore = {
      ...memoryUsageStore(),
      description: secret,
      read: () => Promise.reject(new Error('connect ECONNREFUSED 10.9.8.7:5432 password=hunter2')),
      add: () => Promise.reject(new Error('EACCES /srv/secret/data-dir/usage')),
    };
    const app = appWith(broken);
    await app.request('/graphql/v5', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ userGetAll { id } }"}' });
    const json = await app.request('/graphql/v5/usage', {}, LOOPBACK);
    expect(json.status).toBe(503);
    const body = await json.json();
    expect(body.store).toEqual({ ok: false });
    expect(body.verdict.message).toBe('no verdict: the usage store cannot be read');
    const page = await (await app.request('/graphql/v5/usage?format=html', {}, LOOPBACK)).text();
    for (const text of [JSON.stringify(body), page]) {
      for (const leak of ['/srv/secret', 'db.internal', '5432', '10.9.8.7', 'ECONNREFUSED', 'hunter2', 'EACCES']) expect(text).not.toContain(leak);
    }
    expect(page).toContain('The usage store could not be read (the server log says why)');
    expect(warn.mock.calls.flat().join('\n')).toContain('ECONNREFUSED 10.9.8.7');
  });

  it("keeps the recorder's counters and when it last failed, not what it failed with", async () => {
    const store = memoryUsageStore();
    const fail = true;
    const flaky: UsageStore = { ...store, description: 'PostgreSQL postgres://db.internal/usage', add: (rows) => (fail ? Promise.reject(new Error('ECONNRESET db.internal')) : store.add(rows)) };
    const app = appWith(flaky);
    await app.request('/graphql/v5', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ userGetAll { id } }"}' });
    const body = await (await app.request('/graphql/v5/usage', {}, LOOPBACK)).json();
    expect(body.recorder).toMatchObject({ pendingUses: 1, failedFlushes: 1, lastErrorAt: expect.any(String) });
    expect(body.recorder).not.toHaveProperty('lastError');
    expect(body.recorder).not.toHaveProperty('store');
    expect(JSON.stringify(body)).not.toContain('db.internal');
  });
});
