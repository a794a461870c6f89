/**
 * `LoaderPool.loadAll`: the compiled executor's way to load a level's keys without a promise per
 * key. For the DataLoaders the pool makes it bypasses DataLoader, so each case here runs the
 * same keys through `loadAll` and through a plain DataLoader's `loadMany` with the same options
 * and expects the same values and the same batch calls.
 */
import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { LoaderPool, type LoaderOptions } from '../../src/resolver/pool.js';

type Step = readonly number[] | 'clear';

/** A batch function that records its calls; key 13 fails, keys over 100 fail the whole call. */
function spy() {
  const calls: number[][] = [];
  const fn = async function users(keys: readonly number[]) {
    calls.push([...keys]);
    if (keys.some((k) => k > 100)) throw new Error(`store down for ${keys.join(',')}`);
    return keys.map((k) => (k === 13 ? new Error('no user 13') : k === 7 ? null : { id: k }));
  };
  return { calls, fn };
}

const shown = (values: unknown[]) => values.map((v) => (v instanceof Error ? `Error: ${v.message}` : v));

async function both(steps: readonly Step[], options?: LoaderOptions) {
  const ours = spy();
  const pool = new LoaderPool(options ? { loaderOptions: new Map([[ours.fn, options]]) } : {});
  const loader = pool.get<number, unknown>(ours.fn) as DataLoader<unknown, unknown>;
  const theirs = spy();
  const reference = new DataLoader<number, unknown>(theirs.fn, options);
  const got: unknown[] = [];
  const expected: unknown[] = [];
  for (const step of steps) {
    if (step === 'clear') {
      pool.clearAll();
      reference.clearAll();
      continue;
    }
    got.push(shown(await pool.loadAll(loader, step)));
    expected.push(shown(await reference.loadMany(step)));
  }
  expect(got).toEqual(expected);
  expect(ours.calls).toEqual(theirs.calls);
  return { got, calls: ours.calls, loader, pool };
}

describe('LoaderPool.loadAll agrees with DataLoader.loadMany', () => {
  it('loads keys once, from the cache afterwards, and keeps key order', async () => {
    const { got, calls } = await both([[3, 1, 2], [2, 4, 1], [4]]);
    expect(calls).toEqual([[3, 1, 2], [4]]);
    expect(got[1]).toEqual([{ id: 2 }, { id: 4 }, { id: 1 }]);
  });

  it('an Error value fails its key and is cached; null stays null', async () => {
    const { got, calls } = await both([[13, 7, 1], [13, 7]]);
    expect(got[0]).toEqual(['Error: no user 13', null, { id: 1 }]);
    expect(calls).toEqual([[13, 7, 1]]);
  });

  it('a failed call fails every key of it and caches none of them', async () => {
    const { got, calls } = await both([[1, 101], [1, 101]]);
    expect(got[0]).toEqual(['Error: store down for 1,101', 'Error: store down for 1,101']);
    expect(calls).toEqual([[1, 101], [1, 101]]);
  });

  it('maxBatchSize splits the keys; cache: false loads again; clearAll forgets', async () => {
    expect((await both([[1, 2, 3, 4, 5]], { maxBatchSize: 2 })).calls).toEqual([[1, 2], [3, 4], [5]]);
    expect((await both([[1, 2], [2, 3]], { cache: false })).calls).toEqual([[1, 2], [2, 3]]);
    expect((await both([[1, 2], 'clear', [2]])).calls).toEqual([[1, 2], [2]]);
  });

  it("shares the cache with the DataLoader's own load and prime", async () => {
    const { fn, calls } = spy();
    const pool = new LoaderPool();
    const loader = pool.get<number, unknown>(fn);
    loader.prime(9, { id: 9, primed: true });
    loader.prime(13, new Error('primed failure'));
    expect(shown(await pool.loadAll(loader as DataLoader<unknown, unknown>, [9, 13, 1]))).toEqual([
      { id: 9, primed: true },
      'Error: primed failure',
      { id: 1 },
    ]);
    expect(await loader.load(1)).toEqual({ id: 1 });
    await expect(loader.load(13)).rejects.toThrow('primed failure');
    expect(calls).toEqual([[1]]);
  });

  it('caches the values a batch returned, even when the batch function changes its array afterwards', async () => {
    // The pool enters a batch's values into its cache when the cache is next read, not when they
    // arrive: it must hold what the batch returned then, not the array as it is later.
    const returned: unknown[][] = [];
    const calls: number[][] = [];
    const fn = async (keys: readonly number[]) => {
      calls.push([...keys]);
      const out = keys.map((k) => ({ id: k }));
      returned.push(out);
      return out;
    };
    const pool = new LoaderPool();
    const loader = pool.get<number, unknown>(fn) as DataLoader<unknown, unknown>;
    expect(await pool.loadAll(loader, [1, 2])).toEqual([{ id: 1 }, { id: 2 }]);
    returned[0]!.fill({ id: 'reused' }); // e.g. a batch function that recycles its arrays
    expect(await pool.loadAll(loader, [2, 1, 3])).toEqual([{ id: 2 }, { id: 1 }, { id: 3 }]);
    expect(await (loader as DataLoader<number, unknown>).load(1)).toEqual({ id: 1 });
    expect(calls).toEqual([[1, 2], [3]]);
  });

  it('given DataLoader instances load through their own loadMany', async () => {
    const { fn, calls } = spy();
    let loadManyCalls = 0;
    const given = new DataLoader<unknown, unknown>(fn as never);
    const loadMany = given.loadMany.bind(given);
    given.loadMany = (keys) => {
      loadManyCalls++;
      return loadMany(keys);
    };
    const pool = new LoaderPool({ loaderInstances: new Map([[fn, given]]) });
    expect(await pool.loadAll(pool.get(fn), [1, 2])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(loadManyCalls).toBe(1);
    expect(calls).toEqual([[1, 2]]);
  });
});
