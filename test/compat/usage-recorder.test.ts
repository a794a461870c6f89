import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clientName,
  compatApp,
  createCompatHandler,
  createUsageRecorder,
  memoryUsageStore,
  openUsageStore,
  OTHER,
  type FlushFailure,
  type UsageRow,
  type UsageStore,
} from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

const T0 = Date.parse('2026-03-10T23:59:59.500Z');

/** A memory store that fails while `down` is set. */
function flakyStore() {
  const inner = memoryUsageStore();
  const state = { down: false, adds: 0, flushIds: [] as (string | undefined)[] };
  const store: UsageStore = {
    description: 'flaky',
    track: (c) => (state.down ? Promise.reject(new Error('store down')) : inner.track(c)),
    add: (rows, flushId) => (state.adds++, state.flushIds.push(flushId), state.down ? Promise.reject(new Error('store down')) : inner.add(rows, flushId)),
    read: (d) => (state.down ? Promise.reject(new Error('store down')) : inner.read(d)),
    close: () => inner.close(),
  };
  return { store, state };
}

const total = (rows: UsageRow[]) => rows.reduce((n, r) => n + r.count, 0);

afterEach(() => vi.restoreAllMocks());

describe('clientName', () => {
  it('cuts a 10 kB header to 100 characters', () => {
    expect(clientName('a'.repeat(10_000))).toBe('a'.repeat(100));
  });

  it('writes control and invisible formatting characters out as \\uXXXX, never cutting an escape in half', () => {
    expect(clientName('web\u0000\u001b[31mred\u007f')).toBe('web\\u0000\\u001b[31mred\\u007f');
    expect(clientName('evil\u202etxt.exe')).toBe('evil\\u202etxt.exe');
    const cut = clientName(`${'b'.repeat(97)}\u0001\u0001`);
    expect(cut).toBe('b'.repeat(97));
    expect(clientName('  \t ')).toBe('unknown');
    expect(clientName(undefined)).toBe('unknown');
  });
});

describe('createUsageRecorder', () => {
  it('counts on the request path and writes aggregated rows per coordinate x client x UTC day when flushed', async () => {
    const store = memoryUsageStore();
    let now = T0;
    const recorder = createUsageRecorder(store, { now: () => now, flushIntervalMs: 60_000 });
    recorder.record(['Query.a', 'Query.b'], 'web');
    recorder.record(['Query.a'], 'web');
    now += 1000; // past midnight UTC: a new day
    recorder.record(['Query.a'], 'web');
    expect((await store.read('2000-01-01')).rows).toEqual([]); // nothing written yet
    await recorder.flush();
    const rows = (await store.read('2000-01-01')).rows.sort((a, b) => (a.day + a.coordinate).localeCompare(b.day + b.coordinate));
    expect(rows).toEqual([
      { coordinate: 'Query.a', client: 'web', day: '2026-03-10', count: 2, firstSeen: T0, lastSeen: T0 },
      { coordinate: 'Query.b', client: 'web', day: '2026-03-10', count: 1, firstSeen: T0, lastSeen: T0 },
      { coordinate: 'Query.a', client: 'web', day: '2026-03-11', count: 1, firstSeen: T0 + 1000, lastSeen: T0 + 1000 },
    ]);
    expect(recorder.status()).toMatchObject({ pendingUses: 0, flushes: 1, failedFlushes: 0, lostUses: 0 });
    await recorder.close();
  });

  it('flushes on its own every flushIntervalMs (10 s with no options)', async () => {
    vi.useFakeTimers();
    try {
      const store = memoryUsageStore();
      const written = async () => total((await store.read('2000-01-01')).rows);
      const recorder = createUsageRecorder(store);
      recorder.record(['Query.a'], 'web');
      await vi.advanceTimersByTimeAsync(9_999);
      expect(await written()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await written()).toBe(1);
      const quick = createUsageRecorder(store, { flushIntervalMs: 30 });
      quick.record(['Query.a'], 'web');
      await vi.advanceTimersByTimeAsync(30);
      expect(await written()).toBe(2);
      await Promise.all([recorder.close(), quick.close()]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stores a hostile client name cut and escaped', async () => {
    const store = memoryUsageStore();
    const recorder = createUsageRecorder(store);
    recorder.record(['Query.a'], `\u0007${'x'.repeat(10_240)}`);
    await recorder.close();
    const [r] = (await store.read('2000-01-01')).rows;
    expect(r!.client).toBe(`\\u0007${'x'.repeat(94)}`);
  });

  it('sends a failed batch again as it was, under the same flush id, before newer uses: an outage loses nothing', async () => {
    const { store, state } = flakyStore();
    const failures: FlushFailure[] = [];
    const recorder = createUsageRecorder(store, { flushIntervalMs: 60_000, onError: (_e, info) => failures.push(info) });
    state.down = true;
    recorder.record(['Query.a'], 'web');
    await recorder.flush();
    recorder.record(['Query.a'], 'web');
    recorder.record(['Query.b'], 'ios');
    await recorder.flush();
    expect(failures).toEqual([
      { store: 'flaky', uses: 1, outcome: 'kept' },
      { store: 'flaky', uses: 1, outcome: 'kept' },
    ]);
    expect(recorder.status()).toMatchObject({ pendingUses: 3, failedFlushes: 2, lostUses: 0, lastError: { message: 'store down' } });
    state.down = false;
    await recorder.flush();
    expect(total((await store.read('2000-01-01')).rows)).toBe(3);
    expect(recorder.status()).toMatchObject({ pendingUses: 0, lostUses: 0 });
    const [first, retry, again, newer] = state.flushIds;
    expect(first).toEqual(expect.any(String));
    expect([retry, again]).toEqual([first, first]);
    expect(newer).not.toBe(first);
    await recorder.close();
  });

  it('counts a batch once when its write is sent again after the store already added it (a lost reply)', async () => {
    const inner = memoryUsageStore();
    let replyLost = true;
    const store: UsageStore = {
      ...inner,
      description: 'lost reply',
      async add(rows, flushId) {
        await inner.add(rows, flushId);
        if (replyLost) {
          replyLost = false;
          throw new Error('Connection terminated unexpectedly');
        }
      },
    };
    const recorder = createUsageRecorder(store, { flushIntervalMs: 60_000, onError: () => undefined });
    recorder.record(['Query.a'], 'web');
    await recorder.flush();
    expect(recorder.status()).toMatchObject({ pendingUses: 1, failedFlushes: 1 });
    await recorder.flush();
    expect(total((await inner.read('2000-01-01')).rows)).toBe(1);
    await recorder.close();
  });

  it('retries a failed flush on its own, backing off, until the store takes it', async () => {
    vi.useFakeTimers();
    try {
      const { store, state } = flakyStore();
      const recorder = createUsageRecorder(store, { flushIntervalMs: 10_000, maxRetryDelayMs: 4000, onError: () => undefined });
      state.down = true;
      recorder.record(['Query.a'], 'web');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(state.adds).toBe(1);
      // 1 s, 2 s, 4 s, then 4 s (the cap) apart
      for (const [wait, adds] of [[999, 1], [1, 2], [2000, 3], [4000, 4], [4000, 5]] as const) {
        await vi.advanceTimersByTimeAsync(wait);
        expect(state.adds).toBe(adds);
      }
      state.down = false;
      await vi.advanceTimersByTimeAsync(4000);
      expect(total((await store.read('2000-01-01')).rows)).toBe(1);
      expect(recorder.status()).toMatchObject({ pendingUses: 0, lostUses: 0 });
      // Healthy again: back to the interval.
      recorder.record(['Query.a'], 'web');
      await vi.advanceTimersByTimeAsync(9999);
      expect(state.adds).toBe(6);
      await vi.advanceTimersByTimeAsync(1);
      expect(state.adds).toBe(7);
      await recorder.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops uses only past maxPendingRows, reports them at the next flush, and what is unwritten at a failing close', async () => {
    const { store, state } = flakyStore();
    const failures: FlushFailure[] = [];
    const recorder = createUsageRecorder(store, { maxPendingRows: 2, flushIntervalMs: 60_000, onError: (_e, info) => failures.push(info) });
    state.down = true;
    recorder.record(['Query.a', 'Query.b'], 'web');
    await recorder.flush();
    expect(failures).toEqual([{ store: 'flaky', uses: 2, outcome: 'kept' }]);
    recorder.record(['Query.c'], 'web'); // the failed batch's 2 rows fill the buffer
    recorder.record(['Query.a'], 'ios');
    expect(recorder.status()).toMatchObject({ pendingUses: 2, lostUses: 2 });
    await recorder.close();
    expect(failures.slice(1)).toEqual([
      { store: 'flaky', uses: 2, outcome: 'lost' },
      { store: 'flaky', uses: 2, outcome: 'kept' },
      { store: 'flaky', uses: 2, outcome: 'kept' },
      { store: 'flaky', uses: 2, outcome: 'lost' },
    ]);
    expect(recorder.status().lostUses).toBe(4);
  });

  it('warns on the console once per failure streak by default', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { store, state } = flakyStore();
    const recorder = createUsageRecorder(store);
    state.down = true;
    for (let i = 0; i < 3; i++) {
      recorder.record(['Query.a'], 'web');
      await recorder.flush();
    }
    state.down = false;
    await recorder.flush();
    await recorder.close();
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      'ergraph compat: usage store flaky failed (store down); 1 uses kept for the next flush',
      'ergraph compat: usage store flaky is writable again',
    ]);
  });

  it('caps client names and coordinates per day, counting the rest as (other), across flushes, and starts over the next day', async () => {
    const store = memoryUsageStore();
    let clock = Date.parse('2026-03-10T08:00:00Z');
    const recorder = createUsageRecorder(store, { maxClients: 3, maxCoordinates: 2, now: () => clock });
    for (let i = 0; i < 50; i++) {
      recorder.record(['Query.a'], `client-${i}`);
      if (i % 10 === 9) await recorder.flush(); // the cap holds for the day, not for one flush window
    }
    recorder.record(['Query.a', 'Query.b', 'Query.c', 'Query.d'], 'client-0');
    await recorder.flush();
    const day1 = (await store.read('2026-03-10')).rows.filter((r) => r.day === '2026-03-10');
    expect([...new Set(day1.map((r) => r.client))].sort()).toEqual([OTHER, 'client-0', 'client-1', 'client-2']);
    expect(total(day1.filter((r) => r.client === OTHER))).toBe(47);
    expect([...new Set(day1.map((r) => r.coordinate))].sort()).toEqual([OTHER, 'Query.a', 'Query.b']);
    expect(day1.find((r) => r.client === 'client-0' && r.coordinate === OTHER)!.count).toBe(2);
    expect(total(day1)).toBe(54); // nothing lost: every use is counted, under its name or (other)
    clock += 86_400_000;
    recorder.record(['Query.c'], 'client-49');
    await recorder.close();
    const day2 = (await store.read('2026-03-11')).rows.filter((r) => r.day === '2026-03-11');
    expect(day2.map((r) => [r.client, r.coordinate])).toEqual([['client-49', 'Query.c']]);
  });

  it('with no options, keeps 1000 client names and 10 000 coordinates a day, the rest as (other)', async () => {
    const store = memoryUsageStore();
    const recorder = createUsageRecorder(store, { now: () => Date.parse('2026-03-10T08:00:00Z') });
    for (let i = 0; i <= 1_000; i++) recorder.record(['Query.a'], `client-${i}`);
    // Query.a is the day's first coordinate: 9,999 of these fit beside it.
    recorder.record(Array.from({ length: 10_001 }, (_, i) => `Query.f${i}`), 'client-0');
    await recorder.close();
    const rows = (await store.read('2026-03-10')).rows;
    const clients = new Set(rows.map((r) => r.client));
    expect([clients.size, clients.has('client-999'), clients.has('client-1000'), clients.has(OTHER)]).toEqual([1_001, true, false, true]);
    expect(rows.find((r) => r.client === OTHER)).toMatchObject({ coordinate: 'Query.a', count: 1 });
    const coordinates = new Set(rows.map((r) => r.coordinate));
    expect([coordinates.size, coordinates.has('Query.f9998'), coordinates.has('Query.f9999'), coordinates.has(OTHER)]).toEqual([10_001, true, false, true]);
    expect(rows.find((r) => r.coordinate === OTHER)).toMatchObject({ client: 'client-0', count: 2 });
  });

  it('adds up uses from processes whose clocks disagree: nothing lost, each on the day its clock said', async () => {
    const store = memoryUsageStore();
    const base = Date.parse('2026-03-10T12:00:00Z');
    const ahead = createUsageRecorder(store, { now: () => base + 13 * 3_600_000 }); // 2026-03-11 01:00
    const behind = createUsageRecorder(store, { now: () => base - 13 * 3_600_000 }); // 2026-03-09 23:00
    const exact = createUsageRecorder(store, { now: () => base });
    for (const [recorder, n] of [[ahead, 5], [behind, 7], [exact, 11]] as const) for (let i = 0; i < n; i++) recorder.record(['Query.a'], 'web');
    // Flushed in reverse order of their clocks: the upsert is order-independent.
    await ahead.close();
    await exact.close();
    await behind.close();
    const rows = (await store.read('2000-01-01')).rows;
    expect(Object.fromEntries(rows.map((r) => [r.day, r.count]))).toEqual({ '2026-03-09': 7, '2026-03-10': 11, '2026-03-11': 5 });
    const compat = createCompatHandler(createV6Handler(), { usage: createUsageRecorder(store) });
    const report = await compat.report({ now: new Date(base), days: 7 });
    const field = report.fields.find((f) => f.coordinate === 'Query.a')!;
    expect(field.count).toBe(23);
    expect(report.window.days.at(-1)).toBe('2026-03-11'); // the day of the clock running ahead is on the axis
    expect(field.lastUsed).toBe(new Date(base + 13 * 3_600_000).toISOString());
  });
});

describe('compat with a usage database that is down at start', () => {
  it('serves requests, and the report (JSON and page) says the store cannot be read', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = await openUsageStore('postgres://postgres@127.0.0.1:1/down', { timeoutMs: 1000 });
    const recorder = createUsageRecorder(store, { flushIntervalMs: 60_000 });
    // The report is an operator's page (loopback only by default): this test is the operator.
    const app = compatApp(createCompatHandler(createV6Handler(), { usage: recorder }), { usageAccess: () => true });
    const res = await app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-name': 'web' },
      body: JSON.stringify({ query: '{ userById(id: 1) { name } }' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ userById: { name: 'Ada' } });

    const report = await app.request('/graphql/usage');
    expect(report.status).toBe(503);
    const json = await report.json();
    // The route names no host and quotes no error (the server log does): only that it cannot read.
    expect(json.store).toEqual({ ok: false });
    expect(json.verdict).toMatchObject({ status: 'unknown', message: 'no verdict: the usage store cannot be read' });
    expect(json.recorder).toMatchObject({ pendingUses: 1, lostUses: 0, lastErrorAt: expect.any(String) });
    expect(JSON.stringify(json)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres:/);

    const page = await app.request('/graphql/usage', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    const html = await page.text();
    expect(html).toContain('No verdict');
    expect(html).toContain('The usage store could not be read');
    await recorder.close();
    expect(recorder.status().lostUses).toBe(1);
    await store.close();
  });
});
