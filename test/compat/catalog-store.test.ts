/**
 * The operation catalog in each usage store (memory, PGlite, PostgreSQL through both drivers):
 * the same merge, the same bounds — by count and by bytes, least used out first — and those
 * bounds' defaults, with no options given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG_BYTES, DEFAULT_CATALOG_OPERATIONS, type OperationRow, type UsageStore } from 'ergraph/compat';
import { usageStoreTargets } from './store-targets.js';

const T0 = Date.parse('2026-03-10T12:00:00Z');

function op(client: string, id: string, count: number, extra: Partial<OperationRow> = {}): OperationRow {
  return {
    client,
    operationId: id.padEnd(64, '.'),
    operationName: null,
    kind: 'query',
    text: `{ ${id} }`,
    fields: ['Query.userGetAll'],
    persistedId: null,
    v6PersistedId: null,
    v6: { text: `{ User { ${id} } }`, moves: [{ from: [id], to: ['User', id] }] },
    count,
    firstSeen: T0,
    lastSeen: T0,
    shadow: { same: 0, differs: 0, path: null, lastRunAt: null, lastDiffersAt: null },
    ...extra,
  };
}

const targets = await usageStoreTargets();

it('documents its defaults: 1000 operations, 4 MiB of texts', () => {
  expect([DEFAULT_CATALOG_OPERATIONS, DEFAULT_CATALOG_BYTES]).toEqual([1000, 4 * 1024 * 1024]);
});

describe.each(targets)('operation catalog on $name', { timeout: 60_000 }, (target) => {
  let store: UsageStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await target.open());
  });
  afterAll(() => close());
  const read = async (client: string) => (await store.readOperations!({ client })).map((r) => ({ ...r, operationId: r.operationId.replace(/\.+$/, '') }));

  it('adds uses and shadow verdicts per client and operation; another v6 form starts its tally over', async () => {
    const ran = (same: number, differs: number, path: string | null, at: number) => ({ same, differs, path, lastRunAt: at, lastDiffersAt: differs > 0 ? at : null });
    await store.add([], 'merge-1', [op('web', 'a', 2, { lastSeen: T0 + 10, persistedId: 'old-1', v6PersistedId: 'new-1' }), op('ios', 'a', 1)]);
    await store.add([], 'merge-2', [op('web', 'a', 3, { firstSeen: T0 - 5, shadow: ran(2, 1, 'data.a.name', T0 + 20) })]);
    await store.add([], 'merge-3', [op('web', 'a', 0, { shadow: ran(1, 0, null, T0 + 30) })]);
    const [web] = await read('web');
    expect(web).toMatchObject({
      count: 5,
      firstSeen: T0 - 5,
      lastSeen: T0 + 10,
      persistedId: 'old-1',
      v6PersistedId: 'new-1',
      shadow: { same: 3, differs: 1, path: 'data.a.name', lastRunAt: T0 + 30, lastDiffersAt: T0 + 20 },
    });
    expect((await read('ios'))[0]).toMatchObject({ count: 1, shadow: { same: 0, differs: 0, path: null } });

    // The rewrite changed (an upgrade): the verdicts were about the old form.
    await store.add([], 'merge-4', [op('web', 'a', 1, { v6: { text: '{ User { a: getAll } }', moves: [] }, shadow: ran(1, 0, null, T0 + 40) })]);
    expect((await read('web'))[0]).toMatchObject({ count: 6, v6: { text: '{ User { a: getAll } }' }, shadow: { same: 1, differs: 0, path: null, lastDiffersAt: null } });
    // Why v5-to-v6 leaves it for manual work is kept as the v6 form.
    await store.add([], 'merge-5', [op('web', 'p', 1, { v6: { problem: 'give this field another alias' } })]);
    expect((await read('web')).find((r) => r.operationId === 'p')?.v6).toEqual({ problem: 'give this field another alias' });
  });

  it('adds a batch sent again under the same flush id once, operations and counts together', async () => {
    const batch = [op('retry', 'r', 4)];
    await store.add([{ coordinate: 'Query.userGetAll', client: 'retry', day: '2026-03-10', count: 4, firstSeen: T0, lastSeen: T0 }], 'flush-r', batch);
    await store.add([{ coordinate: 'Query.userGetAll', client: 'retry', day: '2026-03-10', count: 4, firstSeen: T0, lastSeen: T0 }], 'flush-r', batch);
    expect((await read('retry')).map((r) => r.count)).toEqual([4]);
  });

  it(`keeps ${DEFAULT_CATALOG_OPERATIONS} operations by default, least used out first (ties: seen longest ago)`, async () => {
    // One more operation used 10 times than fit, and one used once (the latest seen); the earlier tests' rows are used less.
    const rows = Array.from({ length: DEFAULT_CATALOG_OPERATIONS + 2 }, (_, i) => op('count', `n${i}`, 10, { lastSeen: T0 + 1000 + i }));
    rows[5] = op('count', 'n5', 1, { lastSeen: T0 + 5000 });
    rows[7] = op('count', 'n7', 10, { lastSeen: T0 });
    await store.add([], 'bound-count', rows);
    const kept = (await store.readOperations!()).filter((r) => r.client === 'count').map((r) => r.operationId.replace(/\.+$/, ''));
    expect(await store.readOperations!()).toHaveLength(DEFAULT_CATALOG_OPERATIONS);
    expect(kept).toHaveLength(DEFAULT_CATALOG_OPERATIONS);
    expect(kept).not.toContain('n5');
    expect(kept).not.toContain('n7');
    expect(kept).toContain('n6');
  });

  it(`keeps ${DEFAULT_CATALOG_BYTES / 1024 / 1024} MiB of operation texts by default, least used out first; a text alone past it is never kept`, async () => {
    // 8 texts of 0.6 MiB (v5 and v6 text: 1.2 MiB a row) — three fit, the three most used.
    const big = (i: number, count: number) => {
      const filler = String(i).repeat(600 * 1024);
      return op('bytes', `b${i}`, count, { text: filler, v6: { text: filler, moves: [] } });
    };
    const huge = op('bytes', 'huge', 1000, { text: 'x'.repeat(DEFAULT_CATALOG_BYTES + 1), v6: { text: '', moves: [] } });
    await store.add([], 'bound-bytes', [...Array.from({ length: 8 }, (_, i) => big(i, 100 + i)), huge]);
    const kept = await store.readOperations!();
    expect(kept.map((r) => r.operationId.replace(/\.+$/, ''))).toEqual(['b7', 'b6', 'b5']);
    const bytes = kept.reduce((n, r) => n + Buffer.byteLength(r.text) + ('text' in r.v6 ? Buffer.byteLength(r.v6.text) : 0), 0);
    expect(bytes).toBeLessThanOrEqual(DEFAULT_CATALOG_BYTES);
  });

  it('reads operations last seen since a time', async () => {
    await store.add([], 'since', [op('since', 'old', 50, { lastSeen: T0 - 86_400_000 }), op('since', 'new', 50, { lastSeen: T0 + 86_400_000 })]);
    expect((await store.readOperations!({ client: 'since', since: T0 })).map((r) => r.operationId.replace(/\.+$/, ''))).toEqual(['new']);
  });
});
