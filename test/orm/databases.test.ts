import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseTargets } from './databases.js';

// Nothing listens on port 1: the connection is refused at once.
const DOWN = 'postgres://postgres@127.0.0.1:1/test';

describe('choosing the databases the SQL suites run on', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs on PGlite only when the server is down, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const targets = await databaseTargets(DOWN, {});
    expect(targets.map((t) => t.name)).toEqual(['pglite']);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toMatch(/127\.0\.0\.1:1\/test is unreachable .*PGlite only/);
  });

  it('fails when ERGRAPH_REQUIRE_PG is set and the server is down', async () => {
    await expect(databaseTargets(DOWN, { ERGRAPH_REQUIRE_PG: '1' })).rejects.toThrow(/ERGRAPH_REQUIRE_PG is set/);
  });
});
