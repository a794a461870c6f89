import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { buildSchema, Kind, parse, ProvidedRequiredArgumentsRule, validate, VariablesInAllowedPositionRule } from 'graphql';
import { applyFile, applyToFiles, assertParses } from '../../codemods/apply.js';
import { ParseError, type TransformOptions } from '../../codemods/types.js';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { findEmbeddedDocuments } from '../../codemods/v5-to-v6/embedded.js';
import { PreparedDocument, prepareDocuments } from '../../codemods/v5-to-v6/prepared.js';
import { parseSource } from '../../codemods/lib/parse.js';
import { isSfc } from '../../codemods/lib/sfc.js';
import { runMigration } from '../../codemods/runner/run.js';
import { FIXTURES, comments, readTree } from './helpers.js';

const APP = join(FIXTURES, 'v5-to-v6', 'app');
const schema = buildSchema(readFileSync(join(APP, 'schema.graphql'), 'utf8'));
const options: TransformOptions = { schema };

const run = (source: string, file = 'input.ts', opts: TransformOptions = options) =>
  transform.apply(source, { file, facts: [], options: opts });
/** A `.graphql` document's readers are out of sight: each operation whose paths move is marked (pinned in read-sites.test.ts). */
const READERS = /^# TODO\(ergraph-migrate\): the code reading this operation's result.*\n/gm;
const rewritten = (source: string, file: string, opts: TransformOptions = options) => {
  const result = run(source, file, opts);
  return { ...result, output: result.output.replace(READERS, ''), manual: result.manual.filter((m) => !m.reason.startsWith("the code reading this operation's result")) };
};

describe('v5-to-v6 fixtures: a small v5 app', () => {
  const input = readTree(join(APP, 'input'));
  const expected = readTree(join(APP, 'expected'));
  const first = applyToFiles(transform, input, options);

  it('produces the expected files', () => {
    expect([...first.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [file, outcome] of first) {
      expect(outcome.error, file).toBeUndefined();
      expect(outcome.result?.output, file).toBe(expected.get(file));
    }
  });

  it('is idempotent: a second run changes nothing and reports no moves', () => {
    for (const [file, outcome] of applyToFiles(transform, expected, options)) {
      expect(outcome.result?.output, file).toBe(expected.get(file));
      expect(outcome.result?.notes, file).toEqual([]);
      // Still-unresolved documents are reported again; helper uses are not (their import is gone,
      // the markers from the first run stay in the text).
      const before = first.get(file)?.result?.manual.map((m) => m.reason) ?? [];
      for (const m of outcome.result?.manual ?? []) expect(before, file).toContain(m.reason);
    }
  });

  it('keeps comments and produces parsable output', () => {
    for (const [file, source] of input) {
      const output = expected.get(file)!;
      if (file.endsWith('.ts')) {
        expect(() => parseSource(output, file)).not.toThrow();
        for (const c of comments(source)) expect(comments(output), c).toContain(c);
      } else if (isSfc(file)) {
        expect(() => assertParses(output, file)).not.toThrow();
        for (const c of source.match(/<!--[\s\S]*?-->|\/\/.*/g) ?? []) expect(output).toContain(c);
      } else {
        expect(() => parse(output)).not.toThrow();
        for (const c of source.match(/#.*/g) ?? []) expect(output).toContain(c);
      }
    }
  });

  it('leaves text outside GraphQL documents, MCP calls and naming imports byte-identical', () => {
    const file = 'src/queries.ts';
    const strip = (text: string) => {
      const sf = parseSource(text, file);
      let out = text;
      for (const doc of findEmbeddedDocuments(sf).reverse()) out = out.slice(0, doc.start) + '<doc>' + out.slice(doc.start + doc.raw.length);
      return out
        .split('\n')
        .filter((l) => !l.includes('TODO(ergraph-migrate)') && !l.startsWith('import {'))
        .join('\n');
    };
    expect(strip(expected.get(file)!)).toBe(strip(input.get(file)!));
  });

  it('marks in the output exactly the places it reports as manual', () => {
    for (const [file, outcome] of first) {
      const markers = (outcome.result?.output.match(/(\/\/|#) TODO\(ergraph-migrate\): .*/g) ?? []).map((m) => m.replace(/^(\/\/|#) TODO\(ergraph-migrate\): /, ''));
      expect(new Set(markers), file).toEqual(new Set(outcome.result?.manual.map((m) => m.reason)));
    }
  });

  it('reports each moved response path', () => {
    const notes = first.get('queries/users.graphql')!.result!.notes;
    expect(notes).toEqual([
      'queries/users.graphql:3: data.userGetAll → data.User.userGetAll (User.getAll, operation Users)',
      'queries/users.graphql:9: data.first → data.User.first (User.byId, operation Users)',
    ]);
  });
});

describe('v5-to-v6 documents', () => {
  it('groups a flat field, keeping its response key as an alias', () => {
    expect(rewritten('query { userGetAll(limit: 5) { id } }', 'a.graphql').output).toBe(
      'query { User { userGetAll: getAll(limit: 5) { id } } }',
    );
  });

  it('keeps an existing alias and drops one that would repeat the method name', () => {
    expect(rewritten('{ users: userGetAll { id } getAll: userGetAll { name } }', 'a.graphql').output).toBe(
      '{ User { users: getAll { id } getAll { name } } }',
    );
  });

  it('with keepResponseKeys: false, writes bare method names', () => {
    expect(rewritten('{ userGetAll { id } }', 'a.gql', { schema, keepResponseKeys: false }).output).toBe('{ User { getAll { id } } }');
  });

  it('carries directives and rewrites inline fragments on the root', () => {
    expect(rewritten('query ($s: Boolean!) { ... on Query { userById(id: 1) @skip(if: $s) { id } } ... { taskById(id: 1) { id } } }', 'a.graphql').output).toBe(
      'query ($s: Boolean!) { ... on Query { User { userById: byId(id: 1) @skip(if: $s) { id } } } ... { Task { taskById: byId(id: 1) { id } } } }',
    );
  });

  it('gives every later mutation group of an entity a fresh alias, across fragments on Mutation too', () => {
    const source =
      'mutation { ...Ops taskComplete(id: 2) { id } }\nfragment Ops on Mutation { taskCreate(input: { title: "a", ownerId: 1 }) { id } userRename(id: 1, name: "b") { id } }\n';
    expect(rewritten(source, 'm.graphql').output).toBe(
      'mutation { ...Ops Task { taskComplete: complete(id: 2) { id } } }\nfragment Ops on Mutation { Task_2: Task { taskCreate: create(input: { title: "a", ownerId: 1 }) { id } } User { userRename: rename(id: 1, name: "b") { id } } }\n',
    );
  });

  it('reports a root alias that would collide with a new group', () => {
    const result = rewritten('{ User: __typename userById(id: 1) { id } }', 'a.graphql');
    expect(result.manual.map((m) => m.reason)).toEqual([
      'the response key `User` is also the v6 group `User` this document now selects: give this field another alias',
    ]);
  });

  it('leaves fragments on entity types and nested fields alone', () => {
    const source = 'fragment U on User { userGetAll: name tasks { id } }\n';
    expect(run(source, 'a.graphql').output).toBe(source);
  });

  it('reports a name two v6 methods share as ambiguous instead of guessing', () => {
    const clash = buildSchema('type Query { User: UserQuery! } type UserQuery { get_all: [Int!]! getAll: [Int!]! }');
    const result = run('{\n  userGetAll\n}\n', 'a.graphql', { schema: clash });
    expect(result.manual).toEqual([
      { line: 2, column: 3, reason: '`userGetAll` is ambiguous: it is the v5 name of User.get_all and User.getAll' },
    ]);
    expect(result.output).toBe('{\n  # TODO(ergraph-migrate): `userGetAll` is ambiguous: it is the v5 name of User.get_all and User.getAll\n  userGetAll\n}\n');
  });

  it('refuses an unparsable .graphql file with a ParseError pointing at the spot', () => {
    const outcome = applyFile(transform, 'query {\n  userGetAll {\n', 'broken.graphql', [], options);
    expect(outcome.error).toBeInstanceOf(ParseError);
    expect(outcome.error).toMatchObject({ file: 'broken.graphql', line: 3, column: 1 });
    expect(outcome.result).toBeUndefined();
  });

  it('refuses a .ts file whose gql template does not parse, pointing into the file', () => {
    const source = "import { gql } from 'graphql-tag';\nconst ok = gql`{ userGetAll { id } }`;\nconst bad = gql`\n  query { userById(id: ) { id } }\n`;\n";
    const outcome = applyFile(transform, source, 'bad.ts', [], options);
    expect(outcome.error).toBeInstanceOf(ParseError);
    expect(outcome.error).toMatchObject({ file: 'bad.ts', line: 4, column: 24 });
  });

  it('without a schema leaves each v5 document as is and names the next step', () => {
    const result = transform.apply('{ userGetAll { id } }', { file: 'a.graphql', facts: [], options: {} });
    expect(result.output).toBe('{ userGetAll { id } }');
    expect(result.manual).toEqual([]);
    expect(result.pending).toEqual([{ line: 1, column: 1, reason: expect.stringMatching(/^no v6 schema was found.*--schema <sdl\|introspection\.json\|url>.*GraphQL Config.*--app/) }]);
    const script = transform.apply("const q = gql`{ userGetAll { id } }`;\nconst other = gql`fragment F on User { id }`;\n", { file: 'a.ts', facts: [], options: {} });
    expect(script.pending?.map((p) => p.line)).toEqual([1]);
  });

  it('leaves a document for another API alone and counts it, without a marker', () => {
    const source = 'const q = gql`query { payments { id } }`;\n';
    const result = run(source);
    expect(result.output).toBe(source);
    expect(result.manual).toEqual([]);
    expect(result.notForThisApi).toHaveLength(1);
  });

  it('rewrites template literals marked /* GraphQL */ (graphql-request\'s form), and untagged ones whose text is a v5 document (issue 43.1)', () => {
    const source = [
      "import { request } from 'graphql-request';",
      'const a = /* GraphQL */ `',
      '  query { userGetAll { id } }',
      '`;',
      'const b =',
      '  // a v5 query',
      '  /*graphql*/ `{ taskById(id: 1) { id } }`;',
      'const c = `{ userGetAll { id } }`;',
      'const d = /* GraphQL */ "{ userGetAll { id } }";',
      '',
    ].join('\n');
    expect(run(source).output).toBe(
      source
        .replace('query { userGetAll { id } }', 'query { User { userGetAll: getAll { id } } }')
        .replace('`{ taskById(id: 1) { id } }`', '`{ Task { taskById: byId(id: 1) { id } } }`')
        .replace('`{ userGetAll { id } }`', '`{ User { userGetAll: getAll { id } } }`')
        .replace('"{ userGetAll { id } }"', '"{ User { userGetAll: getAll { id } } }"'),
    );
  });

  it('treats an interpolation inside a selection set as fields', () => {
    const source = 'const q = gql`query { userById(id: 1) { ${FIELDS} } }`;\n';
    expect(run(source).output).toBe('const q = gql`query { User { userById: byId(id: 1) { ${FIELDS} } } }`;\n');
  });

  it('skips an interpolation standing for a root field', () => {
    const source = 'const q = gql`query { ${ROOT} taskById(id: 1) { id } }`;\n';
    const result = run(source);
    expect(result.output).toBe('const q = gql`query { ${ROOT} Task { taskById: byId(id: 1) { id } } }`;\n');
    expect(result.manual).toEqual([]);
  });

  it('rewrites graphql(...) calls with a string or template argument; a v5 document handed to another call is one too (issue 43.1)', () => {
    const source = [
      "const a = graphql('{ taskById(id: 1) { id } }');",
      'const b = graphql(`query Q { userListItems2Fa }`, { variables: {} });',
      "const c = other('{ taskById(id: 1) { id } }');",
      '',
    ].join('\n');
    expect(run(source).output).toBe(
      [
        "const a = graphql('{ Task { taskById: byId(id: 1) { id } } }');",
        'const b = graphql(`query Q { User { userListItems2Fa: list_items_2fa } }`, { variables: {} });',
        '// TODO(ergraph-migrate): the document is passed to `other`, a client the migration does not know; move its reads: data.taskById → data.Task.taskById',
        "const c = other('{ Task { taskById: byId(id: 1) { id } } }');",
        '',
      ].join('\n'),
    );
  });

  it('returns the input itself when nothing changes', () => {
    const source = 'export const x = 1;\n';
    expect(run(source).output).toBe(source);
  });

  it('judges each document of a run on its own when the run checks them against the v6 schema together', async () => {
    const v6 = buildSchema('type Task { id: Int! }\ntype Query { Task: TaskQuery! }\ntype TaskQuery { getAll(limit: Int): [Task!]! byId(id: Int!): Task }\n');
    const refused = 'the rewritten document would not validate against the v6 schema (Unknown argument "status" on field "TaskQuery.getAll"): left as it was; migrate it by hand';
    // graphql-js's own words for the missing argument: they differ between graphql 16 and 17.
    const [unprovided] = validate(v6, parse('{ Task { byId { id } } }'), [ProvidedRequiredArgumentsRule]);
    const missing = `the rewritten document would not validate against the v6 schema (${unprovided!.message.replace(/\.$/, '')}): left as it was; migrate it by hand`;
    // A variable of the operation in a position its type does not fit: the check of variables' positions, which runs only for operations declaring variables.
    const [misplaced] = validate(v6, parse('query G($id: Int) { Task { byId(id: $id) { id } } }'), [VariablesInAllowedPositionRule]);
    const mistyped = `the rewritten document would not validate against the v6 schema (${misplaced!.message.replace(/\.$/, '')}): left as it was; migrate it by hand`;
    const sources: Record<string, string> = {
      'g.ts': "import { gql } from 'graphql-tag';\nexport const G = gql`query G($id: Int) { taskById(id: $id) { id } }`;\n",
      'a.ts': "import { gql } from 'graphql-tag';\nexport const A = gql`query A { taskGetAll(limit: 1) { id } }`;\n",
      'b.ts': "import { gql } from 'graphql-tag';\nexport const B = gql`query B { taskGetAll(status: OPEN) { id } }`;\n",
      'c.ts': "import { gql } from 'graphql-tag';\nexport const C = gql`query C { taskById(id: 2) { id } }`;\n",
      'd.ts': "import { gql } from 'graphql-tag';\nexport const D = gql`query D { taskById { id } }`;\nexport const E = gql`query E($n: Int) { taskGetAll(limit: $n) { id } }`;\n",
      'f.ts': "import { gql } from 'graphql-tag';\nexport const F = gql`query F { taskGetAll { ...T } }\nfragment T on Task { id }`;\n",
    };
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-v6-batch-'));
    try {
      for (const [file, text] of Object.entries(sources)) writeFileSync(join(dir, file), text);
      const report = await runMigration({ transforms: ['v5-to-v6'], paths: [dir], cwd: dir, dryRun: true, gitignore: false, options: { schema: v6 } });
      const after = Object.fromEntries(report.files.map((f) => [f.file, f]));
      // Each exported document also gets its readers' marker: only the schema's refusals are asked about here.
      const refusals = (file: string) => after[file]!.manual.map((m) => m.reason).filter((r) => r.includes('would not validate'));
      expect(after['a.ts']!.after).toContain('gql`query A { Task { taskGetAll: getAll(limit: 1) { id } } }`');
      expect(after['b.ts']!.after).toBe(`import { gql } from 'graphql-tag';\n// TODO(ergraph-migrate): ${refused}\nexport const B = gql\`query B { taskGetAll(status: OPEN) { id } }\`;\n`);
      expect(refusals('a.ts')).toEqual([]);
      expect(refusals('b.ts')).toEqual([refused]);
      expect(after['c.ts']!.after).toContain('gql`query C { Task { taskById: byId(id: 2) { id } } }`');
      expect(refusals('c.ts')).toEqual([]);
      expect(after['d.ts']!.after).toContain(`// TODO(ergraph-migrate): ${missing}\nexport const D = gql\`query D { taskById { id } }\`;`);
      expect(after['d.ts']!.after).toContain('gql`query E($n: Int) { Task { taskGetAll: getAll(limit: $n) { id } } }`');
      expect(refusals('d.ts')).toEqual([missing]);
      expect(refusals('f.ts')).toEqual([]);
      expect(after['f.ts']!.after).toContain('query F { Task { taskGetAll: getAll { ...T } } }');
      expect(refusals('g.ts')).toEqual([mistyped]);
      expect(report.summary.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('v5-to-v6 documents held from prepare to apply', () => {
  it('hold no graphql-js tree (a file of 95,528 documents held 260 MB of them): each read of `document` parses again, offsets as written', () => {
    const source = "import { gql } from '@apollo/client';\nexport const Q = gql`query Q { userGetAll }`;\nconst M = gql`\n  query M($id: Int!) { userById(id: $id) }\n  ${Q}\n`;\n";
    const sf = parseSource(source, 'held.ts');
    const small = buildSchema('type UserQuery { getAll: [Int!]! byId(id: Int!): Int }\ntype Query { User: UserQuery! }');
    const held = prepareDocuments(sf, 'held.ts', { schema: small }, [small]);
    expect(held).toHaveLength(2);
    // What the entries hold through plain objects and lists (the TypeScript nodes and the schema aside): no GraphQL AST node.
    const kinds: string[] = [];
    const seen = new Set<unknown>();
    const walk = (value: unknown): void => {
      if (value === null || typeof value !== 'object' || seen.has(value)) return;
      if (![Object.prototype, Array.prototype, PreparedDocument.prototype].includes(Object.getPrototypeOf(value))) return;
      seen.add(value);
      const kind = (value as { kind?: unknown }).kind;
      if (typeof kind === 'string' && (Object.values(Kind) as string[]).includes(kind)) kinds.push(kind);
      for (const v of Array.isArray(value) ? value : Object.values(value)) walk(v);
    };
    walk(held);
    expect(seen.size).toBeGreaterThan(10);
    expect(kinds).toEqual([]);
    // A parse per read, offsets into the text as written: the read-site pass and the reports read them.
    const [first] = held;
    expect(first!.document).not.toBe(first!.document);
    expect(first!.doc.raw.slice(first!.document.definitions[0]!.loc!.start, first!.document.definitions[0]!.loc!.end)).toBe('query Q { userGetAll }');
    expect(held.map((d) => d.outline)).toEqual([
      { open: false, resultTypes: ['QQuery'] },
      { open: false, resultTypes: ['MQuery'] },
    ]);
    expect(held.every((d) => d.rewrite && d.rewrite.edits.length > 0)).toBe(true);
  });
});

describe('v5-to-v6 in Vue, Svelte and Astro components', () => {
  // A component's top-level names are read by its markup too, which the read-site pass does not see.
  const markupTodo = (name: string, moves: string, verb = 'use') => `// TODO(ergraph-migrate): the component's markup may ${verb} \`${name}\`; move its reads: ${moves}`;
  const USERS = 'data.userGetAll → data.User.userGetAll';
  it('migrates each <script> block in place; markup, styles and comments stay byte for byte', () => {
    const source = [
      '<template>\r',
      '  <!-- <script>const old = gql`{ userGetAll { id } }`</script> -->\r',
      '  <p>{{ result }}</p>\r',
      '</template>\r',
      '<script setup lang="ts">\r',
      "import { gql } from 'graphql-tag';\r",
      'const q = gql`{ userGetAll { id } }`;\r',
      'const t = gql`{ taskGetAll { id } taskArchive }`;\r',
      '</script>\r',
      '<style>p { color: red }</style>\r',
    ].join('\n');
    const result = run(source, 'List.vue');
    expect(result.output).toBe(
      source
        .replace('const q = gql`{ userGetAll { id } }`', `${markupTodo('q', USERS)}\r\nconst q = gql\`{ User { userGetAll: getAll { id } } }\``)
        .replace(
          'const t = gql`{ taskGetAll { id } taskArchive }`',
          `${markupTodo('t', 'data.taskGetAll → data.Task.taskGetAll')}\r\n// TODO(ergraph-migrate): \`taskArchive\` is neither a v5 flat query field nor a v6 group of the given schema\r\nconst t = gql\`{ Task { taskGetAll: getAll { id } } taskArchive }\``,
        ),
    );
    // Lines and columns are the component's own.
    expect(result.manual).toEqual([
      { line: 7, column: 11, reason: expect.stringContaining('`q`') },
      { line: 8, column: 11, reason: expect.stringContaining('`t`') },
      { line: 8, column: 11, reason: expect.stringContaining('`taskArchive`') },
    ]);
    expect(run(result.output, 'List.vue').output).toBe(result.output);
  });

  it("reads a Svelte component's module and instance scripts, and no block with src or another language", () => {
    const source = [
      '<script context="module">',
      '  export const A = gql`{ userGetAll { id } }`;',
      '</script>',
      '<script src="./b.js"></script>',
      '<script lang="coffee">',
      '  q = gql"{ userGetAll { id } }"',
      '</script>',
      "<script lang='ts'>",
      '  const B: unknown = gql`{ taskById(id: 1) { id } }`;',
      '</script>',
      '<p>{B}</p>',
      '',
    ].join('\n');
    const result = run(source, 'Card.svelte');
    expect(result.output).toBe(
      source
        .replace('  export const A = gql`{ userGetAll { id } }`', `  // TODO(ergraph-migrate): the document is exported: the modules importing it read its result; move its reads: ${USERS}\n  export const A = gql\`{ User { userGetAll: getAll { id } } }\``)
        .replace('  const B: unknown = gql`{ taskById(id: 1) { id } }`', `  ${markupTodo('B', 'data.taskById → data.Task.taskById')}\n  const B: unknown = gql\`{ Task { taskById: byId(id: 1) { id } } }\``),
    );
  });

  it("reads an Astro component's frontmatter and its scripts (TypeScript unless they say otherwise)", () => {
    const source = [
      '---',
      "import { request, gql } from 'graphql-request';",
      'const data = await request(API, gql`{ userGetAll { id } }`);',
      '---',
      '<ul>{data.userGetAll.map((u) => <li>{u.id}</li>)}</ul>',
      '<script>',
      '  const q: string = gql`{ taskGetAll { id } }`;',
      '</script>',
      '',
    ].join('\r\n');
    expect(run(source, 'Page.astro').output).toBe(
      source
        .replace('const data = await request(API, gql`{ userGetAll { id } }`)', `${markupTodo('data', USERS, 'read')}\r\nconst data = await request(API, gql\`{ User { userGetAll: getAll { id } } }\`)`)
        .replace('  const q: string = gql`{ taskGetAll { id } }`', `  ${markupTodo('q', 'data.taskGetAll → data.Task.taskGetAll')}\r\n  const q: string = gql\`{ Task { taskGetAll: getAll { id } } }\``),
    );
    // Markup that merely starts with a rule is no frontmatter.
    const markup = '<hr />\n---\nconst a = gql`{ userGetAll { id } }`;\n---\n';
    expect(run(markup, 'Rule.astro').output).toBe(markup);
  });

  it('a block that does not parse is a ParseError at its place in the component; the file is left as it is', () => {
    const source = '<template><p /></template>\n<script>\nconst q = gql`{ userGetAll { id } }`;\nconst = 1;\n</script>\n';
    const outcome = applyFile(transform, source, 'Broken.vue', [], options);
    expect(outcome.error).toBeInstanceOf(ParseError);
    expect(outcome.error).toMatchObject({ file: 'Broken.vue', line: 4, column: 7 });
  });

  it('puts a marker for code on the line of the <script> tag inside the block, right after the tag', () => {
    const source = '<p />\n<script>const q = gql`{ userGetAll { id } nope }`;</script>\n';
    const result = run(source, 'One.vue');
    expect(result.output).toBe(
      `<p />\n<script>${markupTodo('q', USERS)}\n        // TODO(ergraph-migrate): \`nope\` is neither a v5 flat query field nor a v6 group of the given schema\n        const q = gql\`{ User { userGetAll: getAll { id } } nope }\`;</script>\n`,
    );
    expect(() => assertParses(result.output, 'One.vue')).not.toThrow();
    expect(run(result.output, 'One.vue').output).toBe(result.output);
  });

  it('are found and migrated by a run over a folder', async () => {
    const files = new Map([
      ['/app/src/List.vue', '<script setup>\nconst q = gql`{ userGetAll { id } }`;\n</script>\n'],
      ['/app/src/plain.ts', 'const q = gql`{ userGetAll { id } }`;\n'],
    ]);
    const outcomes = applyToFiles(transform, files, options);
    expect(outcomes.get('/app/src/List.vue')?.result?.output).toBe(`<script setup>\n${markupTodo('q', USERS)}\nconst q = gql\`{ User { userGetAll: getAll { id } } }\`;\n</script>\n`);
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-sfc-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'List.vue'), files.get('/app/src/List.vue')!);
      const report = await runMigration({ transforms: ['v5-to-v6'], paths: [dir], cwd: dir, dryRun: true, gitignore: false, options });
      expect(report.files.map((f) => [f.file, f.changed, f.error])).toEqual([['src/List.vue', true, undefined]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('v5-to-v6 MCP calls and naming helpers', () => {
  it('rewrites callTool and direct calls, keeping quote style and other arguments', () => {
    const source = [
      "await client.callTool({ name: 'get_mutation_schema', arguments: { app_name: 'x', name: 'userRename' } });",
      'await get_query_schema({ name: `taskGetAll`, response_type: "sdl" });',
      "await client.callTool({ name: 'list_queries', arguments: { name: 'userGetAll' } });",
      '',
    ].join('\n');
    expect(run(source).output).toBe(
      [
        "await client.callTool({ name: 'get_mutation_schema', arguments: { app_name: 'x', entity: 'User', method: 'rename' } });",
        'await get_query_schema({ entity: `Task`, method: `getAll`, response_type: "sdl" });',
        "await client.callTool({ name: 'list_queries', arguments: { name: 'userGetAll' } });",
        '',
      ].join('\n'),
    );
  });

  it('reports a flat name the schema does not know', () => {
    const result = run("get_query_schema({ name: 'userNope' });\n");
    expect(result.manual).toEqual([
      { line: 1, column: 20, reason: 'MCP get_query_schema: `userNope` is not a v5 flat name in the given schema; pass { entity, method }' },
    ]);
  });

  it('removes unused helper imports from the middle and the end of a list', () => {
    expect(run("import { A, toCamelCase, B } from 'ergraph';\nimport { C, toCamelCase as t, toGraphqlFieldName } from 'ergraph';\n").output).toBe(
      "import { A, B } from 'ergraph';\nimport { C } from 'ergraph';\n",
    );
  });

  it('keeps a used helper visible: replaced by groupTypeName, every use marked', () => {
    const source = "import { groupTypeName, toGraphqlFieldName } from 'ergraph';\nconst a = toGraphqlFieldName('User', 'get_all');\n";
    const result = run(source);
    expect(result.output).toBe(
      "import { groupTypeName } from 'ergraph';\n// TODO(ergraph-migrate): toGraphqlFieldName was removed in v6: use groupTypeName(entity, suffix) or the entity and method names\nconst a = toGraphqlFieldName('User', 'get_all');\n",
    );
    expect(run(result.output).output).toBe(result.output);
  });

  it('leaves helpers imported from other packages alone', () => {
    const source = "import { toCamelCase } from 'lodash-ish';\ntoCamelCase('a');\n";
    expect(run(source).output).toBe(source);
  });
});
