/**
 * Read sites through the real binary, as a user runs it in CI (issue 26.1): a read the migration
 * cannot prove is a TODO at its line, counts as manual work and makes `--fail-on-manual` exit 3;
 * reads it can prove are rewritten and leave nothing to do; the rerun on the output exits 0.
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

const repoWith = gitRepos('ergraph-reads-cli-');

const migrate = (dir: string, ...flags: string[]) =>
  spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', SCHEMA, ...flags], { cwd: dir, encoding: 'utf8' });

const lines = (...l: string[]) => l.join('\n') + '\n';

describe('ergraph-migrate v5-to-v6: read sites it cannot prove', () => {
  it('marks the line with a TODO naming the moved path, reports it as manual, and --fail-on-manual exits 3', () => {
    const dir = repoWith({
      'list.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import { render } from './render';",
        '',
        'const USERS = gql`{ userGetAll { id } }`;',
        '',
        'export function List() {',
        '  const { data } = useQuery(USERS);',
        '  return render(data);',
        '}',
      ),
    });
    const run = migrate(dir, '--fail-on-manual');
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(3);
    const reason = "the operation's result is passed to `render`, which the migration cannot follow; move its reads: data.userGetAll → data.User.userGetAll";
    expect(run.stdout).toContain(`manual: list.ts:8:17 [v5-to-v6] ${reason}`);
    expect(run.stdout).toMatch(/1 changed, 1 manual, 0 errors/);
    const written = readFileSync(join(dir, 'list.ts'), 'utf8').split('\n');
    // The marker sits right above the read it is about, indented like it.
    expect(written[7]).toBe(`  // TODO(ergraph-migrate): ${reason}`);
    expect(written[8]).toBe('  return render(data);');

    // The rerun on the output (committed, as CI sees it) changes nothing and exits 0.
    commit(dir);
    const again = migrate(dir, '--fail-on-manual');
    expect(again.status, again.stdout).toBe(0);
    expect(again.stdout).toContain('nothing to do');
    expect(readFileSync(join(dir, 'list.ts'), 'utf8').split('\n')).toEqual(written);
  });

  it('reads it can prove are rewritten and leave no manual work: --fail-on-manual exits 0', () => {
    const dir = repoWith({
      'list.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const USERS = gql`{ userGetAll { id } }`;',
        'export function List() {',
        '  const { data } = useQuery(USERS);',
        '  return data?.userGetAll.map((u) => u.id);',
        '}',
      ),
    });
    const run = migrate(dir, '--fail-on-manual');
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/1 changed, 0 manual, 0 errors/);
    expect(readFileSync(join(dir, 'list.ts'), 'utf8')).toContain('  return data?.User.userGetAll.map((u) => u.id);\n');
  });

  it('migrates untagged documents (issue 43.1) and says "nothing to do" only once none is left; documents of another API are no evidence', () => {
    const dir = repoWith({
      'a.ts': lines(
        'export async function users() {',
        "  const res = await fetch('/api', { method: 'POST', body: JSON.stringify({ query: '{ userGetAll { id name } }' }) });",
        '  return (await res.json()).data.userGetAll;',
        '}',
        // For another API: its root fields only look like v5's.
        "export const films = '{ allFilms { title } }';",
      ),
      'b.ts': lines(
        'const Q = `query Tasks { taskGetAll { id title } }`;',
        "export const tasks = () => fetch('/api', { method: 'POST', body: JSON.stringify({ query: Q }) }).then((r) => r.json()).then((b) => b.data.taskGetAll);",
      ),
      'c.ts': lines("import { request } from 'graphql-request';", "export const ids = async () => (await request<any>('/api', `{ userGetAll { id } }`)).userGetAll;"),
    });
    const run = migrate(dir, '--fail-on-manual');
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/3 changed, 0 manual, 0 errors/);
    expect(run.stdout).not.toContain('nothing to do');
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toContain("query: '{ User { userGetAll: getAll { id name } } }'");
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toContain('(await res.json()).data.User.userGetAll');
    expect(readFileSync(join(dir, 'b.ts'), 'utf8')).toContain('b.data.Task.taskGetAll');
    expect(readFileSync(join(dir, 'c.ts'), 'utf8')).toContain("(await request<any>('/api', `{ User { userGetAll: getAll { id } } }`)).User.userGetAll");
    commit(dir);
    const again = migrate(dir);
    expect(again.status, again.stdout).toBe(0);
    expect(again.stdout).toContain('nothing to do (detected version 6: no old-API shapes left in the code)');
  });

  it('a dynamic read of a moved result is manual work (issue 43.2): --fail-on-manual exits 3 on urql, Apollo <any> and graphql-request <any>', () => {
    const dir = repoWith({
      'counts.ts': lines(
        "import { Client, gql } from '@urql/core';",
        "import { ApolloClient, gql as agql } from '@apollo/client';",
        "import { request } from 'graphql-request';",
        'const COUNTS = gql`{ userGetAll { id } taskGetAll { id } }`;',
        'const USERS = agql`{ userGetAll { id } }`;',
        'export async function counts(client: Client, apollo: ApolloClient, key: string) {',
        '  const { data } = await client.query(COUNTS, {}).toPromise();',
        '  const typed = await apollo.query<any>({ query: USERS });',
        "  const plain = await request<any>('/api', USERS);",
        '  return [data[key].length, typed.data[key], plain?.[key]];',
        '}',
      ),
    });
    const run = migrate(dir, '--fail-on-manual');
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(3);
    expect(run.stdout).toMatch(/1 changed, 3 manual, 0 errors/);
  });
});
