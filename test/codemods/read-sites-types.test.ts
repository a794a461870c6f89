/**
 * Result types follow their reads (issue 43.5), through the real binary on a graphql-request 7
 * client, type-checked with the real TypeScript compiler before and after: the user's own result
 * types — an interface in another file over several lines, an interface and an alias in the
 * reading file, an inline type argument, a parameter's type, `X['userGetAll']` — move with the
 * reads, so the client that compiled before compiles after. A type the migration cannot move
 * safely (also written by hand in the v5 shape, extended by another type) is marked once, at its
 * declaration. A generated type is left to its generator, whose command the marker names; after
 * regenerating it from the v6 schema the code compiles.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/built-package.js';
import { commit } from './git-repos.js';
import { FIXTURES } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const SCHEMA = join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql');
const lines = (...l: string[]) => l.join('\n') + '\n';

const GENERATED_V5 = lines(
  '/* eslint-disable */',
  'export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };',
  "export type ListQuery = { __typename?: 'Query'; userGetAll: Array<{ __typename?: 'User'; id: number }> };",
);
/** What GraphQL Code Generator writes for the migrated document from the v6 schema. */
const GENERATED_V6 = lines(
  '/* eslint-disable */',
  'export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };',
  "export type ListQuery = { __typename?: 'Query'; User: { __typename?: 'UserQuery'; userGetAll: Array<{ __typename?: 'User'; id: number }> } };",
);

const FILES: Record<string, string> = {
  'src/types.ts': lines(
    'export interface Task { id: number; title: string }',
    '',
    '/** What the tasks page reads. */',
    'export interface TasksData {',
    '  // the list, then one of it',
    '  taskGetAll: Task[]; // every task',
    '  /** the one the page shows */',
    '  // (by its id)',
    '  taskById: Task | null;',
    '}',
  ),
  'src/tasks.ts': lines(
    "import { gql, request } from 'graphql-request';",
    "import type { TasksData } from './types';",
    '',
    'const TASKS = gql`query Tasks { taskGetAll { id title } taskById(id: 1) { id title } }`;',
    '',
    'export async function tasks(url: string): Promise<number> {',
    '  const data = await request<TasksData>(url, TASKS);',
    '  return count(data) + (data.taskById?.id ?? 0);',
    '}',
    '',
    'export function count(page: TasksData | undefined): number {',
    '  return page?.taskGetAll.length ?? 0;',
    '}',
    '',
    "export type Row = TasksData['taskGetAll'][number];",
    'export const titles = (rows: Row[]) => rows.map((t) => t.title);',
  ),
  'src/users.ts': lines(
    "import { gql, request } from 'graphql-request';",
    '',
    'interface User { id: number; name: string }',
    'interface UserPageData { userGetAll: User[] }',
    'type OneData = { userById: User | null };',
    '',
    'const USERS = gql`query Users { userGetAll { id name } }`;',
    'const ONE = gql`query One($id: Int!) { userById(id: $id) { id name } }`;',
    'const ADD = gql`mutation Add($input: TaskInput!) { added: taskCreate(input: $input) { id title } }`;',
    '',
    'export async function users(url: string): Promise<number> {',
    '  const page = await request<UserPageData>(url, USERS);',
    '  return show(page);',
    '}',
    '',
    'function show(page: UserPageData): number {',
    '  return page.userGetAll.length;',
    '}',
    '',
    'export async function first(url: string): Promise<string | undefined> {',
    '  const data = await request<OneData>(url, ONE, { id: 1 });',
    '  return data.userById?.name;',
    '}',
    '',
    'export async function add(url: string): Promise<number> {',
    "  const data = await request<{ added: { id: number; title: string } }>(url, ADD, { input: { title: 't', ownerId: 1 } });",
    '  return data.added.id;',
    '}',
    '',
    "export const names = (list: UserPageData['userGetAll']) => list.map((u) => u.name);",
    '',
    'const BOTH = gql`query Both { userGetAll { id } userById(id: 1) { id } }`;',
    'export async function both(url: string): Promise<number> {',
    '  const data = await request<{ /** a */ userGetAll: { id: number }[]; /** b */ userById: { id: number } | null }>(url, BOTH);',
    '  return data.userGetAll.length + (data.userById?.id ?? 0);',
    '}',
  ),
  'src/shared.ts': lines(
    "import { gql, request } from 'graphql-request';",
    '',
    'export type Cached = { taskGetAll: { id: number }[] };',
    '',
    'const ALL = gql`query All { taskGetAll { id } }`;',
    '',
    'export async function cached(url: string): Promise<Cached> {',
    '  const empty: Cached = { taskGetAll: [] };',
    '  const data = await request<Cached>(url, ALL);',
    '  return data.taskGetAll.length ? data : empty;',
    '}',
    '',
    'interface Base { userGetAll: { id: number }[] }',
    'export interface Paged extends Base { cursor?: string }',
    '',
    'const IDS = gql`query Ids { userGetAll { id } }`;',
    '',
    'export async function ids(url: string): Promise<number> {',
    '  const data = await request<Base>(url, IDS);',
    '  return data.userGetAll.length;',
    '}',
  ),
  'src/gql/graphql.ts': GENERATED_V5,
  'src/list.ts': lines(
    "import { gql, request } from 'graphql-request';",
    "import type { ListQuery } from './gql/graphql';",
    '',
    'const LIST = gql`query List { userGetAll { id } }`;',
    '',
    "export async function list(url: string): Promise<ListQuery['userGetAll']> {",
    '  const data = await request<ListQuery>(url, LIST);',
    '  return data.userGetAll;',
    '}',
    '',
    "export type Picked = Pick<ListQuery, 'userGetAll'>;",
    "export type Rows = Omit<ListQuery, '__typename'>['userGetAll'];",
  ),
  'src/picked.ts': lines(
    "import { gql, request } from 'graphql-request';",
    "import type { ListQuery } from './gql/graphql';",
    '',
    'interface Mine { taskGetAll: { id: number }[] }',
    'const MINE = gql`query Mine { taskGetAll { id } }`;',
    '',
    'export async function mine(url: string): Promise<number> {',
    '  const data = await request<Mine>(url, MINE);',
    '  return data.taskGetAll.length;',
    '}',
    "export type MineRow = Pick<Mine, 'taskGetAll'>['taskGetAll'][number];",
    "export type ListRows = Pick<ListQuery, 'userGetAll'>['userGetAll'];",
    "export type NoList = Omit<ListQuery, 'userGetAll'>;",
  ),
};

const MOVED_TASKS = 'move its reads: data.taskGetAll → data.Task.taskGetAll';

/** Diagnostics of one program over the client, as `file:line`, with the real compiler (each program reuses the last one's unchanged files). */
let last: ts.Program | undefined;
function typeCheck(dir: string): string[] {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, types: [] };
  const roots = Object.keys(FILES).map((f) => join(dir, f));
  const program = (last = ts.createProgram(roots, options, undefined, last));
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}` : '?';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`;
  });
}

let dir = '';
let before: string[] = [];
let run: ReturnType<typeof spawnSync>;
let migrated: string[] = [];
let regenerated: string[] = [];
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const manual = () => String(run.stdout).split('\n').filter((l) => l.startsWith('manual:'));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ergraph-reads-types-'));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  for (const name of ['graphql-request', 'graphql']) {
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  commit(dir);
  before = typeCheck(dir);
  run = spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', SCHEMA], { cwd: dir, encoding: 'utf8' });
  migrated = typeCheck(dir);
  // The user regenerates what codegen generates, from the v6 schema.
  writeFileSync(join(dir, 'src/gql/graphql.ts'), GENERATED_V6);
  regenerated = typeCheck(dir);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ergraph-migrate v5-to-v6: result types follow their reads (graphql-request 7, type-checked)', () => {
  it('the client compiled before the migration', () => {
    expect(before).toEqual([]);
    expect(run.stderr).toBe('');
  });

  it("moves the user's own result types with the reads: interfaces, an alias, an inline type argument, indexed access", () => {
    expect(read('src/types.ts')).toBe(
      lines(
        'export interface Task { id: number; title: string }',
        '',
        '/** What the tasks page reads. */',
        'export interface TasksData {',
        '  // the list, then one of it',
        '  Task: {',
        '    taskGetAll: Task[];',
        '    /** the one the page shows */',
        '    // (by its id)',
        '    taskById: Task | null;',
        '  }; // every task',
        '}',
      ),
    );
    const tasks = read('src/tasks.ts');
    expect(tasks).toContain('  const data = await request<TasksData>(url, TASKS);\n');
    expect(tasks).toContain('  return page?.Task.taskGetAll.length ?? 0;\n');
    expect(tasks).toContain("export type Row = TasksData['Task']['taskGetAll'][number];\n");
    const users = read('src/users.ts');
    expect(users).toContain('interface UserPageData { User: { userGetAll: User[] } }\n');
    expect(users).toContain('type OneData = { User: { userById: User | null } };\n');
    expect(users).toContain("  const data = await request<{ Task: { added: { id: number; title: string } } }>(url, ADD, { input: { title: 't', ownerId: 1 } });\n");
    expect(users).toContain('function show(page: UserPageData): number {\n  return page.User.userGetAll.length;\n');
    expect(users).toContain("export const names = (list: UserPageData['User']['userGetAll']) => list.map((u) => u.name);\n");
    // The comments above every member pulled into a group go with it.
    expect(users).toContain('  const data = await request<{ /** a */ User: { userGetAll: { id: number }[]; /** b */ userById: { id: number } | null }; }>(url, BOTH);\n');
    // Nothing of theirs is manual work: no marker in these files.
    for (const file of ['src/types.ts', 'src/tasks.ts', 'src/users.ts']) expect(read(file)).not.toContain('TODO(ergraph-migrate)');
    expect(migrated.filter((d) => !/^src\/(shared|list|picked)\.ts/.test(d))).toEqual([]);
  });

  it('marks a type it cannot move at its declaration, once, saying why', () => {
    const shared = read('src/shared.ts');
    expect(shared).toContain('export type Cached = { taskGetAll: { id: number }[] };\n');
    expect(shared).toContain('interface Base { userGetAll: { id: number }[] }\n');
    expect(manual().filter((m) => m.includes('src/shared.ts'))).toEqual([
      `manual: src/shared.ts:3:1 [v5-to-v6] the type \`Cached\` describes the v5 result, and the migration cannot move it: shared.ts:8 writes a value of it in the v5 shape; write it in the v6 shape; ${MOVED_TASKS}`,
      'manual: src/shared.ts:13:1 [v5-to-v6] the type `Base` describes the v5 result, and the migration cannot move it: shared.ts:14 extends it; write it in the v6 shape; move its reads: data.userGetAll → data.User.userGetAll',
    ]);
    // What does not compile is behind those markers.
    expect(regenerated.length).toBeGreaterThan(0);
    expect(regenerated.filter((d) => !/^src\/(shared|picked)\.ts/.test(d))).toEqual([]);
  });

  it('writes a Pick of whole groups with the groups, reads through an Omit that keeps them, and marks every other Pick or Omit of moved keys at its line', () => {
    const list = read('src/list.ts');
    expect(list).toContain("export type Picked = Pick<ListQuery, 'User'>;\n");
    expect(list).toContain("export type Rows = Omit<ListQuery, '__typename'>['User']['userGetAll'];\n");
    const picked = read('src/picked.ts').split('\n');
    // Each Pick or Omit naming a moved key is marked on the line above it, saying what moves.
    for (const type of ["MineRow = Pick<Mine, 'taskGetAll'>", "ListRows = Pick<ListQuery, 'userGetAll'>", "NoList = Omit<ListQuery, 'userGetAll'>"]) {
      const at = picked.findIndex((l) => l.startsWith(`export type ${type}`));
      expect(picked[at - 1]).toMatch(/^\/\/ TODO\(ergraph-migrate\): `(Pick|Omit)<.*: write it in the v6 shape; move its reads: data\.(task|user)GetAll → data\.(Task|User)\.(task|user)GetAll$/);
    }
    expect(manual().filter((m) => m.includes('src/picked.ts')).map((m) => m.split(' [')[0])).toEqual([
      'manual: src/picked.ts:4:1',
      'manual: src/picked.ts:11:23',
      'manual: src/picked.ts:12:24',
      'manual: src/picked.ts:13:22',
    ]);
  });

  it('leaves a generated type to its generator, names the command, and rewrites its indexed access: after regenerating, it compiles', () => {
    expect(read('src/gql/graphql.ts')).toBe(GENERATED_V6);
    const list = read('src/list.ts');
    expect(list).toContain("export async function list(url: string): Promise<ListQuery['User']['userGetAll']> {\n");
    expect(list).toContain('  return data.User.userGetAll;\n');
    expect(manual().filter((m) => m.includes('src/list.ts'))).toEqual([
      'manual: src/list.ts:7:22 [v5-to-v6] the type argument `ListQuery` describes the v5 result: regenerate it from the v6 schema (`npx graphql-codegen`); move its reads: data.userGetAll → data.User.userGetAll',
    ]);
    expect(migrated.some((d) => d.startsWith('src/list.ts'))).toBe(true);
    expect(regenerated.filter((d) => d.startsWith('src/list.ts'))).toEqual([]);
  });

  it('a rerun on the committed output changes nothing and exits 0', () => {
    writeFileSync(join(dir, 'src/gql/graphql.ts'), GENERATED_V6);
    commit(dir);
    const texts = Object.keys(FILES).map(read);
    const again = spawnSync(process.execPath, [BIN, 'v5-to-v6', '.', '--schema', SCHEMA], { cwd: dir, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('');
    expect(Object.keys(FILES).map(read)).toEqual(texts);
  });
});
