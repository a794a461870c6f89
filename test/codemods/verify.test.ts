/**
 * Issue 26.5: `ergraph-migrate verify` runs each v5 document through the compat layer and its
 * migrated form through v6, against the user's app (`--app`, the binary as users run it) or a
 * server (`--url`), and says per operation: same, differs (first differing path), or not run.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../codemods/cli.js';
import { asV5Data, compareAnswers } from '../../compat/v6-form/answers.js';
import { summarize, toMarkdown } from '../../codemods/verify/report.js';
import { graphqlApp, serveApp, type ServedApp } from '../../src/http/index.js';
import { serveV5AndV6 } from '../support/v5-and-v6-server.js';
import { handler } from './verify-app/app.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const APP = fileURLToPath(new URL('./verify-app/app.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ergraph-verify-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(root, 't-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const CLIENT = `const gql = (s: TemplateStringsArray) => s.join('');
export const ONE = gql\`query OneUser($id: Int!) { userById(id: $id) { name } }\`;
export const NOW = gql\`query Now { clockNow { tick } }\`;
export const BROKEN = gql\`query Broken { userBroken { name } }\`;
export const ADD = gql\`mutation AddTask { taskCreate(title: "x") { title } }\`;
`;

/** An Apollo manifest `v5-to-v6` already migrated, and the mapping it wrote: one faithful entry, one edited by hand. */
function persisted(): Record<string, string> {
  const v5 = 'query Q { userGetAll(limit: 1) { name } }';
  const v6 = 'query Q { User { userGetAll: getAll(limit: 1) { name } } }';
  const v5b = 'query R { userGetAll(limit: 1) { id } }';
  const v6b = 'query R { User { userGetAll: getAll(limit: 2) { id } } }';
  const manifest = {
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [
      { id: sha(v6), name: 'Q', type: 'query', body: v6 },
      { id: sha(v6b), name: 'R', type: 'query', body: v6b },
    ],
  };
  const mapping = { [sha(v5)]: { id: sha(v6), body: v6, v5Body: v5 }, [sha(v5b)]: { id: sha(v6b), body: v6b, v5Body: v5b } };
  return {
    'persisted-query-manifest.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'persisted-query-manifest.v6-map.json': `${JSON.stringify(mapping, null, 2)}\n`,
  };
}

/** The binary as users run it (its tsx hooks load the app); the timer only ends a run that never would. */
function bin(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'verify', ...args], { cwd, encoding: 'utf8', timeout: 600_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

async function cli(cwd: string, ...argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = { cwd, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  const code = await main(['verify', ...argv], io);
  return { code, out, err };
}

describe('ergraph-migrate verify --app', () => {
  it('says same, differs at the first differing path, or not run, per operation, and exits 4 when one differs', () => {
    const dir = tree({ 'q.graphql': 'query Users { userGetAll(limit: 2) { id name } }\n', 'src/client.ts': CLIENT, 'vars.json': '{ "OneUser": { "id": 2 } }\n', ...persisted() });
    const { code, out, err } = bin(dir, '.', '--app', APP, '--variables', 'vars.json', '--report', 'out/verify.json');
    expect(err).not.toMatch(/^skipped/m);
    expect(out).toContain('same: q.graphql:1 Users\n');
    expect(out).toContain('same: src/client.ts:2 OneUser\n');
    // Each run of the clock answers a new tick: the v6 answer is not the v5 one.
    expect(out).toContain('differs: src/client.ts:3 Now at data.clockNow.tick (v5: 1, v6: 2)\n');
    // Both answers are masked errors with their own ids, at moved paths: the same error.
    expect(out).toContain('same: src/client.ts:4 Broken\n');
    expect(out).toContain('not run: src/client.ts:5 AddTask: a mutation: run only with --mutations --target-env <non-production target>\n');
    // The manifest's old ids, run through compat by id (the mapping) and their v6 bodies through v6.
    expect(out).toMatch(/^same: persisted-query-manifest\.json:\d+ Q \(persisted id [0-9a-f]{64}\)$/m);
    expect(out).toMatch(/^differs: persisted-query-manifest\.json:\d+ R \(persisted id [0-9a-f]{64}\) at data\.userGetAll\[1\] \(v5: \(absent\), v6: \{"id":2\}\)$/m);
    expect(out).toContain(': 7 operations, 4 same, 2 differ, 1 not run');
    expect(out).toContain('not proven: 1 of 7 operations not run: 1 mutation (run with --mutations --target-env <target>)\n');
    // A difference is the stronger news: 4, not 5.
    expect(code).toBe(4);
    const report = JSON.parse(readFileSync(join(dir, 'out/verify.json'), 'utf8')) as { summary: object; documents: { operation: string; verdict: string; path?: string }[] };
    expect(report.summary).toMatchObject({ same: 4, differs: 2, notRun: 1 });
    expect(report.documents.find((d) => d.operation === 'Now')).toMatchObject({ verdict: 'differs', path: 'data.clockNow.tick' });
  }, 120_000);

  it('runs mutations with --mutations and a named non-production target, fragments from other modules pasted in; exits 0 when every operation ran and is the same; reports in Markdown', () => {
    const dir = tree({
      'q.graphql': 'query Users { userGetAll(limit: 2) { id name } }\n',
      'm.graphql': 'mutation AddTask { taskCreate(title: "x") { title } }\n',
      'one.graphql': 'query OneUser($id: Int!) { userById(id: $id) { name } }\n',
      'vars.json': '{ "OneUser": { "id": 2 } }\n',
      // Fragments pasted in as the client sends them: from this file, from another module through a
      // barrel and a tsconfig `paths` alias, from a .graphql file's default import, and gql.tada's list.
      'tsconfig.json': '{ "compilerOptions": { "paths": { "@frags/*": ["./src/fragments/*"] } } }\n',
      'src/fragments/user.ts': "const gql = (s: TemplateStringsArray, ...parts: unknown[]) => s.join('');\nexport const NAMED = gql`fragment Named on User { name }`;\nexport const IDS = gql`fragment Ids on User { id ...Named } ${NAMED}`;\n",
      'src/fragments/index.ts': "export * from './user';\n",
      'src/fragments/user.graphql': 'fragment Loaded on User { name }\n',
      'src/tada.ts': "declare function graphql(text: string, fragments?: unknown[]): string;\nexport const Tada = graphql(`fragment Tada on User { name }`);\n",
      'src/f.ts': [
        "const gql = (s: TemplateStringsArray, ...parts: unknown[]) => s.join('');",
        "import { IDS as UserIds, NAMED } from './fragments';",
        "import LOADED_FIELDS from './fragments/user.graphql';",
        "import { Tada } from './tada.js';",
        "import { IDS } from '@frags/user';",
        "declare function graphql(text: string, fragments?: unknown[]): string;",
        'const FIELDS = gql`fragment F on User { id name }`;',
        'export const WITH = gql`query WithFragment { userGetAll(limit: 1) { ...F } } ${FIELDS}`;',
        // NAMED twice (directly and through IDS): sent once, as graphql-tag does.
        'export const ELSEWHERE = gql`query Elsewhere { userGetAll(limit: 1) { ...Ids ...Named } } ${UserIds} ${NAMED}`;',
        'export const ALIASED = gql`query Aliased { userGetAll(limit: 1) { ...Ids } } ${IDS}`;',
        'export const LOADED = gql`query Loaded { userById(id: 1) { ...Loaded } } ${LOADED_FIELDS}`;',
        'export const LISTED = graphql(`query Listed { userGetAll(limit: 1) { ...Tada } }`, [Tada]);',
        '',
      ].join('\n'),
    });
    const { code, out } = bin(dir, '.', '--app', APP, '--mutations', '--target-env', 'staging', '--variables', 'vars.json', '--report', 'verify.md');
    expect(out).toContain('same: m.graphql:1 AddTask\n');
    expect(out).toContain('same: one.graphql:1 OneUser\n');
    expect(out).toContain('same: src/f.ts:8 WithFragment\n');
    expect(out).toContain('same: src/f.ts:9 Elsewhere\n');
    expect(out).toContain('same: src/f.ts:10 Aliased\n');
    expect(out).toContain('same: src/f.ts:11 Loaded\n');
    expect(out).toContain('same: src/f.ts:12 Listed\n');
    expect(out).toContain(': 8 operations, 8 same, 0 differ, 0 not run');
    expect(out).not.toContain('not proven');
    expect(code).toBe(0);
    const md = readFileSync(join(dir, 'verify.md'), 'utf8');
    expect(md).toContain('| 8 | 8 | 0 | 0 |');
    expect(md).not.toContain('## Not run');
  }, 120_000);

  it('exits 5 when an operation was not run, or none was, and says how many and why', () => {
    const dir = tree({
      'one.graphql': 'query OneUser($id: Int!) { userById(id: $id) { name } }\n',
      'm.graphql': 'mutation AddTask { taskCreate(title: "x") { title } }\n',
      // Both endpoints refuse it alike (the fragment is nowhere): "same" would prove nothing.
      'orphan.graphql': 'query Orphan { userGetAll(limit: 1) { ...Missing } }\n',
      'q.graphql': 'query Users { userGetAll(limit: 2) { id name } }\n',
      'f.ts': [
        "const gql = (s: TemplateStringsArray, ...parts: unknown[]) => s.join('');",
        'declare const built: string;',
        'export const RUNTIME = gql`query Runtime { userGetAll(limit: 1) { ...G } } ${built}`;',
        '',
      ].join('\n'),
    });
    const { code, out } = bin(dir, '.', '--app', APP, '--report', 'verify.md');
    expect(out).toContain('same: q.graphql:1 Users\n');
    expect(out).toContain('not run: f.ts:3 Runtime: its text has `${...}` interpolations that are not documents of this project');
    expect(out).toContain('not run: one.graphql:1 OneUser: needs $id: give it in --variables <file.json> under "OneUser"\n');
    expect(out).toContain('not run: orphan.graphql:1 Orphan: the endpoint answered no data: Unknown fragment "Missing".\n');
    expect(out).toContain(': 5 operations, 1 same, 0 differ, 4 not run');
    expect(out).toContain(
      'not proven: 4 of 5 operations not run: 1 has interpolations verify cannot resolve, 1 mutation (run with --mutations --target-env <target>), 1 needs variables (--variables <file.json>), 1 was refused by the endpoint (no data)\n',
    );
    expect(code).toBe(5);
    const md = readFileSync(join(dir, 'verify.md'), 'utf8');
    expect(md).toContain('| 5 | 1 | 0 | 4 |');
    expect(md).toContain('**not proven: 4 of 5 operations not run:');
    expect(md).toContain('give it in --variables &lt;file.json> under "OneUser"');
    // Nothing found to run proves nothing either.
    const empty = bin(tree({ 'README.md': '# no documents\n' }), '.', '--app', APP);
    expect(empty.out).toContain('not proven: no operation was run\n');
    expect(empty.code).toBe(5);
  }, 120_000);

  it('refuses mutations without a named target, or against production (usage, exit 2, nothing run)', async () => {
    const dir = tree({ 'm.graphql': 'mutation AddTask { taskCreate(title: "x") { title } }\n' });
    const none = await cli(dir, '.', '--app', APP, '--mutations');
    expect(none.code).toBe(2);
    expect(none.err).toContain('name the non-production target it may change with --target-env <name>');
    const prod = await cli(dir, '.', '--app', APP, '--mutations', '--target-env', 'production');
    expect(prod.code).toBe(2);
    expect(prod.err).toContain('--target-env production names production');
    const host = await cli(dir, '.', '--url', 'https://api.example.com', '--mutations', '--target-env', 'staging');
    expect(host.code).toBe(2);
    expect(host.err).toContain('api.example.com does not look like a test host');
    const both = await cli(dir, '.');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--app <module>');
    // The migration's own options are refused, not silently ignored.
    const stray = await cli(dir, '.', '--app', APP, '--schema', 'v6.graphql', '--dry-run');
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('--schema, --dry-run do not apply');
  });
});

describe('ergraph-migrate verify --app in a project without ergraph 6', () => {
  // ergraph-migrate carries no ergraph: compat is the project's own, and a project still on an
  // older ergraph (or none) is told what to install, before its app is loaded.
  const app = (files: Record<string, string>) => tree({ 'package.json': '{"name":"old","type":"module"}', 'app.js': 'export const loaded = true;\n', 'q.graphql': 'query Users { userGetAll(limit: 2) { id } }\n', ...files });
  const line = /^ergraph-migrate: verify --app runs your v5 documents through ergraph 6's compat layer, loaded from your project: (.*); install it there: (npm install|pnpm add|yarn add) ergraph@6\n$/;

  it('with no ergraph installed: names the install command, exit 1', async () => {
    const { code, err, out } = await cli(app({}), '.', '--app', 'app.js');
    expect(err).toMatch(line);
    expect(err.match(line)![1]).toBe('no ergraph is installed there');
    expect([code, out]).toEqual([1, '']);
  });

  it('with ergraph 5 installed: says which one it found', async () => {
    const { code, err } = await cli(app({ 'node_modules/ergraph/package.json': '{"name":"ergraph","version":"5.5.0","main":"index.js"}', 'node_modules/ergraph/index.js': 'module.exports = {};\n' }), '.', '--app', 'app.js');
    expect(err.match(line)?.[1]).toBe('ergraph 5.5.0 is installed there');
    expect(code).toBe(1);
  });
});

describe('ergraph-migrate verify --base (a migration already committed, before it is merged)', () => {
  it("pairs the base commit's v5 documents with the work tree's migrated ones, in order, file by file", () => {
    const dir = tree({
      'q.graphql': 'query Users { userGetAll(limit: 2) { id name } }\n',
      'src/client.ts': "const gql = (s: TemplateStringsArray) => s.join('');\nexport const A = gql`query A { userGetAll(limit: 1) { name } }`;\nexport const B = gql`query B { userGetAll(limit: 1) { id } }`;\n",
      'gone.graphql': 'query Gone { userGetAll(limit: 1) { id } }\n',
      // An imported fragment, read at the base commit through a barrel the work tree has dropped since.
      'src/frag/index.ts': "export * from './user';\n",
      'src/frag/user.ts': "const gql = (s: TemplateStringsArray) => s.join('');\nexport const F = gql`fragment F on User { id }`;\n",
      'src/with-fragment.ts': "import { F } from './frag';\nconst gql = (s: TemplateStringsArray, ...parts: unknown[]) => s.join('');\nexport const C = gql`query C { userGetAll(limit: 1) { ...F } } ${F}`;\n",
    });
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'v5');
    // As the migration wrote them: keys kept in q.graphql, the method as the key (--no-keep-response-keys) in A,
    // and B edited by hand afterwards (one user more).
    writeFileSync(join(dir, 'q.graphql'), 'query Users { User { userGetAll: getAll(limit: 2) { id name } } }\n');
    writeFileSync(
      join(dir, 'src/client.ts'),
      "const gql = (s: TemplateStringsArray) => s.join('');\n\nexport const A = gql`query A { User { getAll(limit: 1) { name } } }`;\nexport const B = gql`query B { User { userGetAll: getAll(limit: 2) { id } } }`;\n",
    );
    rmSync(join(dir, 'gone.graphql'));
    rmSync(join(dir, 'src/frag/index.ts'));
    writeFileSync(
      join(dir, 'src/with-fragment.ts'),
      "import { F } from './frag/user';\nconst gql = (s: TemplateStringsArray, ...parts: unknown[]) => s.join('');\nexport const C = gql`query C { User { userGetAll: getAll(limit: 1) { ...F } } } ${F}`;\n",
    );
    const { code, out } = bin(dir, '.', '--app', APP, '--base', 'HEAD');
    expect(out).toContain('same: q.graphql:1 Users\n');
    // Lines are the work tree's, as the PR shows them.
    expect(out).toContain('same: src/client.ts:3 A\n');
    expect(out).toContain('differs: src/client.ts:4 B at data.userGetAll[1] (v5: (absent), v6: {"id":2})\n');
    expect(out).toContain('not run: gone.graphql:1 Gone: its file has no documents in the work tree');
    expect(out).toContain('same: src/with-fragment.ts:3 C\n');
    expect(code).toBe(4);
  }, 120_000);
});

describe('ergraph-migrate verify --url', () => {
  let server: ServedApp;
  let base = '';
  beforeAll(async () => {
    server = await serveV5AndV6(handler);
    base = server.url;
  });
  afterAll(() => server.close());

  it('POSTs the v5 document to <url>/graphql/v5 and the migrated one to <url>/graphql', async () => {
    const dir = tree({ 'q.graphql': 'query Users { userGetAll(limit: 2) { id name } }\n', 'now.graphql': '{ clockNow { tick } }\n' });
    const { code, out } = await cli(dir, '.', '--url', base);
    expect(out).toContain('same: q.graphql:1 Users\n');
    expect(out).toMatch(/^differs: now\.graphql:1 \(anonymous\) at data\.clockNow\.tick \(v5: \d+, v6: \d+\)$/m);
    expect(code).toBe(4);
  });

  it('says not run, with the reason, when an endpoint is not there', async () => {
    const dir = tree({ 'q.graphql': 'query Users { userGetAll(limit: 2) { id name } }\n' });
    const app = new Hono();
    app.route('/', graphqlApp(handler, { path: '/graphql' }));
    const lone = await serveApp(app, { port: 0 });
    try {
      const { code, out } = await cli(dir, '.', '--url', lone.url);
      expect(out).toMatch(/^not run: q\.graphql:1 Users: POST http:\/\/127\.0\.0\.1:\d+\/graphql\/v5 answered HTTP 404, not a GraphQL response$/m);
      expect(out).toContain('not proven: 1 of 1 operations not run: 1 got no GraphQL answer\n');
      expect(code).toBe(5);
    } finally {
      await lone.close();
    }
  });
});

describe('the Markdown report', () => {
  it('lists what differs with its first path and both values, and keeps `<` readable in and out of code', () => {
    const md = toMarkdown(
      summarize('--app app.ts', [
        { file: 'a.ts', line: 3, operation: 'Now', verdict: 'differs', path: 'data.x', v5: '<a>', v6: 'b|c' },
        { file: 'a.ts', line: 5, operation: null, verdict: 'not run', cause: 'variables', reason: 'needs <file.json>' },
      ], [], 0),
    );
    expect(md).toContain('| `a.ts:3` | Now | `data.x` | `"<a>"` | `"b\\|c"` |');
    expect(md).toContain('| `a.ts:5` | (anonymous) | needs &lt;file.json> |');
    expect(md).toContain('| 2 | 0 | 1 | 1 |');
  });
});

describe('comparing the answers', () => {
  const moves = [{ where: { operation: null }, from: ['userGetAll'], to: ['User', 'userGetAll'], target: { entity: 'User', method: 'getAll', flatName: 'userGetAll' }, offset: 0 }];

  it('re-keys the v6 data to the v5 paths, dropping the group the migration added', () => {
    expect(asV5Data({ User: { userGetAll: [1] }, __typename: 'Query' }, moves)).toEqual({ userGetAll: [1], __typename: 'Query' });
  });

  it('maps error paths and leaves masked error ids and locations aside, but not the messages', () => {
    const v5 = { data: { userGetAll: null }, errors: [{ message: 'Internal server error (error id aaaa)', path: ['userGetAll'], locations: [{ line: 1, column: 3 }], extensions: { code: 'INTERNAL', errorId: 'aaaa' } }] };
    const v6 = { data: { User: { userGetAll: null } }, errors: [{ message: 'Internal server error (error id bbbb)', path: ['User', 'userGetAll'], locations: [{ line: 1, column: 10 }], extensions: { code: 'INTERNAL', errorId: 'bbbb' } }] };
    expect(compareAnswers(v5, v6, moves).path).toBeUndefined();
    const other = { ...v6, errors: [{ ...v6.errors[0]!, message: 'Internal server error (error id bbbb): more' }] };
    expect(compareAnswers(v5, other, moves).path).toBe('errors[0].message');
  });
});
