import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUsageStore, type UsageRow, type UsageStore } from 'ergraph/compat';
import { usageStoreTargets } from './store-targets.js';

const T0 = Date.parse('2026-03-10T12:00:00Z');
const row = (coordinate: string, client: string, day: string, count: number, firstSeen: number, lastSeen = firstSeen): UsageRow => ({
  coordinate,
  client,
  day,
  count,
  firstSeen,
  lastSeen,
});

const sortRows = (rows: UsageRow[]) => [...rows].sort((a, b) => `${a.day}${a.client}${a.coordinate}`.localeCompare(`${b.day}${b.client}${b.coordinate}`));

const targets = await usageStoreTargets();

// PGlite opens in seconds, more on a busy machine: a minute per test bounds it without flaking.
describe.each(targets)('usage store on $name', { timeout: 60_000 }, (target) => {
  let store: UsageStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await target.open());
  });
  afterAll(() => close());

  it('adds counts and merges first/last seen per coordinate x client x day, in any order', async () => {
    // Two processes' batches for the same cells, arriving in the "wrong" order.
    await store.add([row('Query.a', 'web', '2026-03-10', 3, T0 + 5000, T0 + 9000), row('Query.a', 'web', '2026-03-10', 1, T0 + 1000, T0 + 1000)]);
    await store.add([row('Query.a', 'web', '2026-03-10', 2, T0 + 2000, T0 + 20_000), row('Query.a', 'ios', '2026-03-11', 4, T0 + 86_400_000)]);
    await store.add([row('Query.b', 'web', '2026-02-01', 7, T0 - 37 * 86_400_000, T0 - 37 * 86_400_000 + 10)]);
    const snap = await store.read('2026-03-01');
    expect(sortRows(snap.rows)).toEqual([
      row('Query.a', 'web', '2026-03-10', 6, T0 + 1000, T0 + 20_000),
      row('Query.a', 'ios', '2026-03-11', 4, T0 + 86_400_000),
    ]);
    // Totals reach back past the window: last use of Query.b is known though it is out of it.
    const totals = Object.fromEntries(snap.totals.map((t) => [`${t.coordinate} ${t.client}`, t]));
    expect(totals['Query.b web']).toEqual({ coordinate: 'Query.b', client: 'web', count: 7, firstSeen: T0 - 37 * 86_400_000, lastSeen: T0 - 37 * 86_400_000 + 10 });
    expect(totals['Query.a web']!.count).toBe(6);
  });

  it('keeps concurrent batches exact (overlapping keys, several writers at once)', async () => {
    const batch = (i: number) =>
      ['Query.x', 'Query.y', 'Mutation.z'].flatMap((c) => ['a', 'b', 'c'].map((client) => row(c, client, '2026-04-01', i + 1, T0 + i, T0 + i)));
    await Promise.all(Array.from({ length: 12 }, (_, i) => store.add(batch(i))));
    const snap = await store.read('2026-04-01');
    expect(snap.rows).toHaveLength(9);
    // 1 + 2 + ... + 12 per cell
    for (const r of snap.rows) expect(r).toMatchObject({ count: 78, firstSeen: T0, lastSeen: T0 + 11 });
  });

  it('adds a batch sent again under the same flush id once (a resend after a lost reply)', async () => {
    const batch = [row('Query.once', 'web', '2026-02-15', 5, T0), row('Query.once', 'ios', '2026-02-15', 2, T0)];
    const id = `flush-${target.name}-${T0}`;
    await store.add(batch, id);
    await store.add(batch, id);
    await store.add(batch, `${id}-next`);
    const counts = (await store.read('2026-02-15')).rows.filter((r) => r.coordinate === 'Query.once').map((r) => `${r.client} ${r.count}`);
    expect(counts.sort()).toEqual(['ios 4', 'web 10']);
  });

  it('tracks coordinates: replacements updated, the first tracking time kept', async () => {
    await store.track([{ coordinate: 'Query.userGetAll', replacement: 'User.old', since: T0 }]);
    await store.track([{ coordinate: 'Query.userGetAll', replacement: 'User.getAll', usage: '{ User { getAll } }', since: T0 + 5000 }]);
    const tracked = (await store.read('2026-01-01')).tracked.find((t) => t.coordinate === 'Query.userGetAll');
    expect(tracked).toEqual({ coordinate: 'Query.userGetAll', replacement: 'User.getAll', usage: '{ User { getAll } }', since: T0 });
  });

  it('stores odd client names verbatim (escaping is the recorder’s and the renderers’ job)', async () => {
    const name = `<img src=x onerror=alert(1)> "quoted" \\u0007 ünïcode ${'x'.repeat(50)}`;
    await store.add([row('Query.odd', name, '2026-05-01', 1, T0)]);
    expect((await store.read('2026-05-01')).rows.map((r) => r.client)).toEqual([name]);
  });
});

describe('openUsageStore', { timeout: 60_000 }, () => {
  it('opens an embedded PGlite directory that keeps its data across opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-usage-'));
    try {
      const first = await openUsageStore(`pglite:${dir}`);
      // Nothing written yet: reading finds no tables and says so as an empty store.
      expect(await first.read('2026-01-01')).toEqual({ tracked: [], rows: [], totals: [] });
      await first.add([row('Query.a', 'web', '2026-03-10', 2, T0)]);
      await first.close();
      const second = await openUsageStore(`pglite:${dir}`);
      expect((await second.read('2026-03-01')).rows.map((r) => r.count)).toEqual([2]);
      expect(second.description).toBe(`PGlite ${dir}`);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('connects lazily: a server that is down fails the first read with its error, never the open', async () => {
    const store = await openUsageStore('postgres://postgres:secret@127.0.0.1:1/nowhere', { timeoutMs: 2000 });
    expect(store.description).toBe('PostgreSQL postgres://postgres@127.0.0.1:1/nowhere');
    await expect(store.read('2026-01-01')).rejects.toThrow(/ECONNREFUSED|connect/);
    await store.close();
  });

  it('refuses URLs it does not know, without echoing a password', async () => {
    await expect(openUsageStore('mysql://root:hunter2@db/x')).rejects.toThrow(/unsupported usage database "mysql:\/\/root@db\/x"/);
    await expect(openUsageStore('pglite:')).rejects.toThrow(/name the PGlite data directory/);
  });
});
