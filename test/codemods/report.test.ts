/**
 * The dry run's diffs are bounded in time: the exact diff (Myers, O(lines x changes)) gives way to
 * one hunk from the first changed line to the last when it takes longer than its budget, and that
 * hunk applies as the exact diff does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, createTwoFilesPatch } from 'diff';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIFF_TIMEOUT_MS, fileDiff } from '../../codemods/runner/report.js';
import { runMigration } from '../../codemods/runner/run.js';
import type { Transform } from '../../codemods/types.js';

const generated = (lines: number, version: 'v5' | 'v6', eol = '\n') =>
  Array.from({ length: lines }, (_, i) => (version === 'v5' ? `export const q${i} = gql\`{ userGetAll(limit: ${i}) { id } }\`;` : `export const q${i} = gql\`{ User { userGetAll: getAll(limit: ${i}) { id } } }\`;`)).join(eol) + eol;

/**
 * The diff's clock (jsdiff reads `Date.now()` once per step of the exact diff) made to move 1 ms
 * per reading: its time budget is then a number of steps, the same on any machine.
 */
function steppingClock(): { read(): number } {
  let now = 0;
  vi.spyOn(Date, 'now').mockImplementation(() => now++);
  return { read: () => now };
}
afterEach(() => vi.restoreAllMocks());

describe('dry-run diffs', () => {
  it('are the exact unified diff when it comes in time', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const after = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n';
    expect(fileDiff('x.ts', before, after)).toBe(createTwoFilesPatch('a/x.ts', 'b/x.ts', before, after, undefined, undefined, { context: 3 }));
  });

  it('become one hunk that applies when the exact diff runs out of time', () => {
    // Unchanged lines around the changed ones give the hunk its context.
    const before = `// head 1\n// head 2\n// head 3\n// head 4\n${generated(3000, 'v5')}// tail 1\n// tail 2\n// tail 3\n// tail 4`;
    const after = `// head 1\n// head 2\n// head 3\n// head 4\n${generated(3000, 'v6')}// tail 1\n// tail 2\n// tail 3\n// tail 4`;
    steppingClock();
    const patch = fileDiff('gen.ts', before, after, 1);
    expect(patch).toContain('\n@@ -2,3006 +2,3006 @@\n // head 2\n // head 3\n // head 4\n-export const q0 = ');
    expect(patch.endsWith('\n // tail 1\n // tail 2\n // tail 3\n')).toBe(true);
    expect(applyPatch(before, patch)).toBe(after);
    // A last line without a line break is said so, as in any unified diff.
    const short = fileDiff('gen.ts', generated(3000, 'v5').trimEnd(), generated(3000, 'v6').trimEnd(), 1);
    expect(short).toContain('\n\\ No newline at end of file\n+export const q0 = ');
    expect(applyPatch(generated(3000, 'v5').trimEnd(), short)).toBe(generated(3000, 'v6').trimEnd());
  });

  it('give up at their budget on a file where every line changed', () => {
    const clock = steppingClock();
    const patch = fileDiff('gen.ts', generated(20_000, 'v5', '\r\n'), generated(20_000, 'v6', '\r\n'));
    expect(patch).toContain('@@ -1,20000 +1,20000 @@');
    // The exact diff needs 40,000 steps here; it stopped when its budget (in clock readings) ran out.
    expect(clock.read()).toBeGreaterThan(DIFF_TIMEOUT_MS);
    expect(clock.read()).toBeLessThan(DIFF_TIMEOUT_MS + 10);
  });
});

describe('a run over a file that reports a great deal', () => {
  it('gathers 200,000 notes, manual items and facts of one file (as a file of that many documents gives)', async () => {
    const many = 200_000;
    const loud: Transform = {
      name: 'loud',
      from: '5',
      to: '6',
      description: 'reports a lot',
      extensions: ['.txt'],
      scan: () => Array.from({ length: many }, (_, i) => i),
      apply: (source, { facts }) => ({
        output: `${source}!`,
        notes: Array.from({ length: many }, (_, i) => `note ${i}`),
        manual: Array.from({ length: many }, (_, i) => ({ line: 1, column: i + 1, reason: `fact ${facts[i]}` })),
      }),
    };
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-loud-'));
    try {
      writeFileSync(join(dir, 'a.txt'), 'text');
      const report = await runMigration({ transforms: [loud], paths: [dir], cwd: dir, dryRun: true, gitignore: false, workers: 0 });
      const [file] = report.files;
      expect(file!.error).toBeUndefined();
      expect(file!.notes).toHaveLength(many);
      expect(file!.manual[many - 1]).toEqual({ line: 1, column: many, reason: `fact ${many - 1}`, transform: 'loud' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
