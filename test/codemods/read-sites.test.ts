import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { applyToFiles } from '../../codemods/apply.js';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { FIXTURES } from './helpers.js';

const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));
const run = (source: string, file = 'input.tsx') => transform.apply(source, { file, facts: [], options: { schema } });
const lines = (...l: string[]) => l.join('\n') + '\n';
const USERS = 'data.userGetAll → data.User.userGetAll';

/** Runs the migration and checks the rerun is a no-op. */
function migrate(source: string, file?: string) {
  const result = run(source, file);
  expect(run(result.output, file).output, 'a rerun changes nothing').toBe(result.output);
  return result;
}

describe('read sites: reads of a rewritten document move with it', () => {
  it('Apollo useQuery: property access, optional chains, element access and destructuring', () => {
    const result = migrate(
      lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const Q = gql`{ userGetAll { id } me: userById(id: 1) { name } __typename }`;',
        'export function List() {',
        '  const { data, loading } = useQuery(Q);',
        '  if (loading || !data) return null;',
        '  const { userGetAll, me: { name } = { name: "" }, __typename } = data;',
        "  return [data.userGetAll.length, data?.me?.name, data['userGetAll'], data?.['me'], userGetAll, name, __typename];",
        '}',
      ),
    );
    expect(result.output).toBe(
      lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const Q = gql`{ User { userGetAll: getAll { id } me: byId(id: 1) { name } } __typename }`;',
        'export function List() {',
        '  const { data, loading } = useQuery(Q);',
        '  if (loading || !data) return null;',
        '  const { User: { userGetAll, me: { name } = { name: "" } }, __typename } = data;',
        "  return [data.User.userGetAll.length, data?.User.me?.name, data.User['userGetAll'], data?.User['me'], userGetAll, name, __typename];",
        '}',
      ),
    );
    expect(result.manual).toEqual([]);
  });

  it('Apollo useMutation, useLazyQuery, onCompleted, refetch, client.query and readQuery', () => {
    const result = migrate(
      lines(
        "import { gql, useMutation, useLazyQuery, ApolloClient } from '@apollo/client';",
        'const DONE = gql`mutation { taskComplete(id: 1) { id } }`;',
        'const Q = gql`{ taskGetAll { id } }`;',
        'export function useThings(client: ApolloClient<unknown>) {',
        '  const [complete, { data: done }] = useMutation(DONE, { onCompleted: (d) => console.log(d.taskComplete) });',
        '  const [load, result] = useLazyQuery(Q);',
        '  const run = async () => {',
        '    const { data } = await complete();',
        '    const again = await result.refetch();',
        '    const { data: fromClient } = await client.query({ query: Q });',
        '    const cached = client.readQuery({ query: Q });',
        '    load().then((r) => console.log(r.data?.taskGetAll));',
        '    console.log(data?.taskComplete, again.data.taskGetAll, fromClient.taskGetAll, cached?.taskGetAll, result.data?.taskGetAll, done?.taskComplete);',
        '  };',
        '  void run();',
        '}',
      ),
    );
    expect(result.manual).toEqual([]);
    const out = result.output;
    for (const read of ['d.Task.taskComplete', 'data?.Task.taskComplete', 'again.data.Task.taskGetAll', 'fromClient.Task.taskGetAll', 'cached?.Task.taskGetAll', 'result.data?.Task.taskGetAll', 'done?.Task.taskComplete', 'r.data?.Task.taskGetAll'])
      expect(out).toContain(read);
  });

  it('graphql-request request/rawRequest/GraphQLClient#request, urql client and useQuery, Relay hooks', () => {
    const result = migrate(
      lines(
        "import { request, GraphQLClient, gql } from 'graphql-request';",
        "import { Client, useQuery } from 'urql';",
        "import { useLazyLoadQuery, graphql } from 'react-relay';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export async function f(client: GraphQLClient, urql: Client) {',
        "  const a = await request('/graphql', Q);",
        '  const { data: b } = await client.rawRequest(Q);',
        '  const c = await client.request({ document: Q });',
        '  const d = await urql.query(Q, {}).toPromise();',
        '  console.log(a.userGetAll, b?.userGetAll, c.userGetAll, d.data?.userGetAll);',
        '}',
        'export function C() {',
        '  const [{ data }] = useQuery({ query: Q });',
        '  const relay = useLazyLoadQuery(graphql`query CQuery { taskGetAll { id } }`, {});',
        '  return [data?.userGetAll, relay.taskGetAll];',
        '}',
      ),
    );
    expect(result.manual).toEqual([]);
    for (const read of ['a.User.userGetAll', 'b?.User.userGetAll', 'c.User.userGetAll', 'd.data?.User.userGetAll', 'data?.User.userGetAll', 'relay.Task.taskGetAll'])
      expect(result.output).toContain(read);
  });

  it('fetch of a JSON body: awaited and through .then', () => {
    const result = migrate(
      lines(
        'const query = /* GraphQL */ `{ userGetAll { id } }`;',
        'export async function f() {',
        "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query }) });",
        '  const body = await res.json();',
        "  fetch('/graphql', { method: 'POST', body: JSON.stringify({ query }) }).then((r) => r.json()).then((b) => console.log(b.data.userGetAll));",
        '  const { data } = body;',
        '  const { userGetAll } = data;',
        '  return userGetAll;',
        '}',
      ),
      'f.ts',
    );
    expect(result.manual).toEqual([]);
    expect(result.output).toContain('b.data.User.userGetAll');
    expect(result.output).toContain('const { User: { userGetAll } } = data;');
  });

  it('a stand-in for the data (`?? {}`, `|| {}`, a default, the other branch) still reads undefined where v5 did: the step into the group is optional', () => {
    const source = lines(
      "import { request, gql } from 'graphql-request';",
      'const Q = gql`{ userGetAll { id } }`;',
      'export async function reads(url: string) {',
      '  const data: any = await request<any>(url, Q).catch(() => null);',
      '  const { userGetAll = [] } = data ?? {};',
      '  const d = data || {};',
      "  const read = [userGetAll.length, (data ?? {}).userGetAll?.length, d.userGetAll, d['userGetAll'], (data ? data : {}).userGetAll];",
      '  return data ? data.userGetAll : read;',
      '}',
      'export const first = (url: string) => request<any>(url, Q).then((data = {}) => data.userGetAll);',
    );
    const result = migrate(source);
    expect(result.output).toBe(
      lines(
        "import { request, gql } from 'graphql-request';",
        'const Q = gql`{ User { userGetAll: getAll { id } } }`;',
        'export async function reads(url: string) {',
        '  const data: any = await request<any>(url, Q).catch(() => null);',
        '  const { User: { userGetAll = [] } = {} } = data ?? {};',
        '  const d = data || {};',
        "  const read = [userGetAll.length, (data ?? {}).User?.userGetAll?.length, d.User?.userGetAll, d.User?.['userGetAll'], (data ? data : {}).User?.userGetAll];",
        '  return data ? data.User.userGetAll : read;',
        '}',
        'export const first = (url: string) => request<any>(url, Q).then((data = {}) => data.User?.userGetAll);',
      ),
    );
    expect(result.manual).toEqual([]);
    // As JavaScript, with the data missing (v5 and v6 alike): each stand-in reads what it read on v5, nothing throws.
    const reads = (text: string) => new Function('data', text.split('\n').slice(4, 8).join('\n'))(null) as unknown[];
    expect(reads(source)).toEqual([0, undefined, undefined, undefined, undefined]);
    expect(reads(result.output)).toEqual(reads(source));
    const callback = (text: string) => new Function(`return ${/\.then\((.*)\);$/m.exec(text)![1]}`)()(undefined) as unknown;
    expect(callback(result.output)).toBe(callback(source));
  });

  it('follows a copy of the data (structuredClone, a JSON round trip) to its reads; a JSON text alone stays a note', () => {
    const result = migrate(
      lines(
        "import { request, gql } from 'graphql-request';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export async function copies(url: string) {',
        '  const data = await request<any>(url, Q);',
        '  const copy = structuredClone(data);',
        '  return [JSON.parse(JSON.stringify(data)).userGetAll.length, copy.userGetAll, JSON.stringify(data)];',
        '}',
      ),
    );
    expect(result.output).toContain('  return [JSON.parse(JSON.stringify(data)).User.userGetAll.length, copy.User.userGetAll, JSON.stringify(data)];\n');
    expect(result.manual).toEqual([]);
    expect(result.notes.filter((n) => n.includes('serialized whole')).map((n) => n.split(':')[1])).toEqual(['6']);
  });

  it("Apollo's mutation options: a refetchQueries function reads the result, onQueryUpdated's diff is marked, a hook's dependency list reads nothing", () => {
    const result = migrate(
      lines(
        "import { gql, useMutation, useQuery, ApolloClient } from '@apollo/client';",
        "import { useEffect } from 'react';",
        'const DONE = gql`mutation Done { taskComplete(id: 1) { id title } }`;',
        'const Q = gql`query Tasks { taskGetAll { id } }`;',
        'export function useThings(client: ApolloClient) {',
        '  const { data } = useQuery(Q);',
        '  useEffect(() => console.log(data?.taskGetAll), [data]);',
        "  const [complete] = useMutation(DONE, { refetchQueries: (r) => (r.data?.taskComplete.title ? ['Tasks'] : []) });",
        '  void client.mutate({',
        '    mutation: DONE,',
        "    refetchQueries: ['Tasks'],",
        '    onQueryUpdated(observable, diff) { return (diff.result as any)?.taskGetAll?.length > 0; },',
        '  });',
        '  void complete({ onQueryUpdated: (observable) => observable.refetch() });',
        '}',
      ),
    );
    expect(result.output).toContain('  useEffect(() => console.log(data?.Task.taskGetAll), [data]);\n');
    expect(result.output).toContain("refetchQueries: (r) => (r.data?.Task.taskComplete.title ? ['Tasks'] : [])");
    expect(result.manual.map((m) => [m.line, m.reason.split(',')[0]])).toEqual([[12, '`onQueryUpdated` reads `diff.result`']]);
  });

  it('marks a read of a v5 root field off a `data` no document leads to (a link, a response middleware), and only those', () => {
    const result = migrate(
      lines(
        "import { ApolloLink, gql, useQuery } from '@apollo/client';",
        "import { GraphQLClient } from 'graphql-request';",
        "import { map } from 'rxjs';",
        'export const counting = new ApolloLink((op, forward) => forward(op).pipe(map((res: any) => (res.data?.userGetAll && console.log(res.data.userGetAll.length), res))));',
        "export const client = new GraphQLClient('/graphql', { responseMiddleware: (r: any) => void (r.data!.taskCreate ? console.log('created') : null) });",
        'const Q = gql`{ userGetAll { id } }`;',
        'export function Users() {',
        '  const result = useQuery(Q);',
        '  return result.data?.userGetAll.length;',
        '}',
      ),
    );
    expect(result.output).toContain('  return result.data?.User.userGetAll.length;\n');
    expect(result.manual.map((m) => [m.line, m.reason.split(':')[0]])).toEqual([
      [4, '`data.userGetAll` reads a v5 root field off a result the migration did not follow'],
      [5, '`data.taskCreate` reads a v5 root field off a result the migration did not follow'],
    ]);
    expect(result.manual[1]!.reason).toContain('`data.Task.taskCreate` where the migration rewrote the document');
    expect(result.manual[1]!.reason).toContain('`data.Task.create` in one written for v6');
  });

  it("TanStack Query's queryFn: select, the hook's data and fetchQuery's are the data; initialData in the v5 shape is marked", () => {
    const result = migrate(
      lines(
        "import { QueryClient, useQuery } from '@tanstack/react-query';",
        "import { request, gql } from 'graphql-request';",
        'const Q = gql`{ userGetAll { id } }`;',
        'const qc = new QueryClient();',
        'export function useUsers() {',
        "  const { data, isLoading } = useQuery({ queryKey: ['u'], queryFn: () => request<any>('/graphql', Q) });",
        "  const count = useQuery({ queryKey: ['n'], queryFn: async () => request<any>('/graphql', Q), select: (d: any) => d.userGetAll.length });",
        "  const seeded = useQuery({ queryKey: ['s'], queryFn: () => request<any>('/graphql', Q), initialData: { userGetAll: [] } });",
        '  return [isLoading, data?.userGetAll, count.data, seeded.data.userGetAll];',
        '}',
        "export const first = async () => (await qc.fetchQuery({ queryKey: ['u'], queryFn() { return request<any>('/graphql', Q); } })).userGetAll[0];",
      ),
    );
    expect(result.output).toContain("select: (d: any) => d.User.userGetAll.length });\n");
    expect(result.output).toContain('  return [isLoading, data?.User.userGetAll, count.data, seeded.data.User.userGetAll];\n');
    expect(result.output).toContain("queryFn() { return request<any>('/graphql', Q); } })).User.userGetAll[0];\n");
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([[8, '`initialData` gives the query data in the v5 shape']]);
  });

  it("marks TanStack Query's cache read or written by key in the v5 shape (getQueryData, setQueryData), which no document leads to", () => {
    const result = migrate(
      lines(
        "import { QueryClient } from '@tanstack/query-core';",
        'const qc = new QueryClient();',
        'export function seed(userGetAll: unknown[]) {',
        "  qc.setQueryData(['users'], { userGetAll });",
        "  qc.setQueryData(['users'], (old: any) => ({ ...old, userGetAll: [] }));",
        "  const { userGetAll: cached = [] } = qc.getQueryData<any>(['users']) ?? {};",
        "  return [cached, qc.getQueryData<any>(['users'])?.userGetAll, qc.getQueryData<any>(['other'])?.somethingElse];",
        '}',
      ),
    );
    expect(result.output).toContain("  qc.setQueryData(['users'], { userGetAll });\n");
    expect(result.manual.map((m) => [m.line, m.reason.split(':')[0]])).toEqual([
      [4, '`setQueryData` writes `userGetAll` in the v5 shape'],
      [5, '`setQueryData` writes `userGetAll` in the v5 shape'],
      [6, '`userGetAll` is read from `getQueryData(…)` in the v5 shape'],
      [7, '`getQueryData(…).userGetAll` reads the cached data in the v5 shape'],
    ]);
    expect(result.manual[0]!.reason).toContain("TanStack Query's cache holds the data as its `queryFn` resolved it, so in v6 `userGetAll` is under its group, `data.User.userGetAll`");
  });

  it('follows each element of an awaited Promise.all to its own binding, and marks what it cannot pair', () => {
    const result = migrate(
      lines(
        "import { request, gql } from 'graphql-request';",
        'const USERS = gql`{ userGetAll { id } }`;',
        'const TASKS = gql`{ taskGetAll { id } }`;',
        'export async function both(url: string) {',
        '  const [users, , tasks = {}] = await Promise.all([request<any>(url, USERS), Promise.resolve(1), request<any>(url, TASKS)]);',
        '  const [first, ...rest] = await Promise.all([request<any>(url, USERS), request<any>(url, TASKS)]);',
        '  return [users.userGetAll, tasks.taskGetAll, first.userGetAll, rest];',
        '}',
      ),
    );
    expect(result.output).toContain('  return [users.User.userGetAll, tasks.Task?.taskGetAll, first.User.userGetAll, rest];\n');
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([[6, "the operation's result is used where the migration cannot follow it"]]);
    expect(result.manual[0]!.reason).toContain('data.taskGetAll → data.Task.taskGetAll');
  });

  it("follows Apollo's watchQuery: subscribe's next (a function or an observer) and getCurrentResult get results; a select given by name is marked", () => {
    const result = migrate(
      lines(
        "import { ApolloClient, gql } from '@apollo/client';",
        "import { useQuery } from '@tanstack/react-query';",
        "import { request } from 'graphql-request';",
        'const Q = gql`query Watched { userGetAll { id } }`;',
        'export function watch(client: ApolloClient, pick: (d: unknown) => unknown) {',
        '  const watched = client.watchQuery({ query: Q });',
        '  watched.subscribe((r) => console.log(r.data?.userGetAll));',
        '  const sub = watched.subscribe({ next: ({ data }) => console.log(data?.userGetAll.length), error: console.error });',
        '  watched.startPolling(1000);',
        '  const { data: now } = watched.getCurrentResult();',
        "  const picked = useQuery({ queryKey: ['w'], queryFn: () => request<any>('/graphql', Q), select: pick });",
        "  const select = pick;",
        "  const short = useQuery({ queryKey: ['v'], queryFn: () => request<any>('/graphql', Q), select });",
        '  return [now?.userGetAll, sub, picked, short];',
        '}',
      ),
    );
    expect(result.output).toContain('  watched.subscribe((r) => console.log(r.data?.User.userGetAll));\n');
    expect(result.output).toContain('next: ({ data }) => console.log(data?.User.userGetAll.length)');
    expect(result.output).toContain('  return [now?.User.userGetAll, sub, picked, short];\n');
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([
      [11, "`pick` receives the operation's result"],
      [13, "`select` receives the operation's result"],
    ]);
  });

  it('marks what it cannot prove, naming the moved paths, and counts it as manual', () => {
    const result = migrate(
      lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import { render } from './render';",
        'export const SHARED = gql`{ userGetAll { id } }`;',
        'const Q = gql`{ userGetAll { id } }`;',
        'export function List() {',
        '  const { data } = useQuery<{ userGetAll: { id: number }[] }>(Q);',
        '  const { ...rest } = data!;',
        '  return render(data);',
        '}',
      ),
    );
    const reasons = result.manual.map((m) => m.reason);
    expect(reasons).toEqual([
      `the document is exported: the modules importing it read its result; move its reads: ${USERS}`,
      `a rest element collects the v6 groups, not the v5 fields; move its reads: ${USERS}`,
      `the operation's result is passed to \`render\`, which the migration cannot follow; move its reads: ${USERS}`,
    ]);
    for (const reason of reasons) expect(result.output).toContain(`// TODO(ergraph-migrate): ${reason}\n`);
    // The type written for the v5 result moves with its reads (issue 43.5).
    expect(result.output).toContain('  const { data } = useQuery<{ User: { userGetAll: { id: number }[] } }>(Q);\n');
  });

  it('keeps a shadowing name to its own scope and does not guess through an unknown client', () => {
    const result = migrate(
      lines(
        "import { gql, useQuery } from '@apollo/client';",
        "import { useQuery as other } from './hooks';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export function A() {',
        '  const { data } = useQuery(Q);',
        '  const f = (data: { userGetAll: unknown }) => data.userGetAll;',
        '  return [f, other(Q)];',
        '}',
      ),
    );
    expect(result.manual.map((m) => m.reason.split(';')[0])).toEqual([
      'the document is passed to `other`, a client the migration does not know',
    ]);
    // The arrow's own `data` parameter shadows the result: its read is not the document's.
    expect(result.output).toContain('=> data.userGetAll;');
  });

  it('marks each operation of a .graphql file: its readers are out of sight', () => {
    const result = migrate('query A { userGetAll { id } }\nquery B { __typename }\n', 'a.graphql');
    expect(result.output).toBe(
      `# TODO(ergraph-migrate): the code reading this operation's result must move its reads: ${USERS}\nquery A { User { userGetAll: getAll { id } } }\nquery B { __typename }\n`,
    );
    expect(result.manual).toHaveLength(1);
  });
});

describe('read sites: writes in the v5 shape', () => {
  it('writes writeQuery data in the v6 shape (with the group\'s __typename)', () => {
    const result = migrate(
      lines(
        "import { gql, ApolloClient } from '@apollo/client';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export function f(client: ApolloClient<unknown>, users: unknown[]) {',
        '  client.writeQuery({ query: Q, data: { userGetAll: [] } });',
        '  client.cache.writeQuery({',
        '    query: Q,',
        '    data: {',
        "      __typename: 'Query',",
        '      userGetAll: users,',
        '    },',
        '  });',
        '  client.writeQuery({ query: Q, data: { ...users } });',
        '}',
      ),
    );
    expect(result.output).toContain("  client.writeQuery({ query: Q, data: { User: { __typename: 'UserQuery', userGetAll: [] } } });\n");
    expect(result.output).toContain("    data: {\n      __typename: 'Query',\n      User: { __typename: 'UserQuery', userGetAll: users },\n    },\n");
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([[12, 'a spread in the data written may carry moved fields: write it in the v6 shape']]);
  });

  it('rewrites a cache.modify field of a moved root field to a modifier of the group object when the modifier takes only the value', () => {
    const result = migrate(
      lines(
        "import { gql, ApolloClient } from '@apollo/client';",
        'const Q = gql`{ userGetAll { id } taskGetAll { id } }`;',
        'export function f(client: ApolloClient<unknown>) {',
        '  client.cache.modify({ fields: { userGetAll: (existing = []) => existing.slice(1), other: () => 1 } });',
        '  client.cache.modify({ fields: { taskGetAll(list: string[]) { return list.slice(1); } } });',
        '  client.cache.modify({ fields: { taskGetAll(existing, { DELETE }) { return DELETE; } } });',
        "  client.cache.modify({ id: 'Task:1', fields: { taskGetAll: () => [] } });",
        '}',
      ),
    );
    // Apollo keeps the group inline under the root and the field by its name (`getAll`, `getAll({"limit":2})`), not the alias.
    const loop = (method: string) =>
      `let next = group; for (const key of Object.keys(group ?? {})) if (key === '${method}' || key.startsWith('${method}(')) { const value = modify(group[key]); if (value !== group[key]) next = { ...next, [key]: value }; } return next; }`;
    expect(result.output).toContain(`  client.cache.modify({ fields: { User: (group: any) => { const modify = (existing = []) => existing.slice(1); ${loop('getAll')}, other: () => 1 } });\n`);
    expect(result.output).toContain(`  client.cache.modify({ fields: { Task: (group: any) => { const modify = (list: string[]) => { return list.slice(1); }; ${loop('getAll')} } });\n`);
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([
      [6, '`cache.modify` names the v5 root field `taskGetAll`'],
      [7, '`cache.modify` names the v5 root field `taskGetAll`'],
    ]);
    expect(result.manual[0]!.reason).toContain(
      'the v6 cache keeps it as `getAll` (one key per argument list, `getAll({…})`) inside the root\'s `Task` object, which has no id for `cache.modify({ id })`: write `Task: (group) => …` returning `group` with the modifier applied to each of those keys (its modifier reads `details`',
    );
    expect(result.manual[1]!.reason).toContain('(it names an `id` (or spreads its options), so it may not be the root)');
  });

  it('moves or marks cache.modify fields of v5 root fields in a file that holds no document', () => {
    const result = migrate(
      lines(
        "import type { ApolloCache } from '@apollo/client';",
        'export function drop(cache: ApolloCache) {',
        '  cache.modify({ fields: { userGetAll: (existing = []) => existing.slice(1) } });',
        '  cache.modify({ fields: { taskGetAll(existing, { DELETE }) { return DELETE; } } });',
        '}',
      ),
      'cache.ts',
    );
    expect(result.output).toContain('  cache.modify({ fields: { User: (group: any) => { const modify = (existing = []) => existing.slice(1); let next = group;');
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([[4, '`cache.modify` names the v5 root field `taskGetAll`']]);
  });

  it('marks a cache.modify whose fields are named by a variable (computed key, spread, `fields: x`) with the moved fields and the v6 shape', () => {
    const source = lines(
      "import { gql, ApolloClient } from '@apollo/client';",
      'const Q = gql`{ userGetAll { id } taskGetAll { id } }`;',
      'export function f(client: ApolloClient<unknown>, name: string, mods: any) {',
      '  client.cache.modify({ fields: { [name]: (existing) => existing } });',
      '  client.cache.modify({ fields: { ...mods } });',
      '  client.cache.modify({ fields: mods });',
      '  client.cache.modify({ fields });',
      "  client.cache.modify({ fields: { other: () => 1, ['title']: () => 'x' } });",
      "  client.cache.modify({ id: 'Task:1', fields: { [name]: () => 1 } });",
      '}',
    );
    const result = migrate(source);
    expect(result.manual.map((m) => [m.line, m.reason.split(', which')[0]])).toEqual([
      [4, '`cache.modify` names fields by a computed key (`[name]`)'],
      [5, '`cache.modify` names fields by a spread (`...mods`)'],
      [6, '`cache.modify` names fields by a variable (`fields: mods`)'],
      [7, '`cache.modify` names fields by a variable (`fields: fields`)'],
    ]);
    expect(result.manual[0]!.reason).toContain(
      "if one is a v5 root field that moved (`taskGetAll` → `Task.getAll`, `userGetAll` → `User.getAll`), the v6 cache keeps it as its method (one key per argument list, `getAll({…})`) inside the root's group object (`Task`), which has no id for `cache.modify({ id })`",
    );
    const out = result.output.split('\n');
    expect(out.filter((l) => l.startsWith('  // TODO(ergraph-migrate): `cache.modify` names fields by'))).toHaveLength(4);
    // Literal keys that did not move, and an entity's fields (an `id`), are not the root's: left as written.
    expect(out).toContain("  client.cache.modify({ fields: { other: () => 1, ['title']: () => 'x' } });");
    expect(out[out.indexOf("  client.cache.modify({ fields: { other: () => 1, ['title']: () => 'x' } });") - 1]).toBe('  client.cache.modify({ fields });');
    expect(out[out.indexOf("  client.cache.modify({ id: 'Task:1', fields: { [name]: () => 1 } });") - 1]).toBe("  client.cache.modify({ fields: { other: () => 1, ['title']: () => 'x' } });");
  });

  it('leaves a file byte-identical whose cache.modify calls name only fields that did not move', () => {
    const source = lines(
      "import { gql, ApolloClient } from '@apollo/client';",
      'const Q = gql`{ userGetAll { id } }`;',
      'export function f(client: ApolloClient<unknown>) {',
      "  client.cache.modify({ fields: { other: () => 1, 'title': () => 'x', ['count']: () => 0 } });",
      '}',
    );
    const result = migrate(source);
    expect(result.manual).toEqual([]);
    expect(result.output).toBe(source.replace('{ userGetAll { id } }', '{ User { userGetAll: getAll { id } } }'));
  });

  it('marks a variable-named cache.modify in a file without documents with the fields the run moved', () => {
    const files = new Map([
      ['users.graphql', '{ userGetAll { id } }\n'],
      ['tasks.ts', lines("import { gql } from '@apollo/client';", 'export const TASKS = gql`{ taskGetAll { id } }`;')],
      ['cache.ts', lines("import type { ApolloCache } from '@apollo/client';", 'export const drop = (cache: ApolloCache, name: string) =>', '  cache.modify({ fields: { [name]: () => [] } });')],
      ['plain.ts', lines("import type { ApolloCache } from '@apollo/client';", 'export const drop = (cache: ApolloCache) => cache.modify({ fields: { other: () => [] } });')],
    ]);
    const outcomes = applyToFiles(transform, files, { schema });
    const cache = outcomes.get('cache.ts')!.result!;
    expect(cache.manual.map((m) => [m.line, m.reason.split(', the v6')[0]])).toEqual([
      [3, '`cache.modify` names fields by a computed key (`[name]`), which the migration cannot read; if one is a v5 root field that moved (`taskGetAll` → `Task.getAll`, `userGetAll` → `User.getAll`)'],
    ]);
    expect(cache.output).toContain('  // TODO(ergraph-migrate): `cache.modify` names fields by a computed key (`[name]`)');
    expect(outcomes.get('plain.ts')!.result).toEqual({ output: files.get('plain.ts'), manual: [], notes: [], pending: [], notForThisApi: [] });
    // Without a document of the run moving anything, nothing is named and nothing marked.
    const alone = applyToFiles(transform, new Map([...files].filter(([f]) => f === 'cache.ts')), { schema }).get('cache.ts')!.result!;
    expect(alone.manual).toEqual([]);
    expect(alone.output).toBe(files.get('cache.ts'));
  });

  it('counts the fields a component moves, and marks a variable-named cache.modify in a component, like a script', () => {
    const files = new Map([
      ['Users.vue', lines('<template><p>{{ n }}</p></template>', '<script setup lang="ts">', "import { gql } from '@apollo/client';", 'const USERS = gql`{ userGetAll { id } }`;', '</script>')],
      ['cache.ts', lines("import type { ApolloCache } from '@apollo/client';", 'export const drop = (cache: ApolloCache, name: string) =>', '  cache.modify({ fields: { [name]: () => [] } });')],
      ['Drop.svelte', lines('<script lang="ts">', "  import type { ApolloCache } from '@apollo/client';", '  export let cache: ApolloCache;', '  const drop = (name: string) => cache.modify({ fields: { [name]: () => [] } });', '</script>')],
    ]);
    const outcomes = applyToFiles(transform, files, { schema });
    // The only moving document is the component's: the script without documents is marked with its field.
    const cache = outcomes.get('cache.ts')!.result!;
    expect(cache.manual.map((m) => m.line)).toEqual([3]);
    expect(cache.manual[0]!.reason).toContain('(`userGetAll` → `User.getAll`)');
    const drop = outcomes.get('Drop.svelte')!.result!;
    expect(drop.manual.map((m) => m.line)).toEqual([4]);
    expect(drop.manual[0]!.reason).toContain('(`userGetAll` → `User.getAll`)');
    expect(drop.output).toContain('  // TODO(ergraph-migrate): `cache.modify` names fields by a computed key (`[name]`)');
  });

  it('reports an error path compared with a moved key: the v6 path starts with the group', () => {
    const result = migrate(
      lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export function A() {',
        '  const { error } = useQuery(Q);',
        "  const mine = error?.graphQLErrors.filter((e) => e.path?.[0] === 'userGetAll');",
        "  const deep = error?.graphQLErrors.some((e) => e.path?.join('.').startsWith('userGetAll.'));",
        "  const other = error?.graphQLErrors.some((e) => e.path?.[0] === 'taskGetAll');",
        '  return [mine, deep, other];',
        '}',
      ),
    );
    expect(result.manual.map((m) => [m.line, m.reason.split(';')[0]])).toEqual([
      [5, "an error's `path` is compared with `userGetAll`: in v6 it starts with `User.userGetAll`"],
      [6, "an error's `path` is compared with `userGetAll.`: in v6 it starts with `User.userGetAll`"],
    ]);
  });
});

describe('read sites: aliased tags and typed documents', () => {
  it('finds documents behind an aliased gql import and a graphql-tag default import under another name', () => {
    const result = migrate(
      lines(
        "import { gql as g, useQuery } from '@apollo/client';",
        "import tag from 'graphql-tag';",
        'const Q = g`{ userGetAll { id } }`;',
        'const R = tag`{ taskGetAll { id } }`;',
        'export function A() {',
        '  const { data } = useQuery(Q);',
        '  const r = useQuery(R);',
        '  return [data?.userGetAll, r.data?.taskGetAll];',
        '}',
      ),
    );
    expect(result.manual).toEqual([]);
    expect(result.output).toContain('const Q = g`{ User { userGetAll: getAll { id } } }`;');
    expect(result.output).toContain('const R = tag`{ Task { taskGetAll: getAll { id } } }`;');
    expect(result.output).toContain('return [data?.User.userGetAll, r.data?.Task.taskGetAll];');
  });

  it("GraphQL Code Generator's client preset and gql.tada: graphql() documents, their reads and a result type written inline move", () => {
    const preset = migrate(
      lines(
        "import { useQuery } from '@apollo/client';",
        "import type { TypedDocumentNode } from '@graphql-typed-document-node/core';",
        "import { graphql } from './gql';",
        'const Users = graphql(`query Users { userGetAll { id } }`);',
        'const Typed: TypedDocumentNode<{ userGetAll: { id: number }[] }, object> = graphql(`query Typed { userGetAll { id } }`);',
        'export function A() {',
        '  const { data } = useQuery(Users);',
        '  const typed = useQuery(Typed);',
        '  return [data?.userGetAll, typed.data?.userGetAll];',
        '}',
      ),
    );
    expect(preset.output).toContain('return [data?.User.userGetAll, typed.data?.User.userGetAll];');
    // The result type written inline moves with its reads (issue 43.5).
    expect(preset.manual).toEqual([]);
    expect(preset.output).toContain('const Typed: TypedDocumentNode<{ User: { userGetAll: { id: number }[] } }, object> = graphql(');
    const tada = migrate(
      lines(
        "import { graphql, type ResultOf } from 'gql.tada';",
        "import { request } from 'graphql-request';",
        'const Users = graphql(`query Users { userGetAll { id } }`);',
        'export async function ids(): Promise<number[]> {',
        "  const { userGetAll } = await request('/graphql', Users);",
        '  return userGetAll.map((u) => u.id);',
        '}',
      ),
      'tada.ts',
    );
    expect(tada.manual).toEqual([]);
    expect(tada.output).toContain("  const { User: { userGetAll } } = await request('/graphql', Users);\n");
  });
});
