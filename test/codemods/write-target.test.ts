/**
 * A run writes the file it read and no other (issue 45.4): each name is opened without following
 * a link and checked to be the file read (device and inode) before a byte goes to it. The
 * `onWritten` hook, called after each file, is where each case changes the next name — no timing.
 * A link put there is the bin's test (test/security/codemods.test.ts); these are the other ways a
 * name can change under a run.
 */
import { linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMigration } from 'ergraph-migrate';

const V4 = "import { ErDiagram } from 'ergraph';\nexport const diagram = new ErDiagram({ configs: [] });\n";
const root = mkdtempSync(join(tmpdir(), 'ergraph-write-target-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** src/a.ts and src/b.ts (v4) and a file outside; `change` runs once a.ts is written, before b.ts is. */
async function run(change: (b: string, outside: string) => void) {
  const dir = mkdtempSync(join(root, 'case-'));
  const outside = join(dir, 'outside.ts');
  writeFileSync(outside, V4);
  mkdirSync(join(dir, 'src'));
  for (const name of ['a.ts', 'b.ts']) writeFileSync(join(dir, 'src', name), V4);
  const b = join(dir, 'src', 'b.ts');
  const report = await runMigration({
    transforms: ['v4-to-v5'],
    paths: ['src'],
    cwd: dir,
    workers: 0,
    onWritten: (abs) => {
      if (abs.endsWith('a.ts')) change(b, outside);
    },
  });
  return { report, dir, outside, b };
}

describe('a run writes the file it read', () => {
  it('does not write over another file renamed onto a listed name (here a hard link to a file outside)', async () => {
    const { report, outside, b } = await run((target, far) => {
      linkSync(far, `${target}.new`);
      renameSync(`${target}.new`, target);
    });
    expect(readFileSync(outside, 'utf8')).toBe(V4);
    expect(readFileSync(b, 'utf8')).toBe(V4);
    expect(report.files.find((f) => f.file === 'src/b.ts')).toMatchObject({
      changed: false,
      error: 'not written: it was replaced by another file since the run read it: not written over',
    });
    expect(report.summary).toMatchObject({ changed: 1, errors: 1 });
  });

  it('holds back a file that gained a hard link after it was read, as one that had it when listed', async () => {
    const { report, outside, b } = await run((target, far) => {
      rmSync(far);
      linkSync(target, far);
    });
    expect(readFileSync(outside, 'utf8')).toBe(V4);
    expect(readFileSync(b, 'utf8')).toBe(V4);
    expect(report.skipped).toEqual([{ file: 'src/b.ts', reason: expect.stringMatching(/^not written: has 2 hard links: not rewritten in place/) }]);
    expect(report.summary).toMatchObject({ changed: 1, errors: 0, skipped: 1 });
  });

  it('says a name that is gone was not written, and creates nothing there', async () => {
    const { report, b } = await run((target) => rmSync(target));
    expect(() => readFileSync(b)).toThrow(/ENOENT/);
    expect(report.files.find((f) => f.file === 'src/b.ts')?.error).toBe('not written: it was removed or renamed since the run read it');
  });
});
