/**
 * Which files a run reads (`collectFiles`): each real file once, however the paths given reach
 * it, links skipped and reported. Real paths below a given path are derived from its own, so
 * these cases pin what that derivation must keep.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectFiles } from '../../codemods/runner/files.js';
import { SCRIPT_EXTENSIONS } from '../../codemods/lib/parse.js';

let root: string;
const list = (paths: string[], cwd = root) => collectFiles(paths, { cwd, ignore: [], extensions: SCRIPT_EXTENSIONS });

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ergraph-files-')));
  mkdirSync(join(root, 'real', 'src', 'deep'), { recursive: true });
  writeFileSync(join(root, 'real', 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'real', 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'real', 'src', 'notes.md'), '# not a script\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('collectFiles', () => {
  it('lists every script below a directory once, in name order', () => {
    const { files, skipped } = list(['real']);
    expect(files).toEqual([join(root, 'real', 'src', 'a.ts'), join(root, 'real', 'src', 'deep', 'b.ts')]);
    expect(skipped).toEqual([]);
  });

  it('lists a file once when the paths given overlap or spell it twice', () => {
    const { files } = list(['real/src', 'real/src/a.ts', 'real/src/deep/../deep/b.ts', 'real']);
    expect(files).toEqual([join(root, 'real', 'src', 'a.ts'), join(root, 'real', 'src', 'deep', 'b.ts')]);
  });

  it('lists a file once when one given path reaches it through a linked parent and another directly', () => {
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    const { files } = list(['alias/src', 'real/src/deep/b.ts', 'real/src/a.ts']);
    // Through the linked parent first, so that spelling is the one kept.
    expect(files).toEqual([join(root, 'alias', 'src', 'a.ts'), join(root, 'alias', 'src', 'deep', 'b.ts')]);
  });

  it('skips a link below a given directory and says where it points', () => {
    symlinkSync(join(root, 'real', 'src', 'a.ts'), join(root, 'real', 'src', 'linked.ts'));
    const { files, skipped } = list(['real']);
    expect(files).toEqual([join(root, 'real', 'src', 'a.ts'), join(root, 'real', 'src', 'deep', 'b.ts')]);
    expect(skipped).toEqual([{ file: 'real/src/linked.ts', reason: expect.stringMatching(/^symbolic link \(→ .*a\.ts\): not followed/) }]);
  });
});
