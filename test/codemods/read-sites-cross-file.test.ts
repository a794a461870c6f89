/**
 * Read sites across functions and files (issue 26.1), through the real binary over a git
 * checkout: a result handed to a function of the project's own (in its file or another) has that
 * function's reads rewritten when every call of it passes such a result; an exported document's
 * reads are rewritten in the modules importing it. What the run cannot prove stays a marker and
 * manual work; the rerun on the output changes nothing and exits 0.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commit, gitRepos } from './git-repos.js';
import { FIXTURES } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const SCHEMA = join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql');
const lines = (...l: string[]) => l.join('\n') + '\n';

const repoWith = gitRepos('ergraph-reads-xfile-');

const migrate = (dir: string) => spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', SCHEMA, '--fail-on-manual'], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** The rerun on the committed output writes nothing and exits 0. */
function expectQuietRerun(dir: string, files: readonly string[]): void {
  const before = files.map((f) => read(dir, f));
  commit(dir);
  const again = migrate(dir);
  expect(again.status, again.stdout).toBe(0);
  expect(files.map((f) => read(dir, f))).toEqual(before);
}

describe('ergraph-migrate v5-to-v6: results handed to the project\'s own functions', () => {
  it('rewrites the reads of a function in another file and in the same file that only ever get the result', () => {
    const dir = repoWith({
      'list.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import { render, count } from './render';",
        '',
        'const USERS = gql`{ userGetAll { id } }`;',
        '',
        'function size(d: any) {',
        '  return d?.userGetAll.length;',
        '}',
        '',
        'export function List() {',
        '  const { data } = useQuery(USERS);',
        '  return [render(data), count(data), size(data)];',
        '}',
      ),
      // No document and no `gql` here: the run reaches this file through the facts of list.ts.
      'render.ts': lines(
        'export function render(d: any) {',
        '  const { userGetAll } = d;',
        "  return [d.userGetAll.length, d?.userGetAll, d['userGetAll'], userGetAll];",
        '}',
        '',
        'export const count = ({ userGetAll }: any) => userGetAll.length;',
      ),
    });
    const run = migrate(dir);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/2 changed, 0 manual, 0 errors/);
    expect(read(dir, 'render.ts')).toBe(
      lines(
        'export function render(d: any) {',
        '  const { User: { userGetAll } } = d;',
        "  return [d.User.userGetAll.length, d?.User.userGetAll, d.User['userGetAll'], userGetAll];",
        '}',
        '',
        'export const count = ({ User: { userGetAll } }: any) => userGetAll.length;',
      ),
    );
    const list = read(dir, 'list.ts');
    expect(list).toContain('  return d?.User.userGetAll.length;\n');
    expect(list).toContain('  return [render(data), count(data), size(data)];\n');
    expect(list).not.toContain('TODO');
    expectQuietRerun(dir, ['list.ts', 'render.ts']);
  });

  it('marks a function called with two operations\' results, or also with another value, at its parameter and leaves its reads', () => {
    const dir = repoWith({
      'a.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import { show } from './show';",
        "import { other } from './other';",
        'const USERS = gql`{ userGetAll { id } }`;',
        'const TASKS = gql`{ taskGetAll { id } }`;',
        'export function A() {',
        '  const { data } = useQuery(USERS);',
        '  const { data: tasks } = useQuery(TASKS);',
        '  return [show(data), show(tasks), other(data)];',
        '}',
      ),
      'show.ts': lines('export function show(d: any) {', '  return d.userGetAll ?? d.taskGetAll;', '}'),
      'other.ts': lines('export function other(d: any) {', '  return d.userGetAll;', '}'),
      'b.ts': lines("import { other } from './other';", 'other({ userGetAll: [] });'),
    });
    const run = migrate(dir);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(3);
    const manual = run.stdout.split('\n').filter((l) => l.startsWith('manual:'));
    expect(manual).toEqual([
      'manual: other.ts:1:23 [v5-to-v6] `other` receives the result of an operation whose paths move (from a.ts), but b.ts imports it and does not hand it such a result; move its reads: data.userGetAll → data.User.userGetAll',
      'manual: show.ts:1:22 [v5-to-v6] `show` receives the result of an operation whose paths move (from a.ts), but it is called with the results of different operations; move its reads: data.userGetAll → data.User.userGetAll; data.taskGetAll → data.Task.taskGetAll',
    ]);
    expect(read(dir, 'show.ts')).toContain('\n  return d.userGetAll ?? d.taskGetAll;\n');
    expect(read(dir, 'other.ts')).toMatch(/^\/\/ TODO\(ergraph-migrate\): `other` receives .*\nexport function other\(d: any\) \{\n {2}return d\.userGetAll;\n/);
    expectQuietRerun(dir, ['a.ts', 'show.ts', 'other.ts', 'b.ts']);
  });
});

describe('ergraph-migrate v5-to-v6: documents exported to other modules', () => {
  it('rewrites the reads in the modules importing the document (also through a barrel) and does not mark the export', () => {
    const dir = repoWith({
      'docs.ts': lines("import { gql } from '@apollo/client';", 'export const TASKS = gql`{ taskGetAll { id } }`;'),
      'index.ts': lines("export * from './docs';"),
      'page.ts': lines(
        "import { useQuery } from '@apollo/client';",
        "import { TASKS } from './index';",
        'export function Page() {',
        '  const { data } = useQuery(TASKS);',
        '  return data?.taskGetAll.map((t: any) => t.id);',
        '}',
      ),
      'load.ts': lines(
        "import { request } from 'graphql-request';",
        "import { TASKS as T } from './docs';",
        'export async function load() {',
        "  const { taskGetAll } = await request('/graphql', T);",
        '  return taskGetAll;',
        '}',
      ),
    });
    const run = migrate(dir);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    expect(read(dir, 'docs.ts')).toBe(lines("import { gql } from '@apollo/client';", 'export const TASKS = gql`{ Task { taskGetAll: getAll { id } } }`;'));
    expect(read(dir, 'page.ts')).toContain('  return data?.Task.taskGetAll.map((t: any) => t.id);\n');
    expect(read(dir, 'load.ts')).toContain("  const { Task: { taskGetAll } } = await request('/graphql', T);\n");
    expectQuietRerun(dir, ['docs.ts', 'index.ts', 'page.ts', 'load.ts']);
  });

  it('keeps the marker at the export when a module imports it as a whole', () => {
    const dir = repoWith({
      'docs.ts': lines("import { gql } from '@apollo/client';", 'export const TASKS = gql`{ taskGetAll { id } }`;'),
      'page.ts': lines(
        "import { useQuery } from '@apollo/client';",
        "import * as docs from './docs';",
        'export const Page = () => useQuery(docs.TASKS).data?.taskGetAll;',
      ),
    });
    const run = migrate(dir);
    expect(run.status, run.stdout).toBe(3);
    expect(run.stdout).toContain('manual: docs.ts:2:22 [v5-to-v6] the document is exported: the modules importing it read its result; move its reads: data.taskGetAll → data.Task.taskGetAll');
    expect(read(dir, 'page.ts')).toContain('.data?.taskGetAll;');
  });
});
