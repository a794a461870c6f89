/**
 * No spurious marker (issue 43.6): a TODO where nothing needs a hand costs trust as much as a
 * missing one. Apollo's `refetchQueries` reads no result; an exported document nothing in the run
 * imports is migrated, with one note in the report for importers outside the run; a parameter
 * typed `{ data?: any }` describes nothing of the v5 shape. Each has a neighbour that still needs
 * its marker, so the tests fail on a pass that stops marking altogether.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { applyToFiles } from '../../codemods/apply.js';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { wholeRunNote } from '../../codemods/lib/alone.js';
import { FIXTURES } from './helpers.js';

const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));
const lines = (...l: string[]) => l.join('\n') + '\n';
const USERS = 'data.userGetAll → data.User.userGetAll';
const TASKS = 'data.taskGetAll → data.Task.taskGetAll';

/** One run over `files` (their module graph as the runner builds it), and the rerun on its output. */
function migrate(files: Record<string, string>) {
  const once = (texts: Record<string, string>) => {
    const out: Record<string, { output: string; manual: [number, string][]; notes: string[] }> = {};
    for (const [file, outcome] of applyToFiles(transform, new Map(Object.entries(texts)), { schema })) {
      expect(outcome.error, file).toBeUndefined();
      const result = outcome.result ?? { output: texts[file]!, manual: [], notes: [] };
      out[file] = { output: result.output, manual: result.manual.map((m) => [m.line, m.reason]), notes: result.notes };
    }
    return out;
  };
  const result = once(files);
  const again = once(Object.fromEntries(Object.entries(result).map(([f, r]) => [f, r.output])));
  for (const file of Object.keys(files)) expect(again[file]!.output, `a rerun changes nothing in ${file}`).toBe(result[file]!.output);
  return result;
}

describe("Apollo's refetchQueries", () => {
  it('a document refetched by a mutation is not marked there: its result goes to the cache, read by the uses the pass rewrote', () => {
    const { 'users.tsx': users } = migrate({
      'users.tsx': lines(
        "import { gql, useMutation, useQuery, type ApolloClient } from '@apollo/client';",
        'const USERS = gql`query Users { userGetAll { id } }`;',
        'const RENAME = gql`mutation Rename { userRename(id: 1, name: "x") { id } }`;',
        'export function Users(client: ApolloClient) {',
        '  const { data } = useQuery(USERS);',
        '  useMutation(RENAME, { refetchQueries: [{ query: USERS }] });',
        '  useMutation(RENAME, { refetchQueries: () => [USERS, { query: USERS, variables: {} }] });',
        '  useMutation(RENAME, { refetchQueries(result) { return [{ query: USERS }]; } });',
        '  void client.mutate({ mutation: RENAME, refetchQueries: [{ query: USERS }] });',
        '  // Not a refetch: where this object goes, the pass cannot tell.',
        '  useMutation(RENAME, { context: [{ query: USERS }] });',
        '  return data?.userGetAll.length;',
        '}',
      ),
    });
    expect(users!.output).toContain('  return data?.User.userGetAll.length;\n');
    expect(users!.manual).toEqual([[11, `the document is used where the migration cannot follow it to the code reading its result; move its reads: ${USERS}`]]);
    expect(users!.notes.filter((n) => n.includes('refetched into'))).toHaveLength(5);
  });
});

describe('an exported document nothing in the run imports', () => {
  const DOCS = lines("import { gql } from '@apollo/client';", 'export const TASKS = gql`query Tasks { taskGetAll { id } }`;', 'const ONE = gql`{ taskById(id: 1) { id } }`;', 'export { ONE };');

  it('is migrated with no TODO at its line: the report notes once per document that importers outside the run move their reads', () => {
    const { 'docs.ts': docs } = migrate({ 'docs.ts': DOCS, 'other.ts': lines('export const unrelated = 1;') });
    expect(docs!.output).toBe(
      lines(
        "import { gql } from '@apollo/client';",
        'export const TASKS = gql`query Tasks { Task { taskGetAll: getAll { id } } }`;',
        'const ONE = gql`{ Task { taskById: byId(id: 1) { id } } }`;',
        'export { ONE };',
      ),
    );
    expect(docs!.manual).toEqual([]);
    const outside = docs!.notes.filter((n) => n.includes('nothing in this run imports it'));
    expect(outside).toEqual([
      `docs.ts:2: exported document \`TASKS\`: nothing in this run imports it; code outside the run that does must move its reads: ${TASKS}`,
      'docs.ts:3: exported document `ONE`: nothing in this run imports it; code outside the run that does must move its reads: data.taskById → data.Task.taskById',
    ]);
  });

  it('one the run imports as a whole keeps its marker; migrated alone (one text, or jscodeshift), with no run to look in, too', () => {
    const run = migrate({ 'docs.ts': DOCS, 'page.ts': lines("import * as docs from './docs';", 'export const docsOf = () => docs;') });
    expect(run['docs.ts']!.manual.map(([line]) => line)).toEqual([2, 4]);
    // jscodeshift runs the runner over its one file with `alone`: the file's importers are other runs.
    const jscodeshift = applyToFiles(transform, new Map([['docs.ts', DOCS]]), { schema, alone: true }).get('docs.ts')!.result!;
    expect(jscodeshift.manual.map((m) => [m.line, m.reason])).toEqual([
      [2, `the document is exported: the modules importing it read its result; move its reads: ${TASKS}; ${wholeRunNote('v5-to-v6')}`],
      [4, `the document is exported: the modules importing it read its result; move its reads: data.taskById → data.Task.taskById; ${wholeRunNote('v5-to-v6')}`],
    ]);
    const alone = transform.apply(DOCS, { file: 'docs.ts', facts: [], options: { schema } });
    expect(alone.manual.map((m) => [m.line, m.reason])).toEqual([
      [2, `the document is exported: the modules importing it read its result; move its reads: ${TASKS}`],
      [4, 'the document is exported: the modules importing it read its result; move its reads: data.taskById → data.Task.taskById'],
    ]);
  });
});

describe("a parameter's type written for a client result", () => {
  it('`{ data?: any; loading: boolean }` names nothing of the v5 shape: its reads move, no marker; a type naming a moved field keeps one', () => {
    const { 'users.tsx': users } = migrate({
      'users.tsx': lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const USERS = gql`query Users { userGetAll { id } }`;',
        'export function Users() {',
        '  const result = useQuery(USERS);',
        '  return [show(result), showNull(result), typed(result), refetching(result)];',
        '}',
        'function show(page: { data?: any; loading: boolean }) {',
        '  return page.data?.userGetAll;',
        '}',
        'function showNull(page: { data: unknown | null; error?: Error }) {',
        '  return page.data?.userGetAll;',
        '}',
        'function typed(page: { data?: { userGetAll: unknown[] } }) {',
        '  return page.data?.userGetAll;',
        '}',
        'function refetching(page: { data?: any; refetch: () => Promise<{ data: { userGetAll: [] } }> }) {',
        '  return page.loading;',
        '}',
      ),
    });
    expect(users!.output).toContain('function show(page: { data?: any; loading: boolean }) {\n  return page.data?.User.userGetAll;\n');
    expect(users!.output).toContain('function showNull(page: { data: unknown | null; error?: Error }) {\n  return page.data?.User.userGetAll;\n');
    const describes = (type: string) => `the type \`${type}\` describes the v5 result: regenerate it (or write the v6 shape); move its reads: ${USERS}`;
    expect(users!.manual).toEqual([
      [13, describes('{ data?: { userGetAll: unknown[] } }')],
      [16, describes('{ data?: any; refetch: () => Promise<{ data: { userGetAll: [')],
    ]);
  });
});

describe('a typed result handed to a named callback', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-precision-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'apollo.d.ts': lines(
      "declare module '@apollo/client' {",
      '  export interface TypedDocumentNode<R = any, V = any> { kind: string; __apiType?: (variables: V) => R }',
      '  export function gql(strings: TemplateStringsArray, ...values: unknown[]): TypedDocumentNode;',
      '  export class ApolloClient { query<T = any>(options: { query: TypedDocumentNode }): Promise<{ data: T }> }',
      '  export function useQuery<T = any>(document: TypedDocumentNode, options?: { onCompleted?: (data: T) => void }): { data?: T };',
      '}',
    ),
    'list.ts': lines(
      "import { gql, useQuery, type ApolloClient } from '@apollo/client';",
      'type UsersQuery = { userGetAll: { id: number }[] };',
      'const Q = gql`query Users { userGetAll { id } }`;',
      'function show(result: { data: UsersQuery }) { return result.data.userGetAll.length; }',
      'function handle(data: UsersQuery) { return data.userGetAll; }',
      'function opaque(result: unknown) { return result; }',
      'export function load(client: ApolloClient) {',
      '  void client.query<UsersQuery>({ query: Q }).then(show);',
      '  void client.query<UsersQuery>({ query: Q }).then(opaque);',
      '  useQuery<UsersQuery>(Q, { onCompleted: handle });',
      '}',
    ),
  };

  it("is followed by the TypeScript checker into a callback whose parameter is typed with it: its reads move, no marker at the name; an untyped callback's stays", () => {
    // The checker reads the files from the disk, as a run does.
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const outcomes = applyToFiles(transform, new Map(Object.entries(files).map(([name, text]) => [join(dir, name), text])), { schema });
    const list = outcomes.get(join(dir, 'list.ts'))!.result!;
    expect(list.output).toContain('function show(result: { data: UsersQuery }) { return result.data.User.userGetAll.length; }\n');
    expect(list.output).toContain('function handle(data: UsersQuery) { return data.User.userGetAll; }\n');
    // The user's own alias moves with its reads (issue 43.5), so no type argument is marked.
    expect(list.output).toContain('type UsersQuery = { User: { userGetAll: { id: number }[] } };\n');
    expect(list.manual.map((m) => [m.line, m.reason])).toEqual([
      [9, `\`opaque\` receives the operation's result; move its reads: ${USERS}`],
    ]);
  });
});
