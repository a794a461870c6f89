/**
 * Reads of typed results (issue 26.1), through the real binary over a git checkout: when an
 * operation whose paths move has a typed result (`useQuery<UsersQuery>`, a `TypedDocumentNode`),
 * the TypeScript checker finds the reads of its data at any depth of calls and in any file of the
 * run; where the typed value goes out of the checker's sight, a marker. A run with nothing typed
 * to move builds no program (the report's note says when one was built).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commit, gitRepos } from './git-repos.js';
import { APOLLO_TYPINGS as APOLLO, FIXTURES } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const SCHEMA = join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql');
const lines = (...l: string[]) => l.join('\n') + '\n';
const MOVE = 'move its reads: data.userGetAll → data.User.userGetAll';
const CHECKER_NOTE = /typed results followed with the TypeScript checker over \d+ files/;

const repoWith = gitRepos('ergraph-reads-typed-');

const migrate = (dir: string) =>
  spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', SCHEMA, '--report', 'report.json'], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
const manualOf = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('manual:'));

/** The rerun on the committed output writes nothing. */
function expectQuietRerun(dir: string, files: readonly string[]): void {
  const before = files.map((f) => read(dir, f));
  commit(dir);
  const again = migrate(dir);
  expect(again.stderr).toBe('');
  expect(files.map((f) => read(dir, f))).toEqual(before);
}

const TYPES = lines("export type UserGetAllQuery = { __typename?: 'Query'; userGetAll: { id: string }[] };");
const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler' }, include: ['*.ts'] });

describe('ergraph-migrate v5-to-v6: reads of typed results, followed by the TypeScript checker', () => {
  it('rewrites the reads of a typed result handed two functions deep and into another file', () => {
    const dir = repoWith({
      'tsconfig.json': TSCONFIG,
      'apollo.d.ts': APOLLO,
      'types.ts': TYPES,
      'list.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import type { UserGetAllQuery } from './types';",
        "import { show } from './show';",
        '',
        'const USERS = gql`{ userGetAll { id } }`;',
        '',
        'export function List() {',
        '  const { data } = useQuery<UserGetAllQuery>(USERS);',
        '  return show(data);',
        '}',
      ),
      // No document here: reached through the run's facts, then by the checker.
      'show.ts': lines(
        "import type { UserGetAllQuery } from './types';",
        "import { rows } from './rows';",
        '',
        'export function show(d: UserGetAllQuery | undefined) {',
        '  return frame(d);',
        '}',
        '',
        'function frame(d?: UserGetAllQuery) {',
        '  return rows(d);',
        '}',
      ),
      'rows.ts': lines(
        "import type { UserGetAllQuery } from './types';",
        '',
        'export function rows(d: UserGetAllQuery | undefined) {',
        '  if (!d) return [];',
        '  const { userGetAll } = d;',
        "  return [d.userGetAll.length, d?.userGetAll, d['userGetAll'], userGetAll];",
        '}',
      ),
    });
    const run = migrate(dir);
    expect(run.stderr).toBe('');
    expect(read(dir, 'rows.ts')).toBe(
      lines(
        "import type { UserGetAllQuery } from './types';",
        '',
        'export function rows(d: UserGetAllQuery | undefined) {',
        '  if (!d) return [];',
        '  const { User: { userGetAll } } = d;',
        "  return [d.User.userGetAll.length, d?.User.userGetAll, d.User['userGetAll'], userGetAll];",
        '}',
      ),
    );
    // The hand-offs are followed, not marked; what stays manual is the generated types, named with their generator's command.
    expect(read(dir, 'show.ts')).not.toContain('cannot follow');
    expect(manualOf(run.stdout)).toEqual([
      `manual: list.ts:8:20 [v5-to-v6] the type argument \`UserGetAllQuery\` describes the v5 result: regenerate it from the v6 schema (\`npx graphql-codegen\`); ${MOVE}`,
      `manual: show.ts:4:25 [v5-to-v6] the type \`UserGetAllQuery | undefined\` describes the v5 result: regenerate it from the v6 schema (\`npx graphql-codegen\`); ${MOVE}`,
    ]);
    expect(read(dir, 'report.json')).toMatch(CHECKER_NOTE);
    expectQuietRerun(dir, ['list.ts', 'show.ts', 'rows.ts']);
  });

  it('follows a typed result stored in an object field into the file reading it, and marks one stored where its type is lost', () => {
    // No tsconfig: the program is the run's files.
    const dir = repoWith({
      'apollo.ts': APOLLO,
      'types.ts': TYPES,
      'store.ts': lines(
        "import type { UserGetAllQuery } from './types';",
        'export const store: { users?: UserGetAllQuery } = {};',
        'export const bag: Record<string, unknown> = {};',
      ),
      'list.ts': lines(
        "import { gql, useQuery, type TypedDocumentNode } from '@apollo/client';",
        "import { store, bag } from './store';",
        "import type { UserGetAllQuery } from './types';",
        'const USERS: TypedDocumentNode<UserGetAllQuery> = gql`{ userGetAll { id } }`;',
        '',
        'export function List() {',
        '  const { data } = useQuery(USERS);',
        '  if (data) keep(data);',
        '  return data?.userGetAll;',
        '}',
        '',
        'function keep(d: UserGetAllQuery) {',
        '  store.users = d;',
        '  bag.users = d;',
        '}',
      ),
      'later.ts': lines(
        "import { store, bag } from './store';",
        '',
        'export const count = () => store.users?.userGetAll.length ?? 0;',
        'export const lost = () => (bag.users as any)?.userGetAll;',
      ),
    });
    const run = migrate(dir);
    expect(run.stderr).toBe('');
    expect(read(dir, 'later.ts')).toContain('export const count = () => store.users?.User.userGetAll.length ?? 0;\n');
    const list = read(dir, 'list.ts');
    expect(list).toContain('  return data?.User.userGetAll;\n');
    // The field typed for the result is followed (no marker); the one typed `unknown` is marked at the store.
    expect(list).toMatch(/ {2}store\.users = d;\n {2}\/\/ TODO\(ergraph-migrate\): [^\n]*; move its reads: data\.userGetAll → data\.User\.userGetAll\n {2}bag\.users = d;\n/);
    const manual = manualOf(run.stdout);
    expect(manual.filter((m) => m.startsWith('manual: list.ts:14:'))).toHaveLength(1);
    expect(manual.filter((m) => m.startsWith('manual: list.ts:13:') || m.startsWith('manual: later.ts'))).toEqual([]);
    expect(read(dir, 'report.json')).toMatch(CHECKER_NOTE);
    expectQuietRerun(dir, ['list.ts', 'later.ts', 'store.ts']);
  });

  it('builds no program when no operation whose paths move has a typed result', () => {
    const dir = repoWith({
      'tsconfig.json': TSCONFIG,
      'apollo.d.ts': APOLLO,
      'types.ts': TYPES,
      'list.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import type { UserGetAllQuery } from './types';",
        "import { show } from './show';",
        '',
        // Typed, but its paths do not move.
        'const NAME = gql`{ __typename }`;',
        'const USERS = gql`{ userGetAll { id } }`;',
        '',
        'export function List() {',
        '  const typed = useQuery<UserGetAllQuery>(NAME);',
        '  const { data } = useQuery<any>(USERS);',
        '  return [data?.userGetAll, typed.loading, show(data)];',
        '}',
      ),
      // The run has cross-file facts (an untyped result handed to another file), none of them typed.
      'show.ts': lines('export const show = (d: any) => d?.userGetAll;'),
    });
    const run = migrate(dir);
    expect(run.stderr).toBe('');
    expect(read(dir, 'list.ts')).toContain('  return [data?.User.userGetAll, typed.loading, show(data)];\n');
    expect(read(dir, 'show.ts')).toBe(lines('export const show = (d: any) => d?.User.userGetAll;'));
    const report = read(dir, 'report.json');
    expect(report).toContain('read moved: data.userGetAll → data.User.userGetAll');
    expect(report).not.toMatch(CHECKER_NOTE);
  });
});
