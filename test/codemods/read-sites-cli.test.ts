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
});
