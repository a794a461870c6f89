/**
 * The client corpus (issues 26.6, 43.8): small v5 client apps in the styles users write them —
 * Apollo Client's React hooks, Apollo server rendering with React 19 and codegen types, urql hooks,
 * `@urql/core` with Graphcache, graphql-request (with an aliased tag), Relay, gql.tada typed documents
 * (`fixtures/client-corpus/apps/<app>`; its README lists what each does). Each app's main prints what
 * its data-reading code read, one `{ site, value }` line per reader. As a user would: the apps are
 * copied into one git repository and run against the compat layer (v5); the real `ergraph-migrate
 * v5-to-v6` binary migrates them; what they generate from the schema is regenerated from v6's; the
 * migrated apps are type-checked (one program) and run against v6 of the same server. Every reader
 * must read the same value as before, unless the migration marked it with a TODO (and counted it as
 * manual): a changed value without a marker is a silent change and fails the test. `ergraph-migrate
 * verify` then runs each app's documents through compat and v6 and must run every one and find no
 * difference.
 *
 * The clients are the real libraries (devDependencies), so the migrated code must compile against
 * their own typings: the v5 apps are type-checked too, against the types gql.tada and GraphQL Code
 * Generator generate from the v5 schema, and again after the migration against the v6 schema's;
 * Relay's documents go through the Relay compiler against each schema and run through
 * babel-plugin-relay (fixtures/client-corpus/relay-loader). Hooks run under React
 * (fixtures/client-corpus/render); the server-rendered app under React 19. One server serves both
 * phases; the apps that need no process of their own run in one (fixtures/client-corpus/runner).
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v5SchemaSdl } from '../../compat/index.js';
import { handler } from '../../fixtures/client-corpus/server.js';
import type { ServedApp } from '../../src/http/index.js';
import { serveV5AndV6 } from '../support/v5-and-v6-server.js';
import { REPO } from '../support/built-package.js';
import { formatDiagnostic, typeCheck, type Diagnostic } from '../support/typecheck.js';
import { FIXTURES } from './helpers.js';

const execute = promisify(execFile);
const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const CORPUS = join(FIXTURES, 'client-corpus');
const APPS = readdirSync(join(CORPUS, 'apps')).sort();

/** Copied into each app's node_modules: the React harness, and babel-plugin-relay as a loader hook (Relay's bundler step). */
const LOCAL: Record<string, string> = {
  'corpus-render': 'render',
  'corpus-relay-loader': 'relay-loader',
};
/** The real packages the apps import, linked from the repository's node_modules (devDependencies). */
const PACKAGES = [
  'graphql', 'graphql-tag', '@graphql-typed-document-node/core', 'tsx', 'react', '@types/react', 'react-test-renderer',
  '@apollo/client', 'rxjs', 'urql', '@urql/core', '@urql/exchange-graphcache', 'graphql-request', 'gql.tada', 'hono',
  'relay-runtime', 'react-relay', '@types/relay-runtime', '@types/react-relay', '@babel/core', 'babel-plugin-relay',
  '@tanstack/react-query', '@tanstack/query-core',
  '@graphql-codegen/cli', '@graphql-codegen/client-preset', 'happy-dom',
  // Apollo Client's own dependencies, for the copy a React 19 app gets (below).
  '@wry/caches', '@wry/equality', '@wry/trie', 'optimism', 'tslib',
];
/**
 * Apps on React 19 (server rendering, then hydration): the repository's react is 18 (GraphiQL's
 * page ships its UMD build, which 19 no longer has), so 19 comes from the `corpus-react19`
 * workspace, and Apollo Client is copied into the app (a link would resolve its `react` from where
 * it really lives, the repository's 18). Each runs in a process of its own.
 */
const REACT19 = new Set(['apollo-ssr']);
const R19 = join(CORPUS, 'react19', 'node_modules');
const FROM_R19 = ['react', 'react-dom', '@types/react', '@types/react-dom'];
const TADA = join(REPO, 'node_modules', 'gql.tada', 'bin', 'cli.js');
const RELAY = join(REPO, 'node_modules', 'relay-compiler', 'cli.js');
const CODEGEN = join(REPO, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js');
const TSX = pathToFileURL(join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const RELAY_LOADER = pathToFileURL(join(CORPUS, 'relay-loader', 'register.js')).href;
const RUNNER = join(CORPUS, 'runner', 'run.js');

/**
 * The manual work each migration must report (file:line of its TODO): the readers it cannot
 * prove. Only these readers may read something else after the migration; any other difference is
 * a silent change.
 */
const MANUAL: Record<string, { line: string; reader: string }[]> = {
  'graphql-request': [
    {
      line: 'manual: src/api.ts:33:18 [v5-to-v6] `countOf` receives the result of an operation whose paths move (from this file), but it is also called at line 38 with another value; move its reads: data.userGetAll → data.User.userGetAll',
      reader: 'handedTwice',
    },
  ],
};

interface Outcome {
  code: number;
  out: string;
  err: string;
}

async function spawn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execute(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 16 << 20, env: { ...process.env, ...env } });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: e.stdout ?? '', err: e.stderr ?? String(error) };
  }
}

/** What an app's readers read: reader → value. */
function readings(out: string): Map<string, unknown> {
  const lines = out.trim().split('\n').filter(Boolean);
  return new Map(lines.map((line) => {
    const { site, value } = JSON.parse(line) as { site: string; value: unknown };
    return [site, value];
  }));
}

const root = mkdtempSync(join(tmpdir(), 'ergraph-client-corpus-'));
let server: ServedApp | undefined;
let base = '';
const before = new Map<string, Outcome>();
let migration: Outcome = { code: -1, out: '', err: '' };
const after = new Map<string, Outcome>();
let verified: Outcome = { code: -1, out: '', err: '' };
let diagnosticsV5: Diagnostic[] = [];
let diagnostics: Diagnostic[] = [];
let generatedV5: Outcome[] = [];
let generatedV6: Outcome[] = [];

/**
 * What the apps generate from the schema, as their tools do: gql.tada's types for the typed app,
 * the Relay compiler's artifacts (which it validates the documents for) for the Relay app,
 * GraphQL Code Generator's client preset for the server-rendered Apollo app.
 */
async function generate(sdl: string): Promise<Outcome[]> {
  const [typed, relay, ssr] = ['typed', 'relay', 'apollo-ssr'].map((app) => join(root, 'apps', app));
  for (const dir of [typed, relay, ssr]) writeFileSync(join(dir!, 'schema.graphql'), sdl);
  return Promise.all([
    spawn(typed!, [TADA, 'generate', 'output', '--tsconfig', './tsconfig.json']),
    spawn(relay!, [RELAY, './relay.config.json']),
    spawn(ssr!, [CODEGEN, '--config', 'codegen.ts', '--silent']),
  ]);
}

/**
 * Every app against `url`: the React 19 ones each in a process of its own, the others one after
 * another in one process (`fixtures/client-corpus/runner`), so the Node start and the libraries'
 * load are paid once.
 */
async function runApps(apps: string, url: string): Promise<Map<string, Outcome>> {
  const shared = APPS.filter((name) => !REACT19.has(name));
  const [together, ...alone] = await Promise.all([
    spawn(apps, ['--import', TSX, '--import', RELAY_LOADER, RUNNER, ...shared.map((name) => join(apps, name))], { GRAPHQL_URL: url }),
    ...[...REACT19].map((name) => spawn(join(apps, name), ['--import', TSX, 'src/main.ts'], { GRAPHQL_URL: url })),
  ]);
  const outcomes = new Map<string, Outcome>();
  for (const line of together!.out.split('\n').filter(Boolean)) {
    const { app, code, out, err } = JSON.parse(line) as Outcome & { app: string };
    outcomes.set(app, { code, out, err });
  }
  // The shared process itself failing (not one app) is every app's failure.
  for (const name of shared) if (!outcomes.has(name)) outcomes.set(name, { code: together!.code || 1, out: '', err: together!.err || 'the runner ended before this app' });
  [...REACT19].forEach((name, i) => outcomes.set(name, alone[i]!));
  return outcomes;
}

beforeAll(async () => {
  // One server, as the README mounts it: compat (v5) at /graphql/v5, v6 at /graphql.
  server = await serveV5AndV6(handler);
  base = server.url;
  const schema = join(root, 'schema.graphql');
  writeFileSync(schema, printSchema(handler.schema));

  const apps = join(root, 'apps');
  for (const name of APPS) {
    const dir = join(apps, name);
    cpSync(join(CORPUS, 'apps', name), dir, { recursive: true });
    // Copies, not links: Node resolves a linked package's imports from where it really lives.
    for (const [module, local] of Object.entries(LOCAL)) cpSync(join(CORPUS, local), join(dir, 'node_modules', module), { recursive: true });
    const react19 = REACT19.has(name);
    for (const pkg of PACKAGES) {
      mkdirSync(join(dir, 'node_modules', pkg, '..'), { recursive: true });
      // Its ES modules and typings only: the CommonJS build and source maps are half its size, and unused.
      if (react19 && pkg === '@apollo/client') cpSync(join(REPO, 'node_modules', pkg), join(dir, 'node_modules', pkg), { recursive: true, filter: (from) => !from.endsWith('.map') && !from.includes('/__cjs') });
      else if (!(react19 && FROM_R19.includes(pkg))) symlinkSync(join(REPO, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
    }
    if (react19) for (const pkg of FROM_R19) mkdirSync(join(dir, 'node_modules', pkg, '..'), { recursive: true }), symlinkSync(join(R19, pkg), join(dir, 'node_modules', pkg), 'dir');
  }
  // One repository of all the apps (a monorepo of clients): one migration run and one verify run
  // cover them all, which keeps the test's cost to two CLI starts.
  writeFileSync(join(apps, '.gitignore'), 'node_modules\n');
  generatedV5 = await generate(v5SchemaSdl(handler));
  diagnosticsV5 = typeCheck(apps, { typeRoots: [join(REPO, 'node_modules', '@types')] });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=corpus@example.com', '-c', 'user.name=corpus', ...args], { cwd: apps });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'clients on v5');
  for (const [name, outcome] of await runApps(apps, `${base}/graphql/v5`)) before.set(name, outcome);
  // The proof a team wants before merging, on the v5 tree: each document through compat and, migrated, through v6.
  // The server is this test's own (its mutations answer the same each time): every operation runs.
  verified = await spawn(apps, [BIN, 'verify', '.', '--url', base, '--variables', join(CORPUS, 'verify-variables.json'), '--mutations', '--target-env', 'client-corpus']);
  migration = await spawn(apps, [BIN, 'v5-to-v6', '.', '--schema', schema]);
  // Types and artifacts come from the schema: after the migration, the user regenerates them from v6's.
  generatedV6 = await generate(printSchema(handler.schema));
  diagnostics = typeCheck(apps, { typeRoots: [join(REPO, 'node_modules', '@types')] });
  for (const [name, outcome] of await runApps(apps, `${base}/graphql`)) after.set(name, outcome);
}, 1_800_000);

afterAll(async () => {
  await server?.close();
  // CORPUS_KEEP=1 keeps the migrated apps to look at (the path is printed).
  if (process.env.CORPUS_KEEP) console.log(`client corpus kept at ${root}`);
  else rmSync(root, { recursive: true, force: true });
});

describe('the client corpus: v5 clients migrated by ergraph-migrate read what they read before', () => {
  it('has an app per client style', () => {
    expect(APPS).toEqual(['apollo-hooks', 'apollo-ssr', 'graphql-request', 'relay', 'tanstack', 'typed', 'urql', 'urql-graphcache']);
  });

  it.each(APPS)('%s: reads its data on v5 through the compat layer', (name) => {
    const { code, out, err } = before.get(name)!;
    expect(err).toBe('');
    expect(code).toBe(0);
    const read = readings(out);
    expect(read.size).toBeGreaterThanOrEqual(2);
    // Each reader read something: an app that reads nothing would prove nothing.
    for (const [site, value] of read) expect(value ?? null, site).not.toBeNull();
  });

  it('v5-to-v6 rewrites the documents and reports exactly the reads it cannot prove', () => {
    const { code, out, err } = migration;
    expect(err).toBe('');
    expect(code, out).toBe(0);
    const manual = Object.entries(MANUAL).flatMap(([name, items]) => items.map((m) => m.line.replace(/^manual: /, `manual: ${name}/`)));
    expect(out.split('\n').filter((line) => /^(manual|pending): /.test(line))).toEqual(manual);
    expect(out).toMatch(new RegExp(`, ${manual.length} manual, 0 errors`));
    for (const line of manual) {
      const [, file, at, reason] = /^manual: ([^:]+):(\d+):\d+ \[v5-to-v6\] (.*)$/.exec(line)!;
      // Reports give the line as it was; the TODO sits right above that line's code, naming the reason.
      const code = readFileSync(join(CORPUS, 'apps', file!), 'utf8').split('\n')[Number(at) - 1]!;
      const lines = readFileSync(join(root, 'apps', file!), 'utf8').split('\n');
      const index = lines.indexOf(code);
      expect(index, line).toBeGreaterThan(0);
      expect(lines[index - 1]!.trim()).toBe(`// TODO(ergraph-migrate): ${reason}`);
    }
  });

  it('the v5 apps compile against the real clients\' typings and the v5 schema\'s generated types', () => {
    for (const { code, out, err } of generatedV5) expect(code, out + err).toBe(0);
    expect(diagnosticsV5.map(formatDiagnostic)).toEqual([]);
  });

  it('the migrated apps compile (one program) against them and the v6 schema\'s generated types', () => {
    for (const { code, out, err } of generatedV6) expect(code, out + err).toBe(0);
    expect(diagnostics.map(formatDiagnostic)).toEqual([]);
  });

  it.each(APPS)('%s: every reader reads the same on v6 unless the migration marked it (no silent change)', (name) => {
    const { code, out, err } = after.get(name)!;
    expect(err).toBe('');
    expect(code).toBe(0);
    const old = readings(before.get(name)!.out);
    const now = readings(out);
    expect([...now.keys()]).toEqual([...old.keys()]);
    const marked = new Set((MANUAL[name] ?? []).map((m) => m.reader));
    for (const [site, value] of old) if (!marked.has(site)) expect(now.get(site), `${name}: ${site} changed without a TODO`).toEqual(value);
  });

  it('verify finds every query of every app the same on compat and on v6', () => {
    const { code, out, err } = verified;
    expect(err, out).toBe('');
    expect(code, out).toBe(0);
    expect(out).not.toMatch(/^differs/m);
    for (const name of APPS) expect(out, name).toMatch(new RegExp(`^same: ${name}/`, 'm'));
    // Every operation ran: anything not run would exit 5 and say why.
    expect(out).not.toMatch(/^not run: /m);
  });
});
