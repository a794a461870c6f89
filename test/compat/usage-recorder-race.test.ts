/**
 * A flush asked for while one is writing (the interval fires during a slow write, or close()
 * does) must write what was recorded meanwhile before it resolves (`again` in usage-recorder.ts).
 * The store's first write is held by the test until the second flush has been asked for: the
 * order is the test's, not a timer's, so without the rerun the test is red every time.
 */
import { describe, expect, it } from 'vitest';
import { createUsageRecorder, type UsageRow, type UsageStore } from 'ergraph/compat';

function heldStore() {
  const batches: string[][] = [];
  let release!: () => void;
  const firstHeld = new Promise<void>((resolve) => (release = resolve));
  let writing!: () => void;
  const firstStarted = new Promise<void>((resolve) => (writing = resolve));
  const store: UsageStore = {
    description: 'held',
    async track() {},
    async add(rows: readonly UsageRow[]) {
      batches.push(rows.map((r) => r.coordinate).sort());
      if (batches.length === 1) {
        writing();
        await firstHeld;
      }
    },
    async read() {
      throw new Error('not read here');
    },
    async close() {},
  };
  return { store, batches, release, firstStarted };
}

describe('a flush during a flush', () => {
  it('resolves only after writing what was recorded while the first one wrote', async () => {
    const { store, batches, release, firstStarted } = heldStore();
    const recorder = createUsageRecorder(store, { flushIntervalMs: 3_600_000 });
    try {
      recorder.record(['Query.a'], 'web');
      const first = recorder.flush();
      await firstStarted;
      recorder.record(['Query.b'], 'web');
      const second = recorder.flush();
      release();
      await Promise.all([first, second]);
      expect(batches).toEqual([['Query.a'], ['Query.b']]);
      expect(recorder.status()).toMatchObject({ pendingUses: 0, flushes: 2 });
    } finally {
      await recorder.close();
    }
  });
});
