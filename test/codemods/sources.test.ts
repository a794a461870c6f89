/**
 * `ergraph-migrate v5-to-v6 src/` with no flags (issue 12.1): the v6 schema from GraphQL Config or
 * from the user's own ER graph, said on the console; bad input of every source is one line and
 * nothing written. Also upgrade's version detection (12.2) and the git options (12.7).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../codemods/cli.js';
import { SchemaLoadError } from '../../codemods/v5-to-v6/schema.js';
import { findV6Schema } from '../../codemods/v5-to-v6/sources.js';
import { linkErgraph } from '../support/built-package.js';
import { ENTITIES, readTree } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'ergraph-migrate-sources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
}

function project(files: Record<string, string>, { repo = true }: { repo?: boolean } = {}): string {
  const dir = mkdtempSync(join(root, 'p-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  if (repo) {
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'v5');
  }
  return dir;
}

async function cli(cwd: string, ...argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = { cwd, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  const code = await main(argv, io);
  return { code, out, err };
}

const SDL = 'type UserQuery { getAll: [Int!]! }\ntype Query { User: UserQuery! }\n';
const QUERIES = "import { gql } from 'graphql-tag';\nexport const Q = gql`{ userGetAll }`;\n";


describe('v5-to-v6 finds the v6 schema itself', () => {
  it('from the project GraphQL Config (graphql-config lookup), saying so', async () => {
    const dir = project({ '.graphqlrc.yml': 'schema: schema/v6.graphql\n', 'schema/v6.graphql': SDL, 'src/q.ts': QUERIES });
    const { code, out, err } = await cli(dir, 'v5-to-v6', 'src');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('v6 schema: GraphQL Config .graphqlrc.yml\n');
    expect(readFileSync(join(dir, 'src/q.ts'), 'utf8')).toContain('gql`{ User { userGetAll: getAll } }`');
  });

  it('from package.json#graphql too', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'app', graphql: { schema: 'v6.graphql' } }), 'v6.graphql': SDL, 'q.graphql': '{ userGetAll }\n' });
    const { code, out } = await cli(dir, 'v5-to-v6', '.', '--dry-run');
    expect(code).toBe(0);
    expect(out).toContain('v6 schema: GraphQL Config package.json');
    expect(out).toContain('+{ User { userGetAll: getAll } }');
  });

  it('from the ER graph declared in the given paths, loaded with its own ergraph', async () => {
    const dir = project({ 'package.json': '{"name":"app","type":"module"}', 'src/entities.ts': ENTITIES, 'src/q.ts': "import { gql } from 'graphql-tag';\nexport const Q = gql`{ taskGetAll { id } }`;\n", '.gitignore': 'node_modules\n' });
    linkErgraph(dir);
    // As users run it: the binary, whose tsx hooks load the app and the ergraph it imports once.
    // The kill timer is only the failure of a run that never ends (spawnSync blocks the worker, so
    // vitest's timeout cannot end it): far past any load, not a guess of how long a run takes.
    const run = spawnSync(process.execPath, [BIN, 'v5-to-v6', 'src'], { cwd: dir, encoding: 'utf8', timeout: 600_000 });
    const { status: code, stdout: out, stderr: err } = run;
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('v6 schema: ER graph of src/entities.ts (Base)\n');
    expect(readFileSync(join(dir, 'src/q.ts'), 'utf8')).toContain('gql`{ Task { taskGetAll: getAll { id } } }`');
  }, 60_000);

  it('from the ER graph of a CommonJS project (no "type": "module", npm\'s default), built with the ergraph copy it required', async () => {
    // Imports without extensions, as a CommonJS TypeScript project writes them.
    const dir = project({
      'package.json': '{"name":"app","type":"commonjs"}',
      // A timer holding the event loop, as an app's database pool or server would: the run still ends.
      'src/entities.ts': `${ENTITIES}setInterval(() => {}, 1000);\n`,
      'src/index.ts': "export { Base } from './entities';\n",
      'src/q.ts': "import { gql } from 'graphql-tag';\nexport const Q = gql`{ taskGetAll { id } }`;\n",
      '.gitignore': 'node_modules\n',
    });
    linkErgraph(dir);
    // The kill timer is only the failure of a run that never ends (spawnSync blocks the worker, so
    // vitest's timeout cannot end it): far past any load, not a guess of how long a run takes.
    const run = spawnSync(process.execPath, [BIN, 'v5-to-v6', 'src'], { cwd: dir, encoding: 'utf8', timeout: 600_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('v6 schema: ER graph of src/entities.ts (Base)\n');
    expect(readFileSync(join(dir, 'src/q.ts'), 'utf8')).toContain('gql`{ Task { taskGetAll: getAll { id } } }`');
  }, 60_000);

  it("from an ER graph migrated in memory whose modules import each other through tsconfig's paths", async () => {
    // The v4 diagram lives in task.ts, reached from base.ts through `@/`: the lookup must load the
    // migrated task.ts (the original throws: `configs` was renamed in v5).
    const dir = project({
      'package.json': '{"name":"app","type":"module"}',
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, baseUrl: '.', paths: { '@/*': ['./src/*'] } } }),
      'src/models/base.ts': "import { baseEntity } from 'ergraph';\nimport { diagram } from '@/models/task';\nexport const Base = baseEntity();\nexport { diagram };\n",
      'src/models/task.ts': `import { z } from 'zod';
import { model, query, ErDiagram, Entity } from 'ergraph';
export class Task extends model({ id: z.int() }) {
  @query({ returns: () => [Task] })
  static async all() {
    return [];
  }
}
export const diagram = new ErDiagram({ configs: [new Entity({ kls: Task, name: 'Task' })] });
`,
      'src/q.ts': 'export const Q = gql`{ taskAll { id } }`;\n',
      '.gitignore': 'node_modules\n',
    });
    linkErgraph(dir);
    const run = spawnSync(process.execPath, [BIN, 'upgrade', '--from', '4', '--to', '6', 'src', '--dry-run', '--load-app'], { cwd: dir, encoding: 'utf8', timeout: 600_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('v6 schema: ER graph of src/models/base.ts (Base, diagram), src/models/task.ts (diagram)\n');
    expect(run.stdout).toContain('+export const Q = gql`{ Task { taskAll: all { id } } }`;');
  }, 60_000);

  it('passes over a module that never finishes loading (a top-level await that never settles), and --app fails with that', async () => {
    // No import of ergraph (there is none in this folder): the module must hang, not fail to resolve.
    const hanging = "const baseEntity = () => ({});\nexport const Base = baseEntity();\nawait new Promise(() => {});\n";
    const dir = project({ 'src/entities.mjs': hanging }, { repo: false });
    const lines: string[] = [];
    const found = await findV6Schema({ cwd: dir, loadTimeoutMs: 300 }, new Map([[join(dir, 'src/entities.mjs'), hanging]]), false, (line) => lines.push(line));
    expect(found).toBeUndefined();
    expect(lines).toEqual(['src/entities.mjs: passed over: src/entities.mjs: the module did not finish loading within 0.3 s (a top-level await that never settles?)']);
    await expect(findV6Schema({ cwd: dir, app: 'src/entities.mjs', loadTimeoutMs: 300 }, new Map(), false)).rejects.toThrow(
      new SchemaLoadError('--app src/entities.mjs', 'the module did not finish loading within 0.3 s (a top-level await that never settles?)'),
    );
  });

  it('bad input is one line, exit 1, and nothing written', async () => {
    const cases: { files: Record<string, string>; args: string[]; line: RegExp }[] = [
      { files: { 'bad.graphql': 'type Query {\n' }, args: ['--schema', 'bad.graphql'], line: /^ergraph-migrate: .*bad\.graphql: invalid SDL \(line 2, column 1\)/ },
      { files: { 'i.json': '{"data":{"types":[]}}' }, args: ['--schema', 'i.json'], line: /^ergraph-migrate: .*i\.json: not an introspection result \(no __schema\)\n$/ },
      { files: { '.graphqlrc.json': '{"schema":"nowhere/*.graphql"}' }, args: [], line: /^ergraph-migrate: GraphQL Config \.graphqlrc\.json: its schema cannot be loaded: / },
      { files: { 'app.ts': "throw new Error('no database');\n" }, args: ['--app', 'app.ts'], line: /^ergraph-migrate: --app app\.ts: the module threw while loading: no database\n$/ },
      { files: { 'app.ts': 'export const x = 1;\n' }, args: ['--app', 'app.ts'], line: /^ergraph-migrate: --app app\.ts: exports no ER diagram, baseEntity\(\) family or GraphQLHandler\n$/ },
    ];
    for (const c of cases) {
      const dir = project({ ...c.files, 'q.graphql': '{ userGetAll }\n' });
      const before = readTree(dir);
      const { code, out, err } = await cli(dir, 'v5-to-v6', '.', ...c.args);
      expect(code, err).toBe(1);
      expect(err.split('\n').filter(Boolean)).toHaveLength(1);
      expect(err).toMatch(c.line);
      expect(out).not.toContain('changed');
      expect(readTree(dir)).toEqual(before);
    }
  }, 60_000);
});

describe('upgrade --to 6 without --from', () => {
  it('detects the version from the code and prints the steps it runs', async () => {
    const dir = project({ 'src/a.ts': "import { LoaderDepend } from 'ergraph';\nexport const l = LoaderDepend(async (k: number[]) => k);\n" });
    const { code, out } = await cli(dir, 'upgrade', '--to', '6', 'src', '--dry-run');
    expect(code).toBe(0);
    expect(out).toContain('detected version 3: LoaderDepend (src/a.ts:1) → 3');
    expect(out).toContain('steps: v3-to-v4 → v4-to-v5 → v5.4-to-v5.5 → federation-config → v5-to-v6');
  });

  it('reads the installed package version', async () => {
    const dir = project({ 'node_modules/ergraph/package.json': '{"name":"ergraph","version":"5.4.2"}', 'src/a.ts': 'export {};\n' });
    const { out } = await cli(dir, 'upgrade', '--to', '5.5', 'src', '--dry-run');
    expect(out).toContain('detected version 5.4: installed ergraph 5.4.2 → 5.4');
    expect(out).toContain('steps: v5.4-to-v5.5');
  });

  it('unknown or impossible versions are usage errors naming the known ones', async () => {
    for (const args of [['--from', '2', '--to', '6'], ['--from', '3.5', '--to', '6'], ['--from', '3', '--to', '7'], ['--from', '6', '--to', '5']]) {
      const { code, err } = await cli(root, 'upgrade', ...args, '.');
      expect(code, args.join(' ')).toBe(2);
      expect(err.split('\n').filter(Boolean), err).toHaveLength(1);
      expect(err).toMatch(/^ergraph-migrate: .* \(run ergraph-migrate --help for usage\)\n$/);
    }
    expect((await cli(root, 'upgrade', '--from', '2', '--to', '6', '.')).err).toContain('known versions are 3, 4, 5, 5.4, 5.5, 6');
  });
});

describe('git', () => {
  const V4 = (n: number) => `import { ErDiagram } from 'ergraph';\nexport const d${n} = new ErDiagram({ configs: [] });\n`;

  it('a writing run outside a git repository needs --force', async () => {
    const dir = project({ 'a.ts': V4(1) }, { repo: false });
    const refused = await cli(dir, 'v4-to-v5', '.');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('refusing to write outside a git repository');
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toBe(V4(1));
    expect((await cli(dir, 'v4-to-v5', '.', '--force')).code).toBe(0);
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toContain('entities: []');
  });

  it('--since migrates only files changed since the ref; .gitignore\'d files are skipped', async () => {
    const dir = project({ 'a.ts': V4(1), 'b.ts': V4(2), '.gitignore': 'gen/\n', 'gen/c.ts': V4(3) });
    writeFileSync(join(dir, 'b.ts'), `${V4(2)}// touched\n`);
    git(dir, 'commit', '-q', '-am', 'touch b');
    const { code, out } = await cli(dir, 'v4-to-v5', '.', '--since', 'HEAD~1');
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toBe(V4(1));
    expect(readFileSync(join(dir, 'b.ts'), 'utf8')).toContain('entities: []');
    expect(readFileSync(join(dir, 'gen/c.ts'), 'utf8')).toBe(V4(3));
    expect(out).toMatch(/1 files scanned, 1 changed, 0 manual, 0 errors, 1 git-ignored/);
    const bad = await cli(dir, 'v4-to-v5', '.', '--since', 'no-such-ref');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--since no-such-ref: not a commit');
  });

  it('upgrade --commit-per-step makes one commit per step that changed something, in a clean tree only', async () => {
    const v3 = "import { ErDiagram, Relationship, LoaderDepend } from 'ergraph';\nexport const l = LoaderDepend(async (k: number[]) => k);\nexport const d = new ErDiagram({ configs: [] });\n";
    const dir = project({ 'a.ts': v3 });
    writeFileSync(join(dir, 'a.ts'), `${v3}// mine\n`);
    // Its commit would take in the user's own line: not even --force passes.
    const refused = await cli(dir, 'upgrade', '--from', '3', '--to', '5', '.', '--commit-per-step', '--force');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('uncommitted changes in a.ts');
    writeFileSync(join(dir, 'a.ts'), v3);
    // A file it does not write may be dirty: it stays out of the commits.
    writeFileSync(join(dir, 'dirty.ts'), 'export {};\n');
    const { code, out } = await cli(dir, 'upgrade', '--from', '3', '--to', '5', '.', '--commit-per-step');
    expect(code).toBe(0);
    expect(out).toMatch(/committed v3-to-v4: \w+ \(1 files\)/);
    expect(out).toMatch(/committed v4-to-v5: \w+ \(1 files\)/);
    expect(git(dir, 'log', '--format=%s').trim().split('\n')).toEqual(['ergraph-migrate: v4-to-v5 (4 → 5)', 'ergraph-migrate: v3-to-v4 (3 → 4)', 'v5']);
    expect(git(dir, 'status', '--porcelain')).toBe('?? dirty.ts\n');
  });
});
