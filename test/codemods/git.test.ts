/**
 * Which files git ignores (`ignoredByGit`), with a repository nested in another and files in no
 * repository: each file answered by its own work tree, and git asked once per repository, not
 * once per directory (a monorepo has thousands). A `git` first on PATH logs every call.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ignoredByGit } from '../../codemods/runner/git.js';

let root: string;
let log: string;
const saved = { path: process.env.PATH, log: process.env.ERGRAPH_GIT_LOG };

const write = (file: string, text = 'export {};\n') => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};
const gitInit = (dir: string) => execFileSync('git', ['init', '-q', join(root, dir)]);

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ergraph-git-')));
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  mkdirSync(join(root, 'bin'));
  writeFileSync(join(root, 'bin', 'git'), `#!/bin/sh\necho "$1" >> "$ERGRAPH_GIT_LOG"\nexec ${realGit} "$@"\n`);
  chmodSync(join(root, 'bin', 'git'), 0o755);
  log = join(root, 'git.log');
  gitInit('outer');
  write('outer/.gitignore', 'gen/\n');
  gitInit('outer/vendor/inner');
  write('outer/vendor/inner/.gitignore', '*.skip.ts\n');
  for (const file of ['outer/a.ts', 'outer/gen/b.ts', 'outer/src/one/c.ts', 'outer/src/two/d.ts', 'outer/src/two/deep/e.ts'])
    write(file);
  for (const file of ['outer/vendor/inner/x.ts', 'outer/vendor/inner/y.skip.ts', 'outer/vendor/inner/sub/z.skip.ts', 'outer/vendor/inner/sub/w.ts'])
    write(file);
  for (const file of ['plain/p.ts', 'plain/q/r.ts']) write(file);
  process.env.PATH = `${join(root, 'bin')}${delimiter}${saved.path}`;
  process.env.ERGRAPH_GIT_LOG = log;
});

afterAll(() => {
  process.env.PATH = saved.path;
  if (saved.log === undefined) delete process.env.ERGRAPH_GIT_LOG;
  else process.env.ERGRAPH_GIT_LOG = saved.log;
  rmSync(root, { recursive: true, force: true });
});

it('answers each file from its own work tree, asking git once per repository', () => {
  const files = [
    'outer/a.ts',
    'outer/gen/b.ts',
    'outer/src/one/c.ts',
    'outer/src/two/d.ts',
    'outer/src/two/deep/e.ts',
    'outer/vendor/inner/x.ts',
    'outer/vendor/inner/y.skip.ts',
    'outer/vendor/inner/sub/z.skip.ts',
    'outer/vendor/inner/sub/w.ts',
    'plain/p.ts',
    'plain/q/r.ts',
  ].map((f) => join(root, f));
  writeFileSync(log, '');
  const ignored = ignoredByGit(files);
  expect([...ignored].sort()).toEqual(['outer/gen/b.ts', 'outer/vendor/inner/sub/z.skip.ts', 'outer/vendor/inner/y.skip.ts'].map((f) => join(root, f)));
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  // 10 directories: one question for each repository and one for the files in none, then one
  // check-ignore per repository.
  expect(calls.filter((c) => c === 'rev-parse')).toHaveLength(3);
  expect(calls.filter((c) => c === 'check-ignore')).toHaveLength(2);
});
