/** `ergraph doctor`: each check on its own, and the command's output and exit code. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureChecks, graphqlCopiesCheck, nodeCheck, OPTIONAL_FEATURES, packageChecks, postgresCheck, PACKAGES } from '../../cli/doctor.js';
import { satisfiesCaret } from '../../cli/packages.js';
import { root, run } from './helpers.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project folder holding its own copy of graphql, as a second install would. */
function projectWithOwnGraphql(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-doctor-'));
  temps.push(dir);
  mkdirSync(join(dir, 'node_modules', 'graphql'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'graphql', 'package.json'), JSON.stringify({ name: 'graphql', version: '16.0.0', main: 'index.js' }));
  writeFileSync(join(dir, 'node_modules', 'graphql', 'index.js'), 'module.exports = {};\n');
  return dir;
}

/** The environment without DATABASE_URL, so the PostgreSQL line is optional whatever the machine has. */
const withoutDatabaseUrl = () => ({ ...process.env, DATABASE_URL: undefined });

describe('doctor checks', () => {
  it('Node.js 20 or newer', () => {
    expect(nodeCheck('20.0.0').status).toBe('ok');
    expect(nodeCheck('22.3.1').status).toBe('ok');
    expect(nodeCheck('18.19.0')).toEqual({ status: 'fail', label: 'Node.js 18.19.0 is too old', detail: ['ergraph needs Node.js 20 or newer'] });
  });

  it('caret ranges as npm reads them', () => {
    expect(satisfiesCaret('16.15.0', '^16.9.0')).toBe(true);
    expect(satisfiesCaret('17.0.0', '^16.9.0')).toBe(false);
    expect(satisfiesCaret('16.8.9', '^16.9.0')).toBe(false);
    expect(satisfiesCaret('0.45.9', '^0.45.4')).toBe(true);
    expect(satisfiesCaret('0.46.0', '^0.45.4')).toBe(false);
    expect(satisfiesCaret('4.0.0-beta.1', '>=4')).toBeUndefined();
  });

  it('finds every dependency installed in this checkout, in the declared range', () => {
    const checks = packageChecks();
    expect(checks.map((c) => c.label.split(' ')[0])).toEqual([...PACKAGES]);
    expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
  });

  it('optional features: every one available in this checkout, each naming what it needs from peerDependenciesMeta', async () => {
    expect(featureChecks({}).map((c) => [c.status, c.label])).toEqual(OPTIONAL_FEATURES.map((f) => ['ok', `available: ${f.what}`]));
    const { peerDependenciesMeta } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependenciesMeta: Record<string, unknown> };
    // Every optional peer enables some feature doctor reports (pg: the server check and usage stores).
    expect(Object.keys(peerDependenciesMeta).filter((name) => !OPTIONAL_FEATURES.some((f) => f.needs.includes(name)))).toEqual([]);
  });

  it('graphql: one copy from the checkout, two when the project has its own', () => {
    expect(graphqlCopiesCheck(root)).toMatchObject({ status: 'ok', label: 'graphql is a single copy' });
    const project = projectWithOwnGraphql();
    const check = graphqlCopiesCheck(project);
    expect(check.status).toBe('fail');
    expect(check.label).toBe('two copies of graphql: schemas built with one are rejected by the other');
    expect(check.detail![1]).toBe(`${project} loads ${join(project, 'node_modules', 'graphql', 'index.js')}`);
  });

  it('PostgreSQL: unreachable DATABASE_URL fails (password hidden); the default address is optional', async () => {
    const check = await postgresCheck('postgres://me:secret@127.0.0.1:1/app', 1000);
    expect(check.status).toBe('fail');
    expect(check.label).toBe('no PostgreSQL server answers at DATABASE_URL postgres://me:***@127.0.0.1:1/app');
    expect(JSON.stringify(check)).not.toContain('secret');
    const fallback = await postgresCheck(undefined, 1000);
    // Whatever this machine runs on 5432, the default address never fails the checklist.
    expect(['ok', 'note', 'warn']).toContain(fallback.status);
    expect(fallback.label).toContain('127.0.0.1:5432');
  });
});

describe('ergraph doctor', () => {
  it('prints the checklist and validates a good app module', async () => {
    const { code, stdout } = await run(['doctor', '--app', 'test/cli/fixtures/two-apps.ts', '--timeout', '1000'], { env: withoutDatabaseUrl() });
    expect(stdout).toMatch(/^ergraph doctor — ergraph \S+ at /);
    expect(stdout).toContain(`✓ Node.js ${process.versions.node}\n`);
    expect(stdout).toMatch(/✓ graphql 16\.\d+\.\d+ \(wants \^16/);
    expect(stdout).toContain('✓ graphql is a single copy\n');
    expect(stdout).toContain('✓ app tasks: schema and ER diagram validate (2 queries, 1 mutation)\n');
    expect(stdout).toContain('✓ app books: schema and ER diagram validate (2 queries, 0 mutations)\n');
    expect(stdout.endsWith('no problems found\n')).toBe(true);
    expect(code).toBe(0);
  }, 30_000);

  it('exits 1 listing what is wrong with an app module', async () => {
    const { code, stdout } = await run(['doctor', '--app', 'test/cli/fixtures/broken-apps.ts', '--timeout', '1000'], { env: withoutDatabaseUrl() });
    expect(stdout).toContain('✗ app invalid-schema\n    schema: Type Query must define one or more fields.\n');
    expect(stdout).toContain('✗ app bad-diagram\n    ER diagram: Task.owner: relationship target User is not an entity of this diagram\n');
    expect(stdout.endsWith('2 problems found\n')).toBe(true);
    expect(code).toBe(1);

    const missing = await run(['doctor', '--app', 'no/such.ts', '--timeout', '1000'], { env: withoutDatabaseUrl() });
    expect(missing.stdout).toContain(`✗ app module no/such.ts does not load\n    app module not found: ${root}no/such.ts\n`);
    expect(missing.code).toBe(1);
  }, 30_000);

  it('warns about page orders whose index the Drizzle schema lacks, naming the index to create', async () => {
    const { code, stdout } = await run(['doctor', '--app', 'test/cli/fixtures/sql-apps.ts', '--timeout', '1000'], { env: withoutDatabaseUrl() });
    expect(stdout).toContain('✓ app blog: schema and ER diagram validate');
    expect(stdout).toContain(
      '! app blog: 1 of 2 page orders have no index in the Drizzle schema (each page then sorts every child of its parent)\n' +
        '    posts.comments: CREATE INDEX ON "comments" ("post_id", "created_at" ASC, "id" ASC)\n',
    );
    expect(stdout).not.toContain('authors.posts'); // posts_by_author serves it
    expect(stdout.endsWith('no problems found\n')).toBe(true); // a warning, not a failure
    expect(code).toBe(0);
  }, 30_000);

  it('exits 1 when DATABASE_URL names a server that does not answer', async () => {
    const { code, stdout } = await run(['doctor', '--timeout', '1000'], { env: { DATABASE_URL: 'postgres://app@127.0.0.1:1/app' } });
    expect(stdout).toContain('✗ no PostgreSQL server answers at DATABASE_URL postgres://app@127.0.0.1:1/app\n');
    expect(stdout.endsWith('1 problem found\n')).toBe(true);
    expect(code).toBe(1);
  }, 30_000);

  it("hints in the project's package manager, though started through npx", async () => {
    for (const [lockfile, dedupe] of [['pnpm-lock.yaml', 'pnpm dedupe'], ['yarn.lock', 'yarn dedupe'], ['package-lock.json', 'npm dedupe']]) {
      const project = projectWithOwnGraphql();
      writeFileSync(join(project, lockfile!), '');
      const env = { ...withoutDatabaseUrl(), npm_config_user_agent: 'npm/10.9.2 node/v22.12.0 linux x64' };
      const { stdout } = await run(['doctor', '--timeout', '1000'], { cwd: project, env });
      expect(stdout).toContain(`    run ${dedupe}, or install one graphql version both can use\n`);
    }
  }, 30_000);

  it('exits 1 on two graphql copies, as the bin run from the project', async () => {
    const project = projectWithOwnGraphql();
    const { code, stdout } = await run(['doctor', '--timeout', '1000'], { cwd: project, env: withoutDatabaseUrl() });
    expect(stdout).toContain('✗ two copies of graphql');
    expect(code).toBe(1);
  }, 30_000);
});
