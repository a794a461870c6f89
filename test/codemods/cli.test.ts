/** `ergraph-migrate` end to end in temporary directories, through `main(argv)` and the bin. */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch } from 'diff';
import { buildSchema, graphql } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../codemods/cli.js';
import { FIXTURES, readTree } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];

/** A fresh git repository holding `files` (committed), where a writing run is allowed. */
function tempRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-migrate-'));
  dirs.push(dir);
  git(dir, 'init', '-q');
  return dir;
}

function commitAll(dir: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'input');
}

function tempTree(fixture: string): string {
  const dir = tempRepo();
  cpSync(join(FIXTURES, fixture, 'input'), dir, { recursive: true });
  commitAll(dir);
  return dir;
}

async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { cwd, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  const code = await main(argv, io);
  return { code, out, err };
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
}

/** One file carrying a v3, a v4 and a v5.4 form, so `upgrade` must chain three steps. */
const ALL_VERSIONS = [
  "import { ErDiagram, Entity, Relationship } from 'ergraph';",
  "import { User, Task, usersById } from './entities';",
  '',
  'export const diagram = new ErDiagram({',
  '  configs: [',
  "    new Entity({ kls: Task, relationships: [new Relationship({ field: 'ownerId', targetKls: User, loader: usersById })] }),",
  '  ],',
  '});',
  'export const AutoLoad = diagram.createAutoLoad();',
  '',
].join('\n');

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ergraph-migrate', () => {
  it('lists the transforms', async () => {
    const { code, out } = await cli(process.cwd(), 'list');
    expect(code).toBe(0);
    for (const name of ['v3-to-v4', 'v4-to-v5', 'v5.4-to-v5.5']) expect(out).toContain(name);
  });

  it('--dry-run prints unified diffs and a summary and writes nothing', async () => {
    const dir = tempTree('v3-to-v4/load-by');
    const before = readTree(dir);
    const { code, out } = await cli(dir, 'v3-to-v4', '.', '--dry-run');
    expect(code).toBe(0);
    expect(out).toContain('--- a/views.ts\n+++ b/views.ts');
    expect(out).toContain("-  owner: Annotated(ref(() => UserView).nullable(), LoadBy('ownerId')),");
    expect(out).toContain('+  owner: Annotated(ref(() => UserView).nullable(), AutoLoad()),');
    expect(out).toMatch(/v3-to-v4: 3 files scanned, 2 would change, 0 manual, 0 errors/);
    expect(readTree(dir)).toEqual(before);
  });

  it('writes the migrated files and JSON and Markdown reports', async () => {
    const dir = tempTree('v3-to-v4/manual');
    const { code } = await cli(dir, 'v3-to-v4', '.', '--report', 'out/report.json', '--force');
    expect(code).toBe(0);
    // The step's own output (the fixture), plus the run's last pass: old-API text no step migrated
    // is marked where it stands (codemods/runner/leftovers.ts), even when a step reported its use.
    const leftovers: Record<string, string> = {
      'const common = {': '// TODO(ergraph-migrate): Relationship targetKls left as it is: Relationship targetKls is target since v4',
      'const opts = {': '// TODO(ergraph-migrate): Resolver loaderFilters left as it is: Resolver loaderFilters/globalLoaderFilter are loaderParams/globalLoaderParam since v4',
    };
    const expected = readFileSync(join(FIXTURES, 'v3-to-v4/manual/expected/entities.ts'), 'utf8')
      .split('\n')
      .flatMap((line) => Object.entries(leftovers).filter(([start]) => line.startsWith(start)).map(([, todo]) => todo).concat(line))
      .join('\n');
    expect(readFileSync(join(dir, 'entities.ts'), 'utf8')).toBe(expected);
    const json = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'));
    expect(json.summary).toMatchObject({ files: 2, changed: 1, manual: 8, errors: 0 });
    expect(json.files[0].manual[0]).toEqual({
      line: 7,
      column: 2,
      reason: 'modelConfig(...) with options: serialization takes none, move them',
      transform: 'v3-to-v4',
    });
    const fresh = tempTree('v3-to-v4/manual');
    const md = await cli(fresh, 'v3-to-v4', '.', '--dry-run', '--report', 'report.md');
    expect(md.code).toBe(0);
    const text = readFileSync(join(fresh, 'report.md'), 'utf8');
    expect(text).toContain('# ergraph-migrate report');
    expect(text).toContain('| `entities.ts:16:5` | v3-to-v4 | Relationship: spread options cannot be migrated safely |');
  });

  it('upgrade chains the steps in version order', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'diagram.ts'), ALL_VERSIONS);
    commitAll(dir);
    const { code, out } = await cli(dir, 'upgrade', '--from', '3', '--to', '5.5', '.');
    expect(code).toBe(0);
    expect(out).toContain('v3-to-v4 → v4-to-v5 → v5.4-to-v5.5: 1 files scanned, 1 changed');
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toBe(
      [
        "import { ErDiagram, Entity, Relationship, configGlobalResolver } from 'ergraph';",
        "import { User, Task, usersById } from './entities';",
        '',
        'export const diagram = new ErDiagram({',
        '  entities: [',
        "    new Entity({ kls: Task, relationships: [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById })] }),",
        '  ],',
        '});',
        "export { AutoLoad } from 'ergraph';",
        'configGlobalResolver(diagram);',
        '',
      ].join('\n'),
    );
    commitAll(dir);
    const again = await cli(dir, 'upgrade', '--from', '3', '--to', '5.5', '.');
    expect(again.out).toContain('1 files scanned, 0 changed');
  });

  it('upgrade --to 6 runs federation-config then v5-to-v6 with the --schema', async () => {
    const dir = tempTree('federation-config/cross-file');
    writeFileSync(join(dir, 'schema.graphql'), 'type UserQuery { getAll: [Int!]! }\ntype Query { User: UserQuery! }\n');
    writeFileSync(join(dir, 'users.graphql'), '{ userGetAll }\n');
    const { code, out } = await cli(dir, 'upgrade', '--from', '5.5', '--to', '6', '.', '--dry-run', '--schema', 'schema.graphql');
    expect(code).toBe(0);
    expect(out).toContain('federation-config → v5-to-v6: 6 files scanned, 4 would change');
    expect(out).toContain('+  static __federation_keys__ = [\'productId\'];');
    expect(out).toContain('--- a/users.graphql');
  });

  it('v5-to-v6 with no schema anywhere migrates what needs none, lists each document left with its next step, and exits 3', async () => {
    const dir = tempTree('federation-config/cross-file');
    writeFileSync(join(dir, 'users.graphql'), '{ userGetAll }\n');
    writeFileSync(join(dir, 'helpers.ts'), "import { toCamelCase } from 'ergraph';\nexport const n = 1;\n");
    commitAll(dir);
    const before = readTree(dir);
    const { code, out } = await cli(dir, 'upgrade', '--from', '5.5', '--to', '6', '.', '--dry-run');
    expect(code).toBe(3);
    // The fixture declares an ER graph, which a dry run does not load without --load-app.
    expect(out).toContain("v6 schema: not loaded: --dry-run runs none of your project's code (the ER graph in entities.ts)");
    expect(out).toMatch(/pending: users\.graphql:1:1 \[v5-to-v6\] no v6 schema was found, so this v5 document was left as is: rerun v5-to-v6 with --schema/);
    // what needs no schema ran: federation-config, and the unused naming helper is gone
    expect(out).toContain("+  static __federation_keys__ = ['productId'];");
    expect(out).toContain("-import { toCamelCase } from 'ergraph';");
    expect(out).toMatch(/1 pending \(no v6 schema\)/);
    expect(readTree(dir)).toEqual(before);
  });

  it('issue 8: v5-to-v6 --dry-run on the v5 fixture app prints the diff report and writes nothing', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ergraph-migrate-'));
    dirs.push(tmp);
    const app = join(tmp, 'app');
    cpSync(join(FIXTURES, 'v5-to-v6/app/input'), app, { recursive: true });
    const input = readTree(app);
    const expected = readTree(join(FIXTURES, 'v5-to-v6/app/expected'));
    // Run from the repository root, as the issue does, so --schema is the fixture's relative path.
    const run = await cli(
      ROOT,
      'v5-to-v6', app, '--schema', 'fixtures/v5-to-v6/app/schema.graphql', '--dry-run', '--report', join(tmp, 'r.md'),
    );
    const { code, err } = run;
    let out = run.out;
    expect(err).toBe('');
    expect(code).toBe(0);
    // Where the schema came from is said first.
    expect(out.startsWith('v6 schema: --schema fixtures/v5-to-v6/app/schema.graphql\n')).toBe(true);
    out = out.slice(out.indexOf('\n') + 1);

    // One unified diff per changed file, input → the fixture's expected output, in path order.
    const shown = (file: string) => relative(ROOT, join(app, file)).split('\\').join('/');
    const changed = [...input.keys()].filter((f) => input.get(f) !== expected.get(f));
    // two of them Vue and Svelte components
    expect(changed).toHaveLength(7);
    const diffs = changed
      .map((f) => createTwoFilesPatch(`a/${shown(f)}`, `b/${shown(f)}`, input.get(f)!, expected.get(f)!, undefined, undefined, { context: 3 }))
      .join('');
    expect(out.startsWith(diffs)).toBe(true);
    expect(out).toContain(`--- a/${shown('src/queries.ts')}\n+++ b/${shown('src/queries.ts')}\n`);
    expect(out).toContain('-    openTasks: taskGetAll(status: OPEN) { id }\n+    User { me: byId(id: 1) { name } }\n');
    expect(out).toContain("+  const query = await client.callTool({ name: 'get_query_schema', arguments: { entity: 'User', method: 'getAll', app_name: 'demo' } });");

    // The manual items and the summary follow the diffs.
    const rest = out.slice(diffs.length).split('\n');
    // 4 the documents need, 7 readers of moved response paths the pass cannot see (read-sites.test.ts);
    // the exported documents nothing in the run imports are notes of the report, not manual items (read-sites-precision.test.ts)
    expect(rest.filter((l) => l.startsWith('manual: '))).toHaveLength(11);
    expect(rest).toContain(`manual: ${shown('queries/users.graphql')}:2:1 [v5-to-v6] the code reading this operation's result must move its reads: data.userGetAll → data.User.userGetAll, data.first → data.User.first`);
    expect(rest).toContain(`manual: ${shown('src/TaskCard.svelte')}:9:19 [v5-to-v6] \`taskArchive\` is neither a v5 flat query field nor a v6 group of the given schema`);
    expect(rest).toContain(`manual: ${shown('src/queries.ts')}:47:1 [v5-to-v6] toCamelCase was removed in v6: use groupTypeName(entity, suffix) or the entity and method names`);
    // a document none of whose root fields is in the schema is another API's: left alone, counted
    expect(rest).toContain(`not for this API: ${shown('src/queries.ts')}:43:24 (left alone)`);
    expect(out).toMatch(/\nv5-to-v6: 8 files scanned, 7 would change, 11 manual, 0 errors, 1 not for this API \(\d+\.\d\ds\)\n$/);

    const report = readFileSync(join(tmp, 'r.md'), 'utf8');
    expect(report).toContain('Transforms: `v5-to-v6` (dry run: nothing written)');
    expect(report).toContain('| 8 | 7 | 11 | 0 |');
    expect(report).toContain('exported document `LIST_USERS`: nothing in this run imports it; code outside the run that does must move its reads: data.userGetAll → data.User.userGetAll');
    expect(report).toContain(`- \`${shown('queries/users.graphql')}\` (v5-to-v6)`);
    // nothing written: the copy is byte for byte the fixture input, and only the report was added
    expect(readTree(app)).toEqual(input);
    expect(readTree(app)).toEqual(readTree(join(FIXTURES, 'v5-to-v6/app/input')));
    expect(readTree(tmp).size).toBe(input.size + 1);
  });

  it('v5-to-v6 --no-keep-response-keys drops the generated aliases, also in worker threads', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'schema.graphql'), 'type UserQuery { getAll: [Int!]! }\ntype Query { User: UserQuery! }\n');
    writeFileSync(join(dir, 'users.graphql'), '{ userGetAll }\n');
    writeFileSync(join(dir, 'aliased.graphql'), 'query A { mine: userGetAll }\n');

    const kept = await cli(dir, 'v5-to-v6', '.', '--dry-run', '--schema', 'schema.graphql');
    expect(kept.out).toContain('+{ User { userGetAll: getAll } }');

    for (const workers of ['0', '2']) {
      const dropped = await cli(dir, 'v5-to-v6', '.', '--dry-run', '--schema', 'schema.graphql', '--no-keep-response-keys', '--workers', workers);
      expect(dropped.code).toBe(0);
      expect(dropped.out).toContain('+{ User { getAll } }');
      // an alias the user wrote is theirs, not generated: it stays
      expect(dropped.out).toContain('+query A { User { mine: getAll } }');
    }
  });

  it('--schema accepts an introspection URL as written', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'users.graphql'), '{ userGetAll }\n');
    const schema = buildSchema('type UserQuery { getAll: [Int!]! }\ntype Query { User: UserQuery! }');
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', async () => {
        const result = await graphql({ schema, source: JSON.parse(body).query });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(result));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { code, out, err } = await cli(dir, 'v5-to-v6', '.', '--dry-run', '--schema', `http://127.0.0.1:${port}/graphql`);
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).toContain('+{ User { userGetAll: getAll } }');
    } finally {
      server.close();
    }
  });

  it('--schema errors name the source (the v5-to-v6 loader)', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'bad.graphql'), 'type Query {\n');
    const { code, err } = await cli(dir, 'v5-to-v6', '.', '--dry-run', '--schema', 'bad.graphql');
    expect(code).toBe(1);
    expect(err).toContain(`ergraph-migrate: ${join(dir, 'bad.graphql')}: invalid SDL (line 2, column 1)`);
  });

  it('worker threads give the same result as one thread', async () => {
    const one = tempTree('v3-to-v4/multiple-relationship');
    const many = tempTree('v3-to-v4/multiple-relationship');
    expect((await cli(one, 'v3-to-v4', '.', '--workers', '0')).code).toBe(0);
    expect((await cli(many, 'v3-to-v4', '.', '--workers', '2')).code).toBe(0);
    expect(readTree(many)).toEqual(readTree(one));
    expect(readTree(one)).toEqual(readTree(join(FIXTURES, 'v3-to-v4/multiple-relationship/expected')));
  });

  it('refuses to write over uncommitted changes unless --force', async () => {
    const dir = tempTree('v4-to-v5/configs');
    writeFileSync(join(dir, 'diagram.ts'), `${readFileSync(join(dir, 'diagram.ts'), 'utf8')}// mine\n`);
    const before = readTree(dir);
    const refused = await cli(dir, 'v4-to-v5', '.');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('refusing to write over uncommitted changes in diagram.ts');
    expect(readTree(dir)).toEqual(before);
    const forced = await cli(dir, 'v4-to-v5', '.', '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toContain('  entities: [');
  });

  it('--ignore skips matching paths', async () => {
    const dir = tempTree('v3-to-v4/load-by');
    const before = readFileSync(join(dir, 'views.ts'), 'utf8');
    const { code, out } = await cli(dir, 'v3-to-v4', '.', '--ignore', '**/views.ts', '--force');
    expect(code).toBe(0);
    expect(out).toContain('2 files scanned, 1 changed');
    expect(readFileSync(join(dir, 'views.ts'), 'utf8')).toBe(before);
  });

  it('exit 1 on a file that does not parse, which is left as is and reported', async () => {
    const dir = tempTree('v4-to-v5/configs');
    const broken = "import { ErDiagram } from 'ergraph';\nnew ErDiagram({ configs: [ });\n";
    writeFileSync(join(dir, 'broken.ts'), broken);
    commitAll(dir);
    const { code, err } = await cli(dir, 'v4-to-v5', '.', '--report', 'r.json', '--force');
    expect(code).toBe(1);
    expect(err).toMatch(/error: .*broken\.ts:2:\d+: .* \(left unchanged\)/);
    expect(readFileSync(join(dir, 'broken.ts'), 'utf8')).toBe(broken);
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toContain('entities: [');
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).summary.errors).toBe(1);
  });

  it('exit 3 with --fail-on-manual when manual work is left, 0 without', async () => {
    const dir = tempTree('v4-to-v5/manual');
    const strict = await cli(dir, 'v4-to-v5', '.', '--dry-run', '--fail-on-manual');
    expect(strict.code).toBe(3);
    expect(strict.out).toContain('manual: diagram.ts:5:23 [v4-to-v5]');
    expect((await cli(dir, 'v4-to-v5', '.', '--dry-run')).code).toBe(0);
  });

  it('exit 2 on usage errors', async () => {
    expect((await cli(process.cwd(), 'no-such-transform', '.')).code).toBe(2);
    expect((await cli(process.cwd(), 'upgrade', '--from', '5.5', '--to', '3', '.')).code).toBe(2);
    expect((await cli(process.cwd(), 'upgrade', '--from', 'x', '--to', '4', '.')).code).toBe(2);
    expect((await cli(process.cwd(), 'v3-to-v4')).code).toBe(2);
    expect((await cli(process.cwd(), 'v3-to-v4', '.', '--report', 'r.txt', '--dry-run')).code).toBe(2);
  });

  it('draws a progress bar only when stdout is a terminal', async () => {
    const dir = tempTree('v3-to-v4/load-by');
    let tty = '';
    const io: CliIO = { cwd: dir, stdout: { isTTY: true, write: (s: string) => (tty += s) }, stderr: { write: () => true } };
    expect(await main(['v3-to-v4', '.', '--dry-run'], io)).toBe(0);
    expect(tty).toContain(`\rv3-to-v4           [${'#'.repeat(30)}] 3/3\n`);
    const plain = await cli(dir, 'v3-to-v4', '.', '--dry-run');
    expect(plain.out).not.toContain('\r');
  });

  it('the bin launcher runs the CLI from the sources', () => {
    const dir = tempTree('v4-to-v5/configs');
    const run = spawnSync(process.execPath, [BIN, 'v4-to-v5', '.', '--dry-run'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('+  entities: [');
    const usage = spawnSync(process.execPath, [BIN, 'upgrade', '--from', '3', '.'], { cwd: dir, encoding: 'utf8' });
    expect(usage.status).toBe(2);
  });

  it('a reader that stops early (| head) drops the rest of the output, not the work: the report is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-migrate-pipe-'));
    dirs.push(dir);
    // ~600 KB of diff: far more than a pipe holds once its reader is gone.
    writeFileSync(join(dir, 'many.ts'), Array.from({ length: 6000 }, (_, i) => `export const q${i} = gql\`{ userGetAll(limit: ${i}) { id } }\`;\n`).join(''));
    const schema = join(dir, 'schema.graphql');
    writeFileSync(schema, 'type Query { User: UserQuery! }\ntype UserQuery { getAll(limit: Int): [Int!]! }\n');
    const child = spawn(process.execPath, [BIN, 'v5-to-v6', 'many.ts', '--dry-run', '--schema', schema, '--report', 'r.json'], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).summary).toMatchObject({ files: 1, changed: 1, errors: 0 });
  }, 60_000);
});
