/**
 * The project's own clients (issue 43.4): a function of the run whose document parameter reaches a
 * client the migration knows, and which returns that client's result (or its `.data`, or the
 * parsed JSON), is a client too: its callers' reads move as they would for the client itself. A
 * result only written out whole gets a note, not a marker; a function that cannot be proven one
 * keeps the marker at its call.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { applyToFiles } from '../../codemods/apply.js';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { FIXTURES } from './helpers.js';

const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));
const lines = (...l: string[]) => l.join('\n') + '\n';
const MOVES = 'data.userGetAll → data.User.userGetAll';
const UNKNOWN = (name: string) => `the document is passed to \`${name}\`, a client the migration does not know; move its reads: ${MOVES}`;

/** Migrates the files as one run, and checks that a run over its output changes nothing. */
function migrate(files: Record<string, string>) {
  const outcomes = applyToFiles(transform, new Map(Object.entries(files)), { schema });
  const result = (file: string) => {
    const outcome = outcomes.get(file)!;
    expect(outcome.error, file).toBeUndefined();
    return outcome.result!;
  };
  const again = applyToFiles(transform, new Map(Object.keys(files).map((f) => [f, result(f).output])), { schema });
  for (const file of Object.keys(files)) expect(again.get(file)!.result!.output, `a rerun changes nothing in ${file}`).toBe(result(file).output);
  return result;
}

/** The clients of the project's own, one file: over `fetch`, Hono's `app.request`, `GraphQLHandler`, graphql-request in a class. */
const CLIENTS = lines(
  "import { Hono } from 'hono';",
  "import { GraphQLClient } from 'graphql-request';",
  "import { GraphQLHandler } from 'ergraph';",
  'export const app = new Hono();',
  '// The parsed JSON, `{ data, errors }`.',
  'export async function request(query: string, variables: Record<string, unknown> = {}) {',
  "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query, variables }) });",
  '  return res.json();',
  '}',
  '// Its `.data`, errors thrown.',
  'export const data = async (query: string) => {',
  "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query }) });",
  '  const { data, errors } = await res.json();',
  '  if (errors) throw new Error(errors[0].message);',
  '  return data;',
  '};',
  'export async function viaHono(query: string) {',
  "  const res = await app.request('/graphql', { method: 'POST', body: JSON.stringify({ query }) });",
  '  return (await res.json()).data;',
  '}',
  'export const handler = new GraphQLHandler({} as never);',
  'export const run = (doc: string) => handler.execute(doc);',
  'export class Api {',
  '  constructor(private readonly client: GraphQLClient) {}',
  '  async query<T>(doc: string, variables?: object) {',
  '    return this.client.request<T>(doc, variables);',
  '  }',
  '  // A wrapper of a wrapper.',
  '  users(doc: string) {',
  '    return this.query(doc);',
  '  }',
  '}',
  "export const api = new Api(new GraphQLClient('/graphql'));",
);

describe('read sites: clients of the project\'s own are followed (issue 43.4)', () => {
  it('moves the reads of the callers of functions over fetch, Hono, GraphQLHandler and a class, from another file', () => {
    const result = migrate({
      'clients.ts': CLIENTS,
      // Nothing here names GraphQL: the JSON body with a `query` is what says it is a client.
      'post.ts': lines(
        'export function post(query: string) {',
        "  return fetch('/api', { method: 'POST', body: JSON.stringify({ query }) }).then((res) => res.json());",
        '}',
      ),
      'page.ts': lines(
        "import { post } from './post';",
        "import { api, data, request, run, viaHono } from './clients';",
        'const USERS = `query Users { userGetAll { id name } }`;',
        'export async function names() {',
        '  const { data: a, errors } = await request(USERS, {});',
        '  const b = await data(USERS);',
        '  const c = await viaHono(USERS);',
        '  const d = await run(USERS);',
        '  const e = await api.query(USERS);',
        '  const f = await api.users(USERS);',
        '  const { data: g } = await post(USERS);',
        '  return [errors, a.userGetAll, b.userGetAll, c?.userGetAll, d.data?.userGetAll, e.userGetAll, f.userGetAll, g.userGetAll];',
        '}',
      ),
    });
    const page = result('page.ts');
    expect(page.manual).toEqual([]);
    expect(page.output).toContain(
      '  return [errors, a.User.userGetAll, b.User.userGetAll, c?.User.userGetAll, d.data?.User.userGetAll, e.User.userGetAll, f.User.userGetAll, g.User.userGetAll];\n',
    );
    // The clients themselves read nothing of any operation: they stay as they are.
    expect(result('clients.ts').output).toBe(CLIENTS);
  });

  it('follows wrappers of wrappers in the caller\'s file and across files, a method of an object, and a call on a new instance', () => {
    const result = migrate({
      'clients.ts': CLIENTS,
      // Two files deep: each file knows only that the other's function may be a client.
      'wrap.ts': lines("import { request } from './clients';", 'export const fetched = (doc: string) => request(doc).then((r) => r.data);'),
      'deep.ts': lines("import { fetched } from './wrap';", 'export async function deep(document: string) {', '  return await fetched(document);', '}'),
      'page.ts': lines(
        "import { Api, request } from './clients';",
        "import { deep } from './deep';",
        'const USERS = `query Users { userGetAll { id name } }`;',
        'const load = (doc: string) => request(doc).then((r) => r.data);',
        'const loader = { get: (doc: string) => load(doc) };',
        'export async function names() {',
        '  const a = await loader.get(USERS);',
        '  const b = await new Api(null as never).query(USERS);',
        '  const c = await deep(USERS);',
        '  return [a.userGetAll, b.userGetAll, c.userGetAll];',
        '}',
      ),
    });
    expect(result('page.ts').manual).toEqual([]);
    expect(result('page.ts').output).toContain('  return [a.User.userGetAll, b.User.userGetAll, c.User.userGetAll];\n');
  });

  it('notes a result only written out whole (console.log, JSON.stringify, c.json) instead of marking it', () => {
    const result = migrate({
      'clients.ts': CLIENTS,
      'routes.ts': lines(
        "import { app, data, run } from './clients';",
        'const USERS = `query Users { userGetAll { id name } }`;',
        "app.get('/users', async (c) => c.json(await data(USERS)));",
        'export async function dump() {',
        '  console.log(await run(USERS));',
        '  return JSON.stringify({ at: Date.now(), users: await data(USERS) });',
        '}',
      ),
    });
    const routes = result('routes.ts');
    expect(routes.manual).toEqual([]);
    const serialized = routes.notes.filter((n) => n.includes('serialized whole'));
    expect(serialized.map((n) => n.replace(/^.*?:(\d+): /, '$1: '))).toEqual([
      `3: the operation's result is serialized whole by \`c.json\`: whoever reads that JSON reads the v6 shape (${MOVES})`,
      `5: the operation's result is serialized whole by \`console.log\`: whoever reads that JSON reads the v6 shape (${MOVES})`,
      `6: the operation's result is serialized whole by \`JSON.stringify\`: whoever reads that JSON reads the v6 shape (${MOVES})`,
    ]);
  });

  it('keeps the marker at the call of a function that transforms the result, reads a key of it, or hands the document on unknown', () => {
    const result = migrate({
      'clients.ts': lines(
        CLIENTS,
        'export async function count(query: string) {',
        '  const json = await request(query);',
        '  return Object.keys(json.data).length;',
        '}',
        'export async function first(query: string) {',
        '  return (await data(query)).userGetAll[0];',
        '}',
        "export const elsewhere = (query: string) => fetch('/graphql', { method: 'POST', body: query }).then((r) => r.json());",
        'declare function audit(value: unknown): void;',
        '// Returned whole, but also handed to code the migration does not see.',
        'export async function audited(query: string) {',
        '  const json = await request(query);',
        '  audit(json);',
        '  return json;',
        '}',
        'export const tracked = (query: string) => (audit(query), data(query));',
      ),
      'page.ts': lines(
        "import { audited, count, elsewhere, first, tracked } from './clients';",
        'const USERS = `query Users { userGetAll { id name } }`;',
        'export async function names() {',
        '  const a = await count(USERS);',
        '  const b = await first(USERS);',
        '  const c = await elsewhere(USERS);',
        '  const d = await audited(USERS);',
        '  const e = await tracked(USERS);',
        '  return [a, b, c.data.userGetAll, d.data.userGetAll, e.userGetAll];',
        '}',
      ),
    });
    const page = result('page.ts');
    expect(page.manual.map((m) => [m.line, m.reason])).toEqual([
      [4, UNKNOWN('count')],
      [5, UNKNOWN('first')],
      [6, UNKNOWN('elsewhere')],
      [7, UNKNOWN('audited')],
      [8, UNKNOWN('tracked')],
    ]);
    expect(page.output).toContain('  return [a, b, c.data.userGetAll, d.data.userGetAll, e.userGetAll];\n');
  });

  it('follows a wrapper taking the document in an options object (`opts.query` or `{ query }`), and keeps the marker where the options go on whole or the wrapper is imported', () => {
    const result = migrate({
      'opts.ts': lines('export async function gqlImported(opts: { query: string }) {', "  return (await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: opts.query }) })).json();", '}'),
      'page.ts': lines(
        "import { gqlImported } from './opts';",
        'const USERS = `query Users { userGetAll { id name } }`;',
        'async function gqlFetch(opts: { query: string; variables?: object }) {',
        "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: opts.query, variables: opts.variables }) });",
        '  return res.json();',
        '}',
        "const gqlData = ({ query, variables = {} }: { query: string; variables?: object }) => fetch('/graphql', { method: 'POST', body: JSON.stringify({ query, variables }) }).then((r) => r.json()).then((j) => j.data);",
        "const whole = (opts: { query: string }) => fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: opts.query, extensions: opts }) }).then((r) => r.json());",
        'export async function names() {',
        '  const { data } = await gqlFetch({ query: USERS, variables: {} });',
        '  const b = await gqlData({ query: USERS });',
        '  const c = await whole({ query: USERS });',
        '  const d = await gqlImported({ query: USERS });',
        '  return [data.userGetAll, b.userGetAll, c.data.userGetAll, d.data.userGetAll];',
        '}',
      ),
    });
    const page = result('page.ts');
    const GIVEN = (name: string) => `the document is given to \`${name}\`, which the migration cannot follow to the code reading its result; move its reads: ${MOVES}`;
    expect(page.manual.map((m) => [m.line, m.reason])).toEqual([
      [12, GIVEN('whole')],
      [13, GIVEN('gqlImported')],
    ]);
    expect(page.output).toContain('  return [data.User.userGetAll, b.User.userGetAll, c.data.userGetAll, d.data.userGetAll];\n');
  });
});
