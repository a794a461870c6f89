/**
 * No file can stop a run (issue 45.1): generated and minified shapes (nesting past the stack, 100k
 * lines, a 5 MB line) in a tree whose tsconfig has a `paths` entry and an `extends` loop. Each file
 * either migrates or is that file's error line, named by its path; every other file is written and
 * the report says it all. Through the binary, in one thread and in a worker thread.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gitRepos } from './git-repos.js';
import { APOLLO_TYPINGS } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const SCHEMA = 'type Query { User: UserQuery! }\ntype UserQuery { getAll: [User!]! }\ntype User { id: ID! }\n';
const repoWith = gitRepos('ergraph-shapes-');

const DOC = "import { gql } from '@apollo/client';\nexport const D = gql`{ userGetAll { id } }`;\n";
/** A typed result: the run builds a TypeScript program over the tree (where the deep files broke it). */
const typed = (i: number) =>
  [
    "import { gql, useQuery } from '@apollo/client';",
    "import type { UserGetAllQuery } from '~/types';",
    `const Q${i} = gql\`query Q${i} { userGetAll { id } }\`;`,
    `export function use${i}() {`,
    `  const { data } = useQuery<UserGetAllQuery>(Q${i});`,
    '  return data?.userGetAll.length;',
    '}',
    '',
  ].join('\n');

/** Nesting past the stack, each at a different pass. */
const DEEP = {
  // TypeScript's parser: 3,000 nested template literals (15 KB) and 20,000 parentheses.
  'template.ts': DOC + `export const t = ${'`${'.repeat(3000)}1${'}`'.repeat(3000)};\n`,
  'parens.ts': DOC + `export const p = ${'('.repeat(20_000)}1${')'.repeat(20_000)};\n`,
  // Parsed by TypeScript, but its binder (the whole program's, before) and this run's walk recurse.
  'chain.ts': `${DOC}declare const a: any;\nexport const c = a${'.b'.repeat(20_000)};\n`,
  // Parsed and walked by the run, but the checker's type of the outer call recurses deeper.
  'calls.ts': `${DOC}declare const f: any;\nexport const k = f${'()'.repeat(1300)};\n`,
};

function tree(typedFiles: number): Record<string, string> {
  const files: Record<string, string> = {
    // `paths` and an `extends` chain that loops: TypeScript reports the loop, the aliases still hold.
    'tsconfig.json': JSON.stringify({ extends: './tsconfig.base.json', compilerOptions: { strict: true, baseUrl: '.', paths: { '~/*': ['./*'] } } }),
    'tsconfig.base.json': JSON.stringify({ extends: './tsconfig.json' }),
    'schema.graphql': SCHEMA,
    'apollo.d.ts': APOLLO_TYPINGS,
    'types.ts': 'export type UserGetAllQuery = { userGetAll: { id: string }[] };\n',
    ...DEEP,
  };
  for (let i = 0; i < typedFiles; i++) files[`typed${i}.ts`] = typed(i);
  return files;
}

const migrate = (dir: string, ...flags: string[]) =>
  spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', 'schema.graphql', '--report', 'report.json', ...flags], { cwd: dir, encoding: 'utf8' });

interface Report {
  summary: { errors: number; changed: number };
  files: { file: string; error?: string; changed: boolean; notes: string[] }[];
}

/** Each of `failing` is its own error line, left byte-identical; every typed file is migrated, with the checker. */
function expectEachFileAlone(dir: string, files: Record<string, string>, result: ReturnType<typeof migrate>, typedFiles: number, failing: readonly string[]): void {
  expect(result.status, result.stderr).toBe(1);
  const errors = result.stderr.split('\n').filter((l) => l.startsWith('error: '));
  const deep = '(?:Maximum call stack size exceeded: nested too deeply to migrate|the TypeScript checker cannot follow the typed results in this file: Maximum call stack size exceeded)';
  for (const name of failing) {
    expect(errors.filter((l) => new RegExp(`^error: ${name.replace('.', '\\.')}: ${deep}`).test(l)), `${name}\n${result.stderr}`).toHaveLength(1);
    expect(readFileSync(join(dir, name), 'utf8')).toBe(files[name]);
  }
  expect(errors).toHaveLength(failing.length);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  expect(report.summary.errors).toBe(failing.length);
  expect(report.files.filter((f) => f.error).map((f) => f.file).sort()).toEqual([...failing].sort());
  for (let i = 0; i < typedFiles; i++) {
    const name = `typed${i}.ts`;
    expect(readFileSync(join(dir, name), 'utf8'), name).toContain(`gql\`query Q${i} { User { userGetAll: getAll { id } } }\``);
    expect(report.files.find((f) => f.file === name)?.notes.join('\n'), name).toMatch(/typed results followed with the TypeScript checker/);
  }
}

describe('ergraph-migrate: no file stops a run (generated and minified shapes)', () => {
  it('a file nested past the stack is its own error line; the other files of 24 are written and the report is complete', () => {
    const files = tree(15);
    expect(Object.keys(files)).toHaveLength(24);
    expect(files['template.ts']!.length).toBeGreaterThan(15_000);
    const dir = repoWith(files);
    expectEachFileAlone(dir, files, migrate(dir), 15, Object.keys(DEEP));
  });

  it('the same in a worker thread: each failure is named by its file', () => {
    const files = tree(2);
    const dir = repoWith(files);
    // A worker thread's stack (4 MB, Node's default for workers) holds the checker's walk of calls.ts.
    expectEachFileAlone(dir, files, migrate(dir, '--workers', '1'), 2, ['template.ts', 'parens.ts', 'chain.ts']);
    expect(readFileSync(join(dir, 'calls.ts'), 'utf8')).toContain('User { userGetAll: getAll { id } }');
  });

  it('migrates a 100,000-line file and a 5 MB one-line file', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `x${i % 10};`);
    lines[50_000] = 'const Mid = gql`{ userGetAll { id } }`;';
    // Minified: one line of 5 MB (mostly an embedded data string, as bundles carry), documents at both ends.
    const blob = 'A'.repeat(5_000_000);
    const oneLine = `import{gql}from'@apollo/client';const A=gql\`{ userGetAll { id } }\`;const blob="${blob}";const B=gql\`{ userGetAll { id } }\`;\n`;
    const files = {
      'schema.graphql': SCHEMA,
      'lines.ts': `import { gql } from '@apollo/client';\ndeclare const x0: number, x1: number, x2: number, x3: number, x4: number, x5: number, x6: number, x7: number, x8: number, x9: number;\n${lines.join('\n')}\n`,
      'min.js': oneLine,
    };
    const dir = repoWith(files);
    const result = migrate(dir);
    expect(result.status, result.stderr).toBe(0);
    const moved = '{ User { userGetAll: getAll { id } } }';
    const out = readFileSync(join(dir, 'lines.ts'), 'utf8').split('\n');
    expect(out).toHaveLength(files['lines.ts'].split('\n').length);
    expect(out[50_002]).toBe(`const Mid = gql\`${moved}\`;`);
    expect(readFileSync(join(dir, 'min.js'), 'utf8')).toBe(oneLine.replaceAll('{ userGetAll { id } }', moved));
  });
});
