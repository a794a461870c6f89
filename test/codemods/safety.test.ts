/**
 * Issue 27.6: `ergraph-migrate` writes only what it means to. Each case runs the bin as a user
 * does, in a temporary git repository.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { linkErgraph } from '../support/built-package.js';
import { ENTITIES, FIXTURES } from './helpers.js';


const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const dirs: string[] = [];

function temp(prefix = 'ergraph-safety-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
}

/** A git repository holding `files` (committed) and the fixture's input when one is named. */
function repo(files: Record<string, string | Buffer>, fixture?: string): string {
  const dir = temp();
  git(dir, 'init', '-q');
  if (fixture) cpSync(join(FIXTURES, fixture, 'input'), dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'input');
  return dir;
}

function migrate(cwd: string, ...argv: string[]): { code: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [BIN, ...argv], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** A fixture's diagram.ts with a second name outside the repository, and a run over the repository. */
function hardLinked(fixture: string, ...argv: string[]) {
  const outside = temp('ergraph-safety-outside-');
  const dir = repo({}, fixture);
  const original = readFileSync(join(dir, 'diagram.ts'), 'utf8');
  linkSync(join(dir, 'diagram.ts'), join(outside, 'diagram.ts'));
  const held = migrate(dir, ...argv.map((a) => a.replace('<outside>', outside)));
  return { outside, dir, original, held };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ergraph-migrate writes only what it means to (issue 27.6)', () => {
  it('leaves a file that is not UTF-8 byte-identical and reports it, without failing the run', () => {
    const latin1 = Buffer.concat([
      Buffer.from(readFileSync(join(FIXTURES, 'v4-to-v5/configs/input/diagram.ts'))),
      Buffer.from([0x2f, 0x2f, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]), // "// café" in Latin-1
    ]);
    const dir = repo({ 'latin1.ts': latin1 }, 'v4-to-v5/configs');
    const { code, out, err } = migrate(dir, 'v4-to-v5', '.', '--report', 'r.json');
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'latin1.ts')).equals(latin1)).toBe(true);
    expect(err).toContain('skipped: latin1.ts: not valid UTF-8');
    // The UTF-8 copy of the same code next to it is migrated.
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toContain('entities: [');
    expect(out).toMatch(/1 skipped/);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report.skipped).toEqual([{ file: 'latin1.ts', reason: expect.stringMatching(/^not valid UTF-8/) }]);
    expect(report.summary).toMatchObject({ errors: 0, skipped: 1 });
  });

  it('does not rewrite a file with another hard link in place; --follow-hardlinks writes a new file and says so', () => {
    const { outside, dir, original, held } = hardLinked('v4-to-v5/configs', 'v4-to-v5', '.', '--report', '<outside>/r.json');
    expect(held.code).toBe(0);
    expect(held.err).toMatch(/skipped: diagram\.ts: has 2 hard links: not rewritten in place/);
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toBe(original);
    expect(readFileSync(join(outside, 'diagram.ts'), 'utf8')).toBe(original);
    const report = JSON.parse(readFileSync(join(outside, 'r.json'), 'utf8'));
    expect(report.summary).toMatchObject({ changed: 0, skipped: 1, errors: 0 });

    const copied = migrate(dir, 'v4-to-v5', '.', '--follow-hardlinks', '--report', join(outside, 'r.md'));
    expect(copied.code).toBe(0);
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toContain('entities: [');
    // The other name keeps the old text: the link is broken, not written through.
    expect(readFileSync(join(outside, 'diagram.ts'), 'utf8')).toBe(original);
    expect(statSync(join(dir, 'diagram.ts')).nlink).toBe(1);
    expect(readFileSync(join(outside, 'r.md'), 'utf8')).toContain('diagram.ts: had 2 hard links: written as a new file (--follow-hardlinks)');
  });

  it('lists no manual work of a file held back for its hard links (its TODOs are in no file); --follow-hardlinks migrates it and lists them', () => {
    const { outside, dir, original, held } = hardLinked('v4-to-v5/manual', 'v4-to-v5', '.', '--fail-on-manual', '--report', '<outside>/r.json');
    expect(held.err).toMatch(/skipped: diagram\.ts: has 2 hard links: not rewritten in place, .*; left unmigrated, so its manual work is listed once it is migrated; --follow-hardlinks/);
    expect(held.out).not.toContain('manual: diagram.ts');
    expect(held.code).toBe(0);
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toBe(original);
    const report = JSON.parse(readFileSync(join(outside, 'r.json'), 'utf8'));
    expect(report.summary).toMatchObject({ changed: 0, manual: 0, skipped: 1 });
    expect(report.files.find((f: { file: string }) => f.file === 'diagram.ts')).toMatchObject({ changed: false, manual: [], transforms: [] });

    const copied = migrate(dir, 'v4-to-v5', '.', '--fail-on-manual', '--follow-hardlinks');
    expect(copied.out).toMatch(/manual: diagram\.ts:5:23 \[v4-to-v5\] ErDiagram: spread options/);
    expect(copied.code).toBe(3);
  });

  it('escapes control characters of a file name in every printed line and the Markdown report, so a name cannot forge lines', () => {
    const name = 'evil\n| forged | row |\n## Changed files\r\t\u001b[2Jx.ts';
    const dir = repo({ [name]: readFileSync(join(FIXTURES, 'v4-to-v5/manual/input/diagram.ts')) });
    const escaped = 'evil\\n| forged | row |\\n## Changed files\\r\\t\\e[2Jx.ts';
    const dry = migrate(dir, 'v4-to-v5', '.', '--dry-run');
    expect(dry.out.split('\n').filter((l) => l.startsWith('| forged') || l.startsWith('## '))).toEqual([]);
    // The diff's headers quote such a name as git does, so `git apply` takes the patch.
    expect(dry.out).toContain('--- "a/evil\\n| forged | row |\\n## Changed files\\r\\t\\033[2Jx.ts"\n');
    const { code, out, err } = migrate(dir, 'v4-to-v5', '.', '--report', 'r.md');
    expect(err).toBe('');
    expect(code).toBe(0);
    const printed = out.split('\n');
    expect(printed.filter((l) => l.startsWith('manual: '))).toHaveLength(3);
    expect(printed).toContain(`manual: ${escaped}:5:23 [v4-to-v5] ErDiagram: spread options cannot be migrated safely (configs → entities)`);
    expect(out).not.toMatch(/[\u001b\r\t]/);
    const md = readFileSync(join(dir, 'r.md'), 'utf8');
    const lines = md.split('\n');
    // Each table row and list item stays one line: the name's own newlines forge no row or heading.
    expect(lines.filter((l) => l.startsWith('| forged'))).toEqual([]);
    expect(lines.filter((l) => l === '## Changed files')).toHaveLength(1);
    expect(lines).toContain(`| \`${escaped.replace(/\|/g, '\\|')}:5:23\` | v4-to-v5 | ErDiagram: spread options cannot be migrated safely (configs → entities) |`);
    expect(lines).toContain(`- \`${escaped}\` (v4-to-v5)`);
    expect(md).not.toMatch(/[\u001b\r\t]/);
    // The file itself was migrated under its real name.
    expect(readFileSync(join(dir, name), 'utf8')).toContain('// TODO(ergraph-migrate): ErDiagram: spread options');
  });

  it('a dry run reports a file with another hard link as the run would hold it back (the links the listing saw)', () => {
    const { outside, dir, original, held } = hardLinked('v4-to-v5/configs', 'v4-to-v5', '.', '--dry-run', '--report', '<outside>/r.json');
    expect(held.code).toBe(0);
    expect(held.err).toMatch(/skipped: diagram\.ts: has 2 hard links: not rewritten in place/);
    expect(JSON.parse(readFileSync(join(outside, 'r.json'), 'utf8')).summary).toMatchObject({ changed: 0, skipped: 1, errors: 0 });
    const copied = migrate(dir, 'v4-to-v5', '.', '--dry-run', '--follow-hardlinks', '--report', join(outside, 'r.md'));
    expect(copied.code).toBe(0);
    expect(readFileSync(join(outside, 'r.md'), 'utf8')).toContain('diagram.ts: had 2 hard links: would be written as a new file (--follow-hardlinks)');
    expect(readFileSync(join(dir, 'diagram.ts'), 'utf8')).toBe(original);
  });

  it('reports every path it skips: a linked directory, a link loop, a dangling link, a FIFO, a link to a device', () => {
    const outside = temp('ergraph-safety-outside-');
    writeFileSync(join(outside, 'far.ts'), "import { ErDiagram } from 'ergraph';\nexport const d = new ErDiagram({ configs: [] });\n");
    const dir = repo({}, 'v4-to-v5/configs');
    mkdirSync(join(dir, 'odd'));
    symlinkSync(outside, join(dir, 'odd', 'linked-dir'));
    symlinkSync('loop-b', join(dir, 'odd', 'loop-a'));
    symlinkSync('loop-a', join(dir, 'odd', 'loop-b'));
    symlinkSync('nowhere', join(dir, 'odd', 'dangling'));
    writeFileSync(join(dir, 'odd', 'data.json'), '{}');
    symlinkSync('data.json', join(dir, 'odd', 'data-link.json'));
    execFileSync('mkfifo', [join(dir, 'odd', 'pipe.ts')]);
    symlinkSync('/dev/zero', join(dir, 'odd', 'zero.ts'));
    const { code, err } = migrate(dir, 'v4-to-v5', '.', '--dry-run', '--report', join(outside, 'r.json'));
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(outside, 'r.json'), 'utf8'));
    const reasons = Object.fromEntries(report.skipped.map((s: { file: string; reason: string }) => [s.file, s.reason]));
    expect(reasons).toEqual({
      'odd/dangling': expect.stringMatching(/^dangling symbolic link \(→ nowhere\)/),
      'odd/linked-dir': expect.stringMatching(/^symbolic link to a directory \(→ .*\): not followed/),
      'odd/loop-a': expect.stringMatching(/^symbolic link loop/),
      'odd/loop-b': expect.stringMatching(/^symbolic link loop/),
      'odd/pipe.ts': 'named pipe (FIFO): not a regular file, not read',
      'odd/zero.ts': 'symbolic link to a character device (→ /dev/zero): not a regular file, not followed',
    });
    for (const file of Object.keys(reasons)) expect(err).toContain(`skipped: ${file}: `);
    expect(err).not.toContain('far.ts');
  });

  it('an empty, comment-only, schema-only or third-party .graphql file is never an error', () => {
    const dir = repo({
      'empty.graphql': '',
      'comments.graphql': '# generated: nothing here yet\n\n',
      'types.graphql': 'type Viewer { login: String }\nextend type Query { viewer: Viewer }\n',
      'github.graphql': 'query Me { viewer { login } }\n',
      'v6.graphql': 'type Query { User: UserQuery! }\ntype UserQuery { getAll(limit: Int): [Int!]! }\n',
    });
    const { code, out, err } = migrate(dir, 'v5-to-v6', '.', '--schema', 'v6.graphql', '--ignore', 'v6.graphql', '--report', 'r.json');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('not for this API: github.graphql:1:1 (left alone)');
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report.summary).toMatchObject({ files: 4, changed: 0, errors: 0, notForThisApi: 1 });
  });

  it("--dry-run runs none of the project's code to find the schema, and says how to give it", () => {
    const outside = temp('ergraph-safety-outside-');
    const pwned = join(outside, 'pwned');
    const dir = repo({
      'graphql.config.js': `require('node:fs').writeFileSync(${JSON.stringify(pwned)}, 'config ran');\nmodule.exports = { schema: 'v6.graphql' };\n`,
      'v6.graphql': 'type Query { User: UserQuery! }\ntype UserQuery { getAll: [Int!]! }\n',
      'app.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(pwned)}, 'app ran');\nexport const Base = baseEntity();\n`,
      'q.graphql': '{ userGetAll }\n',
    });
    const { code, out } = migrate(dir, 'v5-to-v6', '.', '--dry-run', '--ignore', 'v6.graphql', '--report', join(outside, 'r.md'));
    expect(existsSync(pwned)).toBe(false);
    expect(code).toBe(3);
    expect(out).toContain(
      "v6 schema: not loaded: --dry-run runs none of your project's code (GraphQL Config graphql.config.js, the ER graph in app.mjs); pass --schema <sdl|introspection.json|url>, or --load-app",
    );
    expect(out).toMatch(/pending: q\.graphql:1:1 /);
    expect(readFileSync(join(outside, 'r.md'), 'utf8')).toContain('v6 schema: not loaded: --dry-run runs none');
  });

  it('loads no module whose ER graph is only in a comment or a string, even on a writing run', () => {
    const outside = temp('ergraph-safety-outside-');
    const pwned = join(outside, 'pwned');
    const dir = repo({
      'notes.mjs': `// Our models used to call baseEntity() here; new ErDiagram(...) too.\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(pwned)}, 'ran');\nexport const doc = 'new GraphQLHandler(diagram)';\n`,
      'q.graphql': '{ userGetAll }\n',
    });
    const { code, out } = migrate(dir, 'v5-to-v6', '.');
    expect(existsSync(pwned)).toBe(false);
    expect(code).toBe(3);
    expect(out).toContain('v6 schema: none found');
  });

  it('leaves a document the v6 schema would refuse after the rewrite as it was, with a TODO and manual work', () => {
    const v6 = 'enum Status { OPEN DONE }\ntype Task { id: Int! }\ntype Query { Task: TaskQuery! }\ntype TaskQuery { getAll(limit: Int): [Task!]! }\n';
    const refused = 'query Open { taskGetAll(status: OPEN) { id } }\n';
    const dir = repo({
      'v6.graphql': v6,
      'open.graphql': refused,
      'fine.graphql': 'query Some { taskGetAll(limit: 2) { id } }\n',
      'open.ts': "import { gql } from 'graphql-tag';\nexport const Q = gql`{ taskGetAll(status: OPEN) { id } }`;\n",
    });
    const { code, out } = migrate(dir, 'v5-to-v6', '.', '--schema', 'v6.graphql', '--ignore', 'v6.graphql', '--report', 'r.json');
    expect(code).toBe(0);
    const reason = 'the rewritten document would not validate against the v6 schema (Unknown argument "status" on field "TaskQuery.getAll"): left as it was; migrate it by hand';
    expect(readFileSync(join(dir, 'open.graphql'), 'utf8')).toBe(`# TODO(ergraph-migrate): ${reason}\n${refused}`);
    expect(readFileSync(join(dir, 'open.ts'), 'utf8')).toContain(`// TODO(ergraph-migrate): ${reason}\nexport const Q = gql\`{ taskGetAll(status: OPEN) { id } }\`;`);
    expect(readFileSync(join(dir, 'fine.graphql'), 'utf8')).toContain('Task { taskGetAll: getAll(limit: 2) { id } }');
    expect(out).toContain(`manual: open.graphql:1:1 [v5-to-v6] ${reason}`);
    expect(out).toContain(`manual: open.ts:2:18 [v5-to-v6] ${reason}`);
    // A rerun on its own output changes nothing.
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'migrated');
    const again = migrate(dir, 'v5-to-v6', '.', '--schema', 'v6.graphql', '--ignore', 'v6.graphql', '--ignore', 'r.json');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/0 changed/);
  });

  it('runs the code that finds the schema in a child process that may not write files or start processes', () => {
    const outside = temp('ergraph-safety-outside-');
    const attempt = (what: string) =>
      `for (const f of [() => require('node:fs').writeFileSync(${JSON.stringify(join(outside, 'pwned'))}, '${what}'), () => require('node:child_process').execSync('touch ${join(outside, 'spawned')}')]) try { f(); } catch {}\n`;
    const dir = repo({
      'package.json': '{"name":"app"}',
      'graphql.config.js': `${attempt('config')}module.exports = { schema: 'v6.graphql' };\n`,
      'v6.graphql': 'type Query { User: UserQuery! }\ntype UserQuery { getAll: [Int!]! }\n',
      'q.graphql': '{ userGetAll }\n',
    });
    const run = migrate(dir, 'v5-to-v6', '.', '--ignore', 'v6.graphql');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('v6 schema: GraphQL Config graphql.config.js');
    expect(readFileSync(join(dir, 'q.graphql'), 'utf8')).toContain('User { userGetAll: getAll }');
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
    expect(existsSync(join(outside, 'spawned'))).toBe(false);

    // The ER graph's own module, loaded on a dry run only with --load-app.
    const app = repo({
      'package.json': '{"name":"app","type":"module"}',
      '.gitignore': 'node_modules\n',
      'entities.ts': `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${attempt('app')}${ENTITIES}`,
      'q.ts': "import { gql } from 'graphql-tag';\nexport const Q = gql`{ taskGetAll { id } }`;\n",
    });
    linkErgraph(app);
    const loaded = migrate(app, 'v5-to-v6', '.', '--dry-run', '--load-app');
    expect(loaded.err).toBe('');
    expect(loaded.code).toBe(0);
    expect(loaded.out).toContain('v6 schema: ER graph of entities.ts (Base)');
    expect(loaded.out).toContain('+export const Q = gql`{ Task { taskGetAll: getAll { id } } }`;');
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
    expect(existsSync(join(outside, 'spawned'))).toBe(false);
  }, 120_000);
});
