/**
 * Issue 43.3: client caches keep working after v5-to-v6. In v6 every query of one entity writes the
 * one group object (`ROOT_QUERY.User`, type `UserQuery`, no id): Apollo's default `InMemoryCache`
 * replaces it with each result, so the migration gives each `new InMemoryCache(…)` a merging type
 * policy per group (and moves the user's field policies of v5 root fields to the group), adds
 * Graphcache `keys` for the groups (moving `resolvers`/`updates` of v5 root fields), rewrites the
 * data updaters return (`fetchMore`'s `updateQuery`) to the v6 shape, and marks what it cannot
 * reach. `apolloTypePolicies`/`graphcacheKeys` give new v6 clients the same from the schema. Each
 * is checked on the real @apollo/client and @urql/exchange-graphcache against a real server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql, type TypePolicies } from '@apollo/client';
import { Client, fetchExchange, gql as urqlGql } from '@urql/core';
import { cacheExchange, type CacheExchangeOpts } from '@urql/exchange-graphcache';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyToFiles } from '../../codemods/apply.js';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { handler } from '../../fixtures/client-corpus/server.js';
import { apolloTypePolicies, graphcacheKeys } from '../../src/index.js';
import type { ServedApp } from '../../src/http/index.js';
import { REPO } from '../support/built-package.js';
import { serveV5AndV6 } from '../support/v5-and-v6-server.js';

const lines = (...l: string[]) => l.join('\n') + '\n';
const schema = handler.schema;

/** One run over the files, as the runner does it (scan, then apply); the rerun on its output changes nothing. */
function migrate(files: Record<string, string>) {
  const run = (input: Record<string, string>) => {
    const out: Record<string, { output: string; manual: string[] }> = {};
    for (const [file, o] of applyToFiles(transform, new Map(Object.entries(input)), { schema })) {
      if (o.error) throw o.error;
      out[file] = { output: o.result!.output, manual: o.result!.manual.map((m) => `${m.line}: ${m.reason}`) };
    }
    return out;
  };
  const first = run(files);
  const again = run(Object.fromEntries(Object.entries(first).map(([f, r]) => [f, r.output])));
  for (const [file, r] of Object.entries(again)) expect(r.output, `a rerun changes ${file}`).toBe(first[file]!.output);
  return first;
}

// Migrated modules are imported for real: a directory of the repository's own, whose imports resolve to its node_modules.
const scratch = mkdtempSync(join(REPO, 'test', 'codemods', '.client-caches-'));
let served = 0;
async function load<T>(text: string): Promise<T> {
  const file = join(scratch, `module-${++served}.ts`);
  writeFileSync(file, text);
  return (await import(file)) as T;
}

let server: ServedApp;
beforeAll(async () => {
  server = await serveV5AndV6(handler);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const ALL = gql`query All { User { userGetAll: getAll(limit: 2) { id name } } }`;
const ONE = gql`query One { User { userById: byId(id: 2) { id name } } }`;
const apollo = (cache: InMemoryCache) => new ApolloClient({ link: new HttpLink({ uri: `${server.url}/graphql` }), cache });
/** Two queries of the `User` group, then what the cache gives back for each. */
async function bothRead(cache: InMemoryCache) {
  const client = apollo(cache);
  await client.query({ query: ALL });
  await client.query({ query: ONE });
  return [client.readQuery({ query: ALL }), client.readQuery({ query: ONE })];
}

/** The same on urql with a Graphcache exchange: each query's data as the cache alone gives it back. */
async function bothCached(exchange: ReturnType<typeof cacheExchange>) {
  const client = new Client({ url: `${server.url}/graphql`, exchanges: [exchange, fetchExchange] });
  const queries = [urqlGql`query All { User { userGetAll: getAll(limit: 2) { id name } } }`, urqlGql`query One { User { userById: byId(id: 2) { id name } } }`];
  for (const q of queries) await client.query(q, {}).toPromise();
  const cached = await Promise.all(queries.map((q) => client.query(q, {}, { requestPolicy: 'cache-only' }).toPromise()));
  return { client, data: cached.map((r) => r.data) };
}

describe('apolloTypePolicies and graphcacheKeys: the configuration v6 clients need, from the schema', () => {
  it('gives a merging policy per query group (from a handler or its schema) and a null key per group', () => {
    expect(apolloTypePolicies(handler)).toEqual({ UserQuery: { merge: true }, TaskQuery: { merge: true } });
    expect(apolloTypePolicies(handler.schema)).toEqual(apolloTypePolicies(handler));
    const keys = graphcacheKeys(handler);
    expect(Object.keys(keys)).toEqual(['UserQuery', 'TaskQuery', 'TaskMutation']);
    expect(Object.values(keys).map((key) => key())).toEqual([null, null, null]);
  });

  it('Apollo: without them the second query of a group replaces the first one in the cache; with them both read back', async () => {
    const [lost, kept] = await bothRead(new InMemoryCache());
    expect(lost).toBeNull();
    expect(kept).toEqual({ User: { __typename: 'UserQuery', userById: { __typename: 'User', id: 2, name: 'Grace' } } });
    const both = await bothRead(new InMemoryCache({ typePolicies: apolloTypePolicies(handler) }));
    expect(both).toEqual([
      { User: { __typename: 'UserQuery', userGetAll: [{ __typename: 'User', id: 1, name: 'Ada' }, { __typename: 'User', id: 2, name: 'Grace' }] } },
      { User: { __typename: 'UserQuery', userById: { __typename: 'User', id: 2, name: 'Grace' } } },
    ]);
  });

  it('Graphcache: with the keys both queries of a group read back from the cache, without the missing-key warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { data } = await bothCached(cacheExchange({ keys: graphcacheKeys(handler) }));
      expect(data).toEqual([{ User: { userGetAll: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }] } }, { User: { userById: { id: 2, name: 'Grace' } } }]);
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/no key could be generated/);
    } finally {
      warn.mockRestore();
    }
  });
});

const DOCUMENTS = lines(
  "import { gql } from '@apollo/client';",
  '// Read in other modules: the run follows them there (what matters here is which groups they use).',
  'export const USERS = gql`query Users { userGetAll(limit: 2) { id name } }`;',
  'export const TASKS = gql`query Tasks { taskGetAll { id title } }`;',
  'export const RENAME = gql`mutation Rename { taskRename(title: "x") { id title } }`;',
);

describe('v5-to-v6 and Apollo\'s InMemoryCache', () => {
  it("gives each cache of the run a merging policy per query group its documents use, next to the user's policies, and moves field policies of v5 root fields to their group", async () => {
    const { 'cache.ts': cache } = migrate({
      'documents.ts': DOCUMENTS,
      'cache.ts': lines(
        "import { InMemoryCache, type TypePolicies } from '@apollo/client';",
        'export const plain = new InMemoryCache();',
        'export const options = new InMemoryCache({ resultCaching: true });',
        'const policies: TypePolicies = {',
        '  Query: {',
        '    fields: {',
        '      userGetAll: { keyArgs: false, merge: (existing: unknown[] = [], incoming: unknown[]) => [...existing, ...incoming] },',
        '      local: { read: () => 1 },',
        '    },',
        '  },',
        '  User: { keyFields: ["id"] },',
        '  TaskQuery: { merge: true },',
        '};',
        'export const typed = new InMemoryCache({ typePolicies: policies });',
      ),
    });
    expect(cache!.output).toBe(
      lines(
        "import { InMemoryCache, type TypePolicies } from '@apollo/client';",
        'export const plain = new InMemoryCache({ typePolicies: { TaskQuery: { merge: true }, UserQuery: { merge: true } } });',
        'export const options = new InMemoryCache({ resultCaching: true, typePolicies: { TaskQuery: { merge: true }, UserQuery: { merge: true } } });',
        'const policies: TypePolicies = {',
        '  Query: {',
        '    fields: {',
        '      local: { read: () => 1 },',
        '    },',
        '  },',
        '  User: { keyFields: ["id"] },',
        '  TaskQuery: { merge: true },',
        '  UserQuery: { merge: true, fields: { getAll: { keyArgs: false, merge: (existing: unknown[] = [], incoming: unknown[]) => [...existing, ...incoming] } } },',
        '};',
        'export const typed = new InMemoryCache({ typePolicies: policies });',
      ),
    );
    expect(cache!.manual).toEqual([]);

    // The migrated caches on the real Apollo Client: both queries of the group read back…
    const { plain, options, typed } = await load<Record<string, InMemoryCache>>(cache!.output);
    for (const migrated of [plain!, options!]) expect((await bothRead(migrated)).every((data) => data !== null)).toBe(true);
    // …and the user's field policy applies where v6 keeps the field: two pages are appended.
    const client = apollo(typed!);
    for (const limit of [1, 2]) await client.query({ query: gql`query Page($limit: Int) { User { userGetAll: getAll(limit: $limit) { id } } }`, variables: { limit }, fetchPolicy: 'network-only' });
    expect(client.readQuery<{ User: { userGetAll: { id: number }[] } }>({ query: gql`{ User { userGetAll: getAll { id } } }` })?.User.userGetAll.map((u) => u.id)).toEqual([1, 1, 2]);
  });

  it('marks a cache whose options or policies it cannot reach, with the policies to add, and leaves it as it was', () => {
    const { 'cache.ts': cache } = migrate({
      'documents.ts': DOCUMENTS,
      'cache.ts': lines(
        "import { InMemoryCache } from '@apollo/client';",
        "import { options, policies } from './config';",
        'export const a = new InMemoryCache(options);',
        'export const b = new InMemoryCache({ typePolicies: policies });',
        'export const c = new InMemoryCache({ ...options });',
      ),
    });
    const why = (what: string) =>
      `the v6 groups have no id, so each query of a group replaces the others' fields in Apollo's cache unless its type merges; ${what}: ` +
      "add `typePolicies: { TaskQuery: { merge: true }, UserQuery: { merge: true } }` to this cache's options (and move field policies of v5 root fields under `Query` to their group's type)";
    expect(cache!.manual).toEqual([
      `3: ${why('its options are not written here')}`,
      `4: ${why('its `typePolicies` are not written here')}`,
      `5: ${why('its options have a spread or a computed key, which may hold `typePolicies`')}`,
    ]);
    expect(cache!.output).toContain(`// TODO(ergraph-migrate): ${why('its options are not written here')}\nexport const a = new InMemoryCache(options);`);
  });

  it('a run whose documents query no group leaves its caches alone', () => {
    const { 'cache.ts': cache } = migrate({
      'documents.ts': lines("import { gql } from '@apollo/client';", 'export const Q = gql`query Already { User { getAll { id } } }`;'),
      'cache.ts': lines("import { InMemoryCache } from '@apollo/client';", 'export const a = new InMemoryCache(options);', 'export const b = new InMemoryCache();'),
    });
    expect(cache!.output).toBe(lines("import { InMemoryCache } from '@apollo/client';", 'export const a = new InMemoryCache(options);', 'export const b = new InMemoryCache();'));
    expect(cache!.manual).toEqual([]);
  });

  it('marks a cache call that names a v5 root field by a string (`evict({ fieldName })`) with where v6 keeps it', () => {
    const { 'evict.ts': evict } = migrate({
      'evict.ts': lines("import type { ApolloCache } from '@apollo/client';", "export const drop = (cache: ApolloCache) => cache.evict({ id: 'ROOT_QUERY', fieldName: 'userGetAll' });"),
    });
    expect(evict!.manual).toEqual([
      "2: a cache call names the v5 root field `userGetAll`; the v6 cache keeps it as `getAll` (one key per argument list) inside the root's `User` object (type `UserQuery`, no id): " +
        'Apollo `ROOT_QUERY.User`, reached with `cache.modify({ fields: { User: … } })`; Graphcache the embedded entity `Query.User`',
    ]);
  });
});

describe('v5-to-v6 and the data an updater returns (fetchMore, subscribeToMore, updateQuery)', () => {
  it('moves the reads of `prev` and `fetchMoreResult` and returns the data in the v6 shape, starting each group from `prev`', () => {
    const { 'list.ts': list } = migrate({
      'list.ts': lines(
        "import { gql, useQuery, type ApolloClient } from '@apollo/client';",
        "import { USER_ADDED } from './subscriptions';",
        'const USERS = gql`query Users($limit: Int) { userGetAll(limit: $limit) { id name } }`;',
        'export function useUsers(client: ApolloClient) {',
        '  const { data, fetchMore, updateQuery, subscribeToMore } = useQuery<any>(USERS);',
        '  const more = () => {',
        '    void fetchMore({',
        '      variables: { limit: data.userGetAll.length + 1 },',
        '      updateQuery: (prev, { fetchMoreResult }) => {',
        '        if (!fetchMoreResult) return prev;',
        '        return { ...prev, userGetAll: [...prev.userGetAll, ...fetchMoreResult.userGetAll] };',
        '      },',
        '    });',
        '  };',
        '  const clear = () => updateQuery((prev) => ({ ...prev, userGetAll: [] }));',
        '  subscribeToMore({ document: USER_ADDED, updateQuery: (prev, { subscriptionData }) => ({ ...prev, userGetAll: [...prev.userGetAll, subscriptionData.data.userAdded] }) });',
        '  client.cache.updateQuery({ query: USERS }, (d: any) => d && { userGetAll: d.userGetAll.slice(1) });',
        '  return [more, clear];',
        '}',
      ),
    });
    expect(list!.output).toBe(
      lines(
        "import { gql, useQuery, type ApolloClient } from '@apollo/client';",
        "import { USER_ADDED } from './subscriptions';",
        'const USERS = gql`query Users($limit: Int) { User { userGetAll: getAll(limit: $limit) { id name } } }`;',
        'export function useUsers(client: ApolloClient) {',
        '  const { data, fetchMore, updateQuery, subscribeToMore } = useQuery<any>(USERS);',
        '  const more = () => {',
        '    void fetchMore({',
        '      variables: { limit: data.User.userGetAll.length + 1 },',
        '      updateQuery: (prev, { fetchMoreResult }) => {',
        '        if (!fetchMoreResult) return prev;',
        "        return { ...prev, User: { ...prev.User, __typename: 'UserQuery', userGetAll: [...prev.User.userGetAll, ...fetchMoreResult.User.userGetAll] } };",
        '      },',
        '    });',
        '  };',
        "  const clear = () => updateQuery((prev) => ({ ...prev, User: { ...prev.User, __typename: 'UserQuery', userGetAll: [] } }));",
        "  subscribeToMore({ document: USER_ADDED, updateQuery: (prev, { subscriptionData }) => ({ ...prev, User: { ...prev.User, __typename: 'UserQuery', userGetAll: [...prev.User.userGetAll, subscriptionData.data.userAdded] } }) });",
        "  client.cache.updateQuery({ query: USERS }, (d: any) => d && { User: { __typename: 'UserQuery', userGetAll: d.User.userGetAll.slice(1) } });",
        '  return [more, clear];',
        '}',
      ),
    );
    expect(list!.manual).toEqual([]);
  });

  it('marks a return it cannot rewrite with the exact v6 shape to return, and an updater of another query', () => {
    const { 'list.ts': list } = migrate({
      'list.ts': lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const USERS = gql`query Users { userGetAll(limit: 2) { id } first: userById(id: 1) { id } }`;',
        'const OTHER = gql`query Other { taskGetAll { id } }`;',
        'export function useUsers() {',
        '  const { fetchMore } = useQuery<any>(USERS);',
        '  void fetchMore({ updateQuery: (previous: any, opts: any) => Object.assign({}, previous, { userGetAll: opts.fetchMoreResult.userGetAll }) });',
        '  void fetchMore({ query: OTHER, updateQuery: (prev: any) => prev });',
        '}',
      ),
    });
    expect(list!.manual).toEqual([
      '6: the updater returns data stored with the v6 document: return it in the v6 shape, { ...previous, User: { ...previous.User, userGetAll: …, first: … } }; move its reads: data.userGetAll → data.User.userGetAll, data.first → data.User.first',
      // OTHER's result comes back through this query's `fetchMore`: neither is followed.
      '7: the document is given to `fetchMore`, which the migration cannot follow to the code reading its result; move its reads: data.taskGetAll → data.Task.taskGetAll',
      "7: `fetchMore` runs another `query` here: its `updateQuery` reads that one's result and returns this one's data in the v6 shape; move its reads: data.userGetAll → data.User.userGetAll, data.first → data.User.first",
    ]);
    expect(list!.output).toContain('opts.fetchMoreResult.User.userGetAll');
  });
});

describe('v5-to-v6 and urql Graphcache', () => {
  it('adds keys for the groups the documents use, moves resolvers and updaters of v5 root fields to their group, and marks optimistic ones', async () => {
    const { 'exchange.ts': exchange } = migrate({
      'documents.ts': DOCUMENTS,
      'exchange.ts': lines(
        "import { cacheExchange } from '@urql/exchange-graphcache';",
        'export const renamed: string[] = [];',
        'export const cache = cacheExchange({',
        '  keys: { User: (u) => String(u.id) },',
        '  updates: { Mutation: { taskRename: (result: any) => { renamed.push(result.taskRename.title); } } },',
        "  resolvers: { Query: { userById: (_parent, args) => ({ __typename: 'User', id: args.id as number }) } },",
        "  optimistic: { taskRename: (args) => ({ __typename: 'Task', id: 1, title: args.title as string }) },",
        '});',
      ),
    });
    expect(exchange!.output).toBe(
      lines(
        "import { cacheExchange } from '@urql/exchange-graphcache';",
        'export const renamed: string[] = [];',
        'export const cache = cacheExchange({',
        '  keys: { User: (u) => String(u.id), TaskQuery: () => null, UserQuery: () => null, TaskMutation: () => null },',
        '  updates: { Mutation: { }, TaskMutation: { rename: (result: any) => { renamed.push(result.taskRename.title); } } },',
        "  resolvers: { Query: { }, UserQuery: { byId: (_parent, args) => ({ __typename: 'User', id: args.id as number }) } },",
        '  // TODO(ergraph-migrate): Graphcache and the v6 groups: `optimistic.taskRename` names a v5 root field, now `rename` of `TaskMutation`; Graphcache calls `optimistic` for root fields only, and in v6 the root field is the group',
        "  optimistic: { taskRename: (args) => ({ __typename: 'Task', id: 1, title: args.title as string }) },",
        '});',
      ),
    );
    // On the real Graphcache: both queries of a group come back from the cache, and the moved updater runs on the v6 mutation.
    const migrated = await load<{ cache: ReturnType<typeof cacheExchange>; renamed: string[] }>(exchange!.output.replace(/^ {2}\/\/ TODO.*\n {2}optimistic.*\n/m, ''));
    const { client, data } = await bothCached(migrated.cache);
    expect(data.map((d) => d === null)).toEqual([false, false]);
    await client.mutation(urqlGql`mutation Rename { Task { taskRename: rename(title: "moved") { id title } } }`, {}).toPromise();
    expect(migrated.renamed).toEqual(['moved']);
  });

  it('adds the keys to a bare `cacheExchange()` and marks options it cannot reach', () => {
    const { 'exchange.ts': exchange } = migrate({
      'documents.ts': DOCUMENTS,
      'exchange.ts': lines("import { cacheExchange } from '@urql/exchange-graphcache';", 'export const a = cacheExchange();', 'export const b = cacheExchange(options);'),
    });
    expect(exchange!.output).toContain('export const a = cacheExchange({ keys: { TaskQuery: () => null, UserQuery: () => null, TaskMutation: () => null } });');
    expect(exchange!.manual).toEqual([
      '3: Graphcache and the v6 groups: its options are not written here: add `keys: { TaskQuery: () => null, UserQuery: () => null, TaskMutation: () => null }` (the v6 groups have no id; Graphcache embeds them in their parent, and warns unless their keys say so)',
    ]);
  });
});

// Typing: the policies the helper gives are Apollo's own type.
const policies: TypePolicies = apolloTypePolicies(handler);
const keys: CacheExchangeOpts['keys'] = graphcacheKeys(handler);
void [policies, keys];
