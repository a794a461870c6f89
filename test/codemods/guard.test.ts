/**
 * Issue 44.4: the git guard asks only about what a run writes. The README's line runs with an
 * untracked `schema.graphql` beside `src` (read, never written); a file the run would rewrite, or
 * a report it would change, with uncommitted changes stops it before anything is written; and a
 * rerun with nothing to do leaves an identical report alone (bytes and mtime), so the run after
 * it is not refused either.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../codemods/cli.js';
import { unrevertable } from '../../codemods/runner/git.js';
import { commit, gitRepos } from './git-repos.js';

const repoWith = gitRepos('ergraph-guard-');
const SCHEMA = 'type UserQuery { getAll: [Int!]! }\ntype Query { User: UserQuery! }\n';
const V5 = '{ userGetAll }\n';
const V6 = '{ User { userGetAll: getAll } }\n';

async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { cwd, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  return { code: await main(argv, io), out, err };
}

const status = (dir: string) => execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
/** A report's mtime set far back, so "not rewritten" shows however coarse the file system's clock. */
const ageOf = (file: string) => {
  utimesSync(file, new Date(2000, 0, 1), new Date(2000, 0, 1));
  return statSync(file).mtimeMs;
};

/** A v5.5 project: `src` holds one document; the schema is dropped beside it, untracked. */
function project(): string {
  const dir = repoWith({ 'README.md': 'app\n' });
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'users.graphql'), V5);
  writeFileSync(join(dir, 'src', 'tasks.graphql'), '{ taskGetAll }\n');
  commit(dir);
  writeFileSync(join(dir, 'schema.graphql'), `${SCHEMA}type TaskQuery { getAll: [Int!]! }\nextend type Query { Task: TaskQuery! }\n`);
  return dir;
}

const README_LINE = ['upgrade', '--from', '5.5', '--to', '6', 'src', '--schema', 'schema.graphql', '--report', 'migration.md'];

describe('the git guard asks only about the files a run writes', () => {
  it("the README's line runs with the schema it only reads untracked, and its reruns are never refused", async () => {
    const dir = project();
    const first = await cli(dir, ...README_LINE);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(read(dir, 'src/users.graphql')).toContain(V6);
    expect(read(dir, 'migration.md')).toContain('## Changed files');
    commit(dir);

    // Nothing to do: the report says so (it differs from the first run's, which was committed).
    const second = await cli(dir, ...README_LINE);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/^nothing to do /m);
    const report = read(dir, 'migration.md');
    expect(report).not.toContain('## Changed files');
    expect(status(dir)).toBe(' M migration.md\n');

    // Left uncommitted, the same report again: untouched, so neither this run nor the next is refused.
    const mtime = ageOf(join(dir, 'migration.md'));
    for (let run = 0; run < 2; run++) {
      const again = await cli(dir, ...README_LINE);
      expect(again.err).toBe('');
      expect(again.code).toBe(0);
      expect(read(dir, 'migration.md')).toBe(report);
      expect(statSync(join(dir, 'migration.md')).mtimeMs).toBe(mtime);
    }
  });

  it('a file it would write, or a report it would change, with uncommitted changes stops the run before any write; --force passes', async () => {
    const dir = project();
    writeFileSync(join(dir, 'src', 'users.graphql'), `# mine\n${V5}`);
    const refused = await cli(dir, ...README_LINE);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('ergraph-migrate: refusing to write over uncommitted changes in src/users.graphql (commit or stash them, or pass --force): git could not give back what they hold\n');
    // The other file it would write, and the report, are not written either.
    expect(read(dir, 'src/tasks.graphql')).toBe('{ taskGetAll }\n');
    expect(existsSync(join(dir, 'migration.md'))).toBe(false);

    writeFileSync(join(dir, 'src', 'users.graphql'), V5);
    writeFileSync(join(dir, 'migration.md'), 'my notes\n');
    const report = await cli(dir, ...README_LINE);
    expect(report.code).toBe(1);
    expect(report.err).toContain('refusing to write over uncommitted changes in migration.md (');
    expect(read(dir, 'src/users.graphql')).toBe(V5);

    const forced = await cli(dir, ...README_LINE, '--force');
    expect(forced.code, forced.err).toBe(0);
    expect(read(dir, 'src/users.graphql')).toContain(V6);
  });

  it('a file in the tree it reads but does not change may have uncommitted changes', async () => {
    const dir = project();
    writeFileSync(join(dir, 'src', 'notes.graphql'), '# not a document yet\n');
    writeFileSync(join(dir, 'src', 'users.graphql'), V6);
    commit(dir);
    writeFileSync(join(dir, 'src', 'notes.graphql'), '# still not a document\n');
    const { code, err } = await cli(dir, ...README_LINE);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(read(dir, 'src/tasks.graphql')).toContain('{ Task { taskGetAll: getAll } }\n');
  });

  it('a JSON report that differs only in the run time is left as it was', async () => {
    const dir = project();
    const args = ['v5-to-v6', 'src', '--schema', 'schema.graphql', '--report', 'migration.json'];
    expect((await cli(dir, ...args)).code).toBe(0);
    commit(dir);
    expect((await cli(dir, ...args)).code).toBe(0);
    const text = read(dir, 'migration.json');
    const mtime = ageOf(join(dir, 'migration.json'));
    const again = await cli(dir, ...args);
    expect(again.code, again.err).toBe(0);
    expect(read(dir, 'migration.json')).toBe(text);
    expect(statSync(join(dir, 'migration.json')).mtimeMs).toBe(mtime);
  });
});

describe('unrevertable', () => {
  it('names the files with staged, unstaged or untracked changes and the existing ones in no repository', () => {
    const dir = repoWith({ 'clean.ts': '1\n', 'edited.ts': '1\n', 'staged.ts': '1\n', 'old name.ts': '1\n' });
    const outside = repoWith({});
    execFileSync('rm', ['-rf', join(outside, '.git')]);
    writeFileSync(join(outside, 'loose.ts'), '1\n');
    writeFileSync(join(dir, 'edited.ts'), '2\n');
    writeFileSync(join(dir, 'staged.ts'), '2\n');
    writeFileSync(join(dir, 'new.ts'), '1\n');
    execFileSync('git', ['add', 'staged.ts'], { cwd: dir });
    execFileSync('git', ['mv', 'old name.ts', 'moved.ts'], { cwd: dir });
    const files = ['clean.ts', 'edited.ts', 'staged.ts', 'new.ts', 'moved.ts', 'not-yet.ts'].map((f) => join(dir, f));
    const found = unrevertable([...files, join(outside, 'loose.ts'), join(outside, 'not-yet.ts')]);
    expect(found.dirty.sort()).toEqual(['edited.ts', 'moved.ts', 'new.ts', 'staged.ts'].map((f) => join(dir, f)));
    expect(found.outside).toEqual([join(outside, 'loose.ts')]);
  });
});
