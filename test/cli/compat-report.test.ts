/**
 * `ergraph compat report`, run as the bin on a usage database a compat app wrote to — the way an
 * operator asks "may we turn v5 off?".
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler, createUsageRecorder, openUsageStore } from 'ergraph/compat';
import { lockDataDir } from '../../examples/demo/lock.js';
import { createV6Handler } from '../compat/helpers.js';
import { run, spawnCli, usageDatabase } from './helpers.js';

const database = usageDatabase('ergraph-report-');
/** The folder the database lives in, for the paths beside it the refusals name. */
const dir = dirname(database.slice('pglite:'.length));

beforeAll(async () => {
  // A compat app in production: requests from two clients, written through the recorder.
  const store = await openUsageStore(database);
  const recorder = createUsageRecorder(store);
  const app = compatApp(createCompatHandler(createV6Handler(), { usage: recorder }));
  const send = (query: string, client: string) =>
    app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-client-name': client }, body: JSON.stringify({ query }) });
  for (let i = 0; i < 3; i++) await send('{ userGetAll { id } }', 'web');
  await send('{ userById(id: 1) { id } }', 'ios | <b>app</b>');
  await recorder.close();
  await store.close();
}, 60_000);


describe('ergraph compat report', () => {
  it('prints the verdict and a table of fields and clients as Markdown', async () => {
    const cli = spawnCli(['compat', 'report', '--database', database]);
    expect(await cli.exit(60_000)).toBe(0);
    const out = cli.stdout();
    expect(out).toMatch(/^# v5 retirement report\n\n\*\*⛔ not yet: 2 of 11 fields used in the last 30 days, by web \(3\), ios \\\| \\<b\\>app\\<\/b\\> \(1\)\*\*\n/);
    expect(out).toMatch(/\| `Query\.userGetAll` \| `User\.getAll` `\{ User \{ getAll \} \}` \| 3 \| new \| \d{4}-\d\d-\d\d \d\d:\d\d \| web \(3\) \| ⛔ still used by web \(3\) \|/);
    expect(out).toMatch(/\| `Query\.taskGetAll` \| `Task\.getAll` .* \| 0 \| — \| never \| — \| ⏳ no use since tracking began 0 days ago: a 30-day verdict on \d{4}-\d\d-\d\d \|/);
    expect(out).toContain('## Clients');
  }, 60_000);

  it('prints JSON with --format json, over the window given by --days', async () => {
    const res = await run(['compat', 'report', '--database', database, '--format', 'json', '--days', '7']);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.days).toBe(7);
    expect(report.window.days).toHaveLength(7);
    expect(report.verdict).toMatchObject({ status: 'in-use', clients: ['web', 'ios | <b>app</b>'] });
    expect(report.fields.find((f: { coordinate: string }) => f.coordinate === 'Query.userById')).toMatchObject({
      replacement: 'User.byId',
      count: 1,
      clients: [{ client: 'ios | <b>app</b>', count: 1 }],
    });
    expect(report.fields).toHaveLength(11);
  }, 60_000);

  it('says so, and exits 1, when the database cannot be read', async () => {
    const res = await run(['compat', 'report', '--database', 'postgres://postgres:pw@127.0.0.1:1/usage']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('**❔ no verdict: the usage store cannot be read**');
    // On the operator's terminal the report names the store and quotes its error (the HTTP route does neither).
    expect(res.stdout).toContain('store: PostgreSQL postgres://postgres@127.0.0.1:1/usage');
    expect(res.stdout).toMatch(/> The usage store could not be read: .*ECONNREFUSED/);
    expect(res.stderr).toMatch(/^ergraph: cannot read usage from PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:1\/usage: .*ECONNREFUSED/);
    expect(res.stdout + res.stderr).not.toContain(':pw@');
  });

  it('refuses a PGlite directory that holds no database, and creates none', async () => {
    const nowhere = join(dir, 'no-such-usage');
    const res = await run(['compat', 'report', '--database', `pglite:${nowhere}`]);
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toBe(`ergraph: no PGlite database at ${nowhere} (no such directory): name the directory the app writes its usage to (the demo's is .demo-data/pglite)\n`);
    expect(existsSync(nowhere)).toBe(false);
  });

  it('refuses a directory another process has open, pointing at the report that process serves', async () => {
    const usage = join(dir, 'usage');
    // What the demo does: lock the directory, and once listening say where its report is.
    const lock = lockDataDir(usage);
    lock.announce('http://127.0.0.1:4000/graphql/v5/usage');
    try {
      const cli = spawnCli(['compat', 'report', '--database', `pglite:${usage}`]);
      expect(await cli.exit(60_000)).toBe(1);
      expect(cli.stderr()).toBe(
        `ergraph: ${usage} is open in process ${process.pid} (the demo, or another app), and PGlite serves one process at a time: open the same report at http://127.0.0.1:4000/graphql/v5/usage, or stop that process (Ctrl-C) and run this again\n`,
      );
    } finally {
      lock.release();
    }
    // An app holding it without the demo's lock: PGlite's own postmaster.pid says so.
    const store = await openUsageStore(`pglite:${usage}`);
    await store.read('2000-01-01');
    try {
      const held = await run(['compat', 'report', '--database', `pglite:${usage}`]);
      expect(held.code).toBe(1);
      expect(held.stderr).toContain(`ergraph: ${usage} is open in another process (its postmaster.pid is there)`);
    } finally {
      await store.close();
    }
    expect((await run(['compat', 'report', '--database', `pglite:${usage}`])).code).toBe(0);
  }, 60_000);

  it('rejects bad arguments with usage errors', async () => {
    expect((await run(['compat', 'report'])).code).toBe(2);
    expect((await run(['compat', 'report', '--database', database, '--days', '-3'])).stderr).toContain('--days must be a whole number from 1 to 3660, got -3');
    expect((await run(['compat', 'report', '--database', database, '--format', 'html'])).code).toBe(2);
    const unsupported = await run(['compat', 'report', '--database', 'mongodb://x']);
    expect(unsupported).toMatchObject({ code: 1, stderr: 'ergraph: unsupported usage database "mongodb://x": use postgres://…, pglite:<dir> or memory:\n' });
  });
});
