/**
 * No silent skips (issue 45.7): a suite that cannot run here is listed at the end of `npm test`
 * (test/support/skips-report.ts). Every suite gated with `runIf`/`skipIf` takes its condition
 * from a gate that records the skip, and the PostgreSQL gate records one when the server is down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgServerUp } from './support/pg-server.js';
import { REPO, type Skip } from './support/skips.js';

/** The gates that call recordSkip when they say no. */
const RECORDING_GATES = ['pgServerUp(', 'databaseTargets(', 'requireChromium(', 'recordSkip('];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' || e.name === 'fixtures' ? [] : testFiles(join(dir, e.name))) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

describe('skips', () => {
  it('every suite gated with runIf/skipIf has its condition from a gate that records the skip', () => {
    const unrecorded = testFiles(join(REPO, 'test'))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return /\.(runIf|skipIf)\(/.test(text) && !RECORDING_GATES.some((gate) => text.includes(gate));
      })
      .map((file) => relative(REPO, file));
    expect(unrecorded).toEqual([]);
  });

  it('the PostgreSQL gate records the suite as skipped when no server answers, and throws when one is required', async () => {
    const recorded: Omit<Skip, 'file'>[] = [];
    const url = 'postgres://postgres@127.0.0.1:1/none'; // nothing listens on port 1
    const record = (what: string, why: string, requiredBy: string) => void recorded.push({ what, why, requiredBy });
    expect(await pgServerUp('a suite', { url, env: {}, record })).toBe(false);
    expect(recorded).toEqual([{ what: 'a suite', why: expect.stringMatching(/^no PostgreSQL server answers at postgres:\/\/postgres@127\.0\.0\.1:1\/none \(.*ECONNREFUSED/), requiredBy: 'ERGRAPH_REQUIRE_PG' }]);
    await expect(pgServerUp('a suite', { url, env: { ERGRAPH_REQUIRE_PG: '1' }, record })).rejects.toThrow(/ERGRAPH_REQUIRE_PG is set/);
    expect(recorded).toHaveLength(1);
  });
});
