/**
 * No silent read (issue 43.2): every read of a moved result by a key written elsewhere — a computed
 * key, `Object.keys/values/entries`, `for…in`, a spread, `in`, a result handed on whole (also to a
 * named callback) — is rewritten where the key is a literal or a union of literal names, and is a
 * TODO otherwise; untyped and `<any>` results alike, on urql, Apollo and graphql-request.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { FIXTURES } from './helpers.js';

const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));
const lines = (...l: string[]) => l.join('\n') + '\n';
const BOTH = 'data.userGetAll → data.User.userGetAll, data.taskGetAll → data.Task.taskGetAll';
const USERS = 'data.userGetAll → data.User.userGetAll';

function migrate(source: string, options: { keepResponseKeys?: boolean } = {}) {
  const run = (text: string) => transform.apply(text, { file: 'input.ts', facts: [], options: { schema, ...options } });
  const result = run(source);
  expect(run(result.output).output, 'a rerun changes nothing').toBe(result.output);
  return { ...result, reasons: result.manual.map((m) => [m.line, m.reason] as const) };
}

const URQL = lines(
  "import { Client, gql } from '@urql/core';",
  'const COUNTS = gql`{ userGetAll { id } taskGetAll { id } }`;',
  "type Saved = 'userGetAll' | 'taskGetAll';",
  'export async function count(client: Client, savedKey: Saved, key: string) {',
  '  const { data } = await client.query(COUNTS, {}).toPromise();',
  "  const one = 'taskGetAll';",
  "  const mine: 'userGetAll' | '__typename' = key === 'a' ? 'userGetAll' : '__typename';",
  "  for (const k of ['userGetAll', 'taskGetAll'] as const) console.log(data[k]);",
  '  return [data[savedKey].length, data[one], data?.[one], data[mine], data[key]];',
  '}',
);

describe('computed keys', () => {
  it('urql: a key that can only be literal names is rewritten (one, a union, a for…of over literals); any other key is a TODO', () => {
    const result = migrate(URQL);
    expect(result.output).toContain("  for (const k of ['userGetAll', 'taskGetAll'] as const) console.log((k === 'userGetAll' ? data.User.userGetAll : data.Task.taskGetAll));\n");
    expect(result.output).toContain(
      "  return [(savedKey === 'userGetAll' ? data.User.userGetAll : data.Task.taskGetAll).length, data.Task[one], data?.Task[one], (mine === 'userGetAll' ? data.User.userGetAll : data[mine]), data[key]];\n",
    );
    expect(result.reasons).toEqual([[9, `a computed read of the operation's data: \`key\` may name a moved field; move its reads: ${BOTH}`]]);
  });

  it('without the response keys kept, a single literal key reads the method', () => {
    const result = migrate(URQL, { keepResponseKeys: false });
    expect(result.output).toContain("data.Task['getAll'], data?.Task['getAll']");
    expect(result.output).toContain("(savedKey === 'userGetAll' ? data.User.getAll : data.Task.getAll).length");
  });

  it('Apollo client.query<any> and graphql-request request<any>: `data[key]` and `data?.[key]` with a key of any string are TODOs', () => {
    const result = migrate(
      lines(
        "import { ApolloClient, gql } from '@apollo/client';",
        "import { request } from 'graphql-request';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export async function f(client: ApolloClient, key: string) {',
        '  const { data } = await client.query<any>({ query: Q });',
        "  const d = await request<any>('/api', Q);",
        '  let later = key;',
        "  later = 'userGetAll';",
        '  return [data[key], d?.[key], data[later]];',
        '}',
      ),
    );
    expect(result.reasons).toEqual([
      [9, `a computed read of the operation's data: \`key\` may name a moved field; move its reads: ${USERS}`],
      [9, `a computed read of the operation's data: \`key\` may name a moved field; move its reads: ${USERS}`],
      [9, `a computed read of the operation's data: \`later\` may name a moved field; move its reads: ${USERS}`],
    ]);
    // One marker line per reason: `data[key]` and `d?.[key]` share theirs.
    expect(result.output.split('\n').filter((l) => l.includes('TODO(ergraph-migrate)'))).toHaveLength(2);
  });

  it('a computed key in a destructuring of the data is a TODO, not a key named like the variable', () => {
    const result = migrate(
      lines(
        "import { gql, useQuery } from '@apollo/client';",
        'const Q = gql`{ userGetAll { id } }`;',
        'export function A(key: string) {',
        '  const { data } = useQuery(Q);',
        '  const { [key]: value } = data;',
        '  return value;',
        '}',
      ),
    );
    expect(result.reasons).toEqual([[5, `a computed key may name a moved field; move its reads: ${USERS}`]]);
  });
});

describe('reads by the data\'s own keys', () => {
  it('Object.keys/values/entries, for…in, a spread and `in` with an unknown key are TODOs; `in` with a literal is rewritten', () => {
    const result = migrate(
      lines(
        "import { Client, gql } from '@urql/core';",
        'const COUNTS = gql`{ userGetAll { id } taskGetAll { id } }`;',
        'export async function f(client: Client, key: string) {',
        '  const { data } = await client.query(COUNTS, {}).toPromise();',
        '  for (const k in data) console.log(k);',
        '  const keys = Object.keys(data);',
        '  const values = Object.values(data);',
        '  const entries = Object.entries(data);',
        '  const copy = { ...data };',
        '  const asked = key in data;',
        "  const has = 'userGetAll' in data;",
        '  return [keys, values, entries, copy, asked, has];',
        '}',
      ),
    );
    const groups = 'lists its v6 groups (`User`, `Task`), not the v5 fields';
    expect(result.reasons).toEqual([
      [5, `\`for…in\` over the operation's data ${groups}; move its reads: ${BOTH}`],
      [6, `\`Object.keys\` of the operation's data ${groups}; move its reads: ${BOTH}`],
      [7, `\`Object.values\` of the operation's data ${groups}; move its reads: ${BOTH}`],
      [8, `\`Object.entries\` of the operation's data ${groups}; move its reads: ${BOTH}`],
      [9, `the operation's result is spread; move its reads: ${BOTH}`],
      [10, `\`in\` asks the operation's data for a key the migration cannot read (\`key\`); in v6 it holds the groups; move its reads: ${BOTH}`],
    ]);
    expect(result.output).toContain("  const has = ('User' in data && 'userGetAll' in data.User);\n");
  });
});

describe('a result handed on whole', () => {
  it('a named callback (`.then(show)`, `onCompleted: handle`) is a TODO at the callback', () => {
    const result = migrate(
      lines(
        "import { ApolloClient, gql, useQuery } from '@apollo/client';",
        'const Q = gql`{ userGetAll { id } }`;',
        'function show(result: unknown) { return result; }',
        'function handle(data: unknown) { return data; }',
        'export function A(client: ApolloClient) {',
        '  client.query({ query: Q }).then(show);',
        '  return useQuery(Q, { onCompleted: handle });',
        '}',
      ),
    );
    expect(result.reasons).toEqual([
      [6, `\`show\` receives the operation's result; move its reads: ${USERS}`],
      [7, `the operation's result is returned to code the migration cannot follow; move its reads: ${USERS}`],
      [7, `\`handle\` receives the operation's result; move its reads: ${USERS}`],
    ]);
  });
});
