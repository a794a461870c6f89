/**
 * Documents no tag marks (issue 43.1): a string or template whose text is a v5 GraphQL document is
 * migrated like a tagged one, with its readers; one put together at run time is a TODO at its line;
 * text that only looks like one is left alone. verify and the version detector find the same ones.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { transform } from '../../codemods/v5-to-v6/index.js';
import type { TransformOptions } from '../../codemods/types.js';
import { documentsOf, type Found } from '../../codemods/verify/find.js';
import { DocumentModules } from '../../codemods/verify/imports.js';
import { detectVersion } from '../../codemods/detect.js';
import { FIXTURES } from './helpers.js';

const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));
const run = (source: string, file = 'input.ts', options: TransformOptions = { schema }) => transform.apply(source, { file, facts: [], options });
const lines = (...l: string[]) => l.join('\n') + '\n';
const USERS = 'data.userGetAll → data.User.userGetAll';

function migrate(source: string, file?: string) {
  const result = run(source, file);
  expect(run(result.output, file).output, 'a rerun changes nothing').toBe(result.output);
  return result;
}

const FETCH_APP = lines(
  'export async function users() {',
  "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: '{ userGetAll { id name } }' }) });",
  '  const body = await res.json();',
  '  return body.data.userGetAll;',
  '}',
  'const Q = `query Tasks { taskGetAll { id title } }`;',
  'export async function tasks() {',
  "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: Q }) });",
  '  const { data } = await res.json();',
  '  return data.taskGetAll;',
  '}',
);

describe('untagged documents', () => {
  it('migrates a fetch body string and a constant sent with fetch, with their reads', () => {
    const result = migrate(FETCH_APP);
    expect(result.output).toBe(
      FETCH_APP.replace("'{ userGetAll { id name } }'", "'{ User { userGetAll: getAll { id name } } }'")
        .replace('body.data.userGetAll', 'body.data.User.userGetAll')
        .replace('`query Tasks { taskGetAll { id title } }`', '`query Tasks { Task { taskGetAll: getAll { id title } } }`')
        .replace('data.taskGetAll', 'data.Task.taskGetAll'),
    );
    expect(result.manual).toEqual([]);
  });

  it("migrates graphql-request's request(url, `…`) and a double-quoted string with escaped quotes", () => {
    const result = migrate(
      lines(
        "import { request } from 'graphql-request';",
        'export async function ids() {',
        "  const d = await request('/graphql', `{ userGetAll { id } }`);",
        '  const e = await request(\'/graphql\', "mutation { renamed: userRename(id: 1, name: \\"Ann\\") { name } __typename }");',
        '  return [d.userGetAll, e.renamed];',
        '}',
      ),
    );
    expect(result.output).toContain("request('/graphql', `{ User { userGetAll: getAll { id } } }`)");
    expect(result.output).toContain('request(\'/graphql\', "mutation { User { renamed: rename(id: 1, name: \\"Ann\\") { name } } __typename }")');
    expect(result.output).toContain('return [d.User.userGetAll, e.User.renamed];');
    expect(result.manual).toEqual([]);
  });

  it('pastes a fragment constant into a template like a tagged one', () => {
    const result = migrate(
      lines(
        "const FIELDS = 'fragment UserFields on User { id name }';",
        'const Q = `query Users { userGetAll { ...UserFields } } ${FIELDS}`;',
        'export const load = () =>',
        "  fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: Q }) }).then((r) => r.json()).then((b) => b.data.userGetAll);",
      ),
    );
    expect(result.output).toContain('const Q = `query Users { User { userGetAll: getAll { ...UserFields } } } ${FIELDS}`;');
    expect(result.output).toContain('b.data.User.userGetAll');
    expect(result.manual).toEqual([]);
  });

  it('reports a document built at run time at its line, and leaves it and its reads as they are', () => {
    const source = lines(
      'export async function users(fields: string, n: number) {',
      "  const q = '{ userGetAll { ' + fields + ' } }';",
      '  const r = `{ taskGetAll(limit: ${n}) { id } }`;',
      "  const res = await fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: q + r }) });",
      '  return (await res.json()).data.userGetAll;',
      '}',
    );
    const result = migrate(source);
    const built = 'a GraphQL document built at run time (joined from parts, or with `${…}` of values): migrate it and the code reading its result by hand';
    expect(result.manual.map((m) => [m.line, m.reason])).toEqual([
      [2, `${built}; move its reads: ${USERS}`],
      [3, `${built}; move its reads: data.taskGetAll → data.Task.taskGetAll`],
    ]);
    expect(result.output).toBe(
      source
        .replace("  const q = '", `  // TODO(ergraph-migrate): ${built}; move its reads: ${USERS}\n  const q = '`)
        .replace('  const r = `', `  // TODO(ergraph-migrate): ${built}; move its reads: data.taskGetAll → data.Task.taskGetAll\n  const r = \``),
    );
  });

  it('leaves text that only looks like a document byte-identical', () => {
    const source = lines(
      "export const a = 'hello { world }';",
      "export const b = '{ a: 1 }';",
      "export const c = '{ color: red }';",
      "export const d = '{}';",
      'export const e = \'{"userGetAll": 1}\';',
      "export const f = '{ userGetAll';",
      'export const g = "Use { braces } like { this }";',
      "export const h = 'type Query { userGetAll: Int }';",
      "export const h2 = '{ userGetAll } scalar Date';",
      "export const i = '{ ' + name + ' }';",
      'export const j = `{ ${name} }`;',
      "export const k = '{ User { userGetAll: getAll { id } } }';",
    );
    const result = migrate(source);
    expect(result.output).toBe(source);
    expect(result.manual).toEqual([]);
  });

  it('without a schema: an untagged document waits for one, like a tagged one', () => {
    const result = run(FETCH_APP, 'input.ts', {});
    expect(result.output).toBe(FETCH_APP);
    expect(result.pending?.map((p) => p.line)).toEqual([2, 6]);
  });
});

describe('untagged documents: verify and the version detector find the same ones', () => {
  it('verify lists the untagged documents, and one built at run time as not run', () => {
    const found: Found = { documents: [], mapping: {}, skipped: [] };
    // No `graphql` anywhere in the text (the endpoint is `/api`): the documents alone say what the file holds.
    const source = lines(FETCH_APP.replaceAll('/graphql', '/api'), "export const built = (f: string) => '{ userGetAll { ' + f + ' } }';", "export const not = '{ color: red }';");
    documentsOf('/app/api.ts', 'api.ts', source, found, new DocumentModules(() => undefined));
    expect(found.documents.map((d) => [d.line, d.text.trim(), d.notRun !== undefined])).toEqual([
      [2, '{ userGetAll { id name } }', false],
      [6, 'query Tasks { taskGetAll { id title } }', false],
      [13, '{ userGetAll {           } }', true],
    ]);
  });

  it('the detector counts an untagged v5 document as evidence, and a migrated one not', () => {
    const before = detectVersion(new Map([['/app/api.ts', FETCH_APP]]), '/app', { codeOnly: true });
    expect(before.version).toBe('5.5');
    expect(before.evidence).toEqual(['GraphQL document with v5 root fields (api.ts:2) → 5.5']);
    const after = detectVersion(new Map([['/app/api.ts', migrate(FETCH_APP).output]]), '/app', { codeOnly: true });
    expect(after.version).toBeUndefined();
    // A document left for a human (under a TODO marker) is reported work, not evidence.
    // (one whose rewrite the v6 schema refuses: `getAll` has no `nope`).
    const marked = run(lines('export const q = JSON.stringify({', "  query: '{ userGetAll(nope: 1) { id } }',", '});')).output;
    expect(marked).toContain('TODO(ergraph-migrate)');
    expect(detectVersion(new Map([['/app/m.ts', marked]]), '/app', { codeOnly: true }).version).toBeUndefined();
  });
});
