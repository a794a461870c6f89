/**
 * A sabotaged rewrite (issue 46.5): the v5 -> v6 document rewrite is made to drop each method's
 * arguments, as a rewrite bug would. The compat endpoint's own answers do not use that rewrite and
 * stay right; its shadow runs use exactly it, so they must report the operation as differing, at
 * the first path where the answers part, and the catalog must say so.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCompatHandler, createUsageRecorder, memoryUsageStore } from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

vi.mock('../../compat/v6-form/document.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../compat/v6-form/document.js')>();
  return {
    ...real,
    rewriteDocument: (...args: Parameters<typeof real.rewriteDocument>) => {
      const rewrite = real.rewriteDocument(...args);
      return { ...rewrite, edits: rewrite.edits.map((e) => ({ ...e, text: e.text.replace(/\(limit: [^)]*\)/g, '') })) };
    },
  };
});

describe('a sabotaged v5 -> v6 rewrite', () => {
  it('is reported by the shadow compare as "differs", with the first differing path', async () => {
    const store = memoryUsageStore();
    const usage = createUsageRecorder(store, { flushIntervalMs: 60_000 });
    const compat = createCompatHandler(createV6Handler(), { usage, shadow: { sample: 1 } });
    const response = await compat.execute('query Few { userGetAll(limit: 2) { name } }', { client: 'partner' });
    // The client's answer is compat's, right as ever: two users.
    expect(response).toEqual({ data: { userGetAll: [{ name: 'Ada' }, { name: 'Brian' }] }, errors: null });
    await compat.shadow.idle();
    await usage.flush();
    const [row] = await store.readOperations!({ client: 'partner' });
    // The sabotaged v6 form lost `limit: 2`: three users, the third is where the answers part.
    expect(row!.v6).toMatchObject({ text: 'query Few {\n  User {\n    userGetAll: getAll {\n      name\n    }\n  }\n}' });
    expect(row!.shadow).toMatchObject({ same: 0, differs: 1, path: 'data.userGetAll[2]' });
    expect(compat.shadow.status()).toMatchObject({ differs: 1, same: 0, failed: 0 });
    await usage.close();
  });
});
