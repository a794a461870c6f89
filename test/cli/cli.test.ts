/** The `ergraph` bin: its command list, usage errors, and `ergraph demo` end to end. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoEntry } from '../../cli/demo.js';
import { root, run, spawnCli } from './helpers.js';

describe('ergraph --help', () => {
  it('lists every command', async () => {
    const cli = spawnCli(['--help']);
    expect(await cli.exit()).toBe(0);
    for (const command of ['serve', 'mcp', 'demo', 'doctor', 'schema', 'compat', 'er']) expect(cli.stdout()).toMatch(new RegExp(`^  ergraph ${command} `, 'm'));
  }, 30_000);

  it('exits 2 on an unknown command or none', async () => {
    const unknown = await run(['deploy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ergraph: .* \(run ergraph --help for usage\)\n$/);
    expect((await run([])).code).toBe(2);
  });
});

describe('ergraph --version', () => {
  it('--version and -v print the package version on stdout, exit 0 (the bin)', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const cli = spawnCli([flag]);
      expect(await cli.exit(), flag).toBe(0);
      expect([cli.stdout(), cli.stderr()], flag).toEqual([`${version}\n`, '']);
    }
  }, 30_000);
});

describe('ergraph demo', () => {
  it('finds the demo in the checkout', () => {
    expect(demoEntry()).toBe(join(root, 'examples', 'demo', 'main.ts'));
  });

  it('runs the demo service on the given port and stops it on SIGTERM', async () => {
    const data = mkdtempSync(join(tmpdir(), 'ergraph-demo-'));
    const cli = spawnCli(['demo', '--port', '0'], { env: { ...process.env, DATABASE_URL: '', DEMO_DATA_DIR: join(data, 'pglite') } });
    try {
      const [, url] = await cli.waitFor(/GraphiQL: (http:\/\/127\.0\.0\.1:\d+\/graphql)/, 90_000);
      const response = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      expect(await response.json()).toMatchObject({ data: { __typename: 'Query' } });
    } finally {
      // The demo closes its embedded database on SIGTERM and exits 0; ergraph passes its code on.
      expect(await cli.stop(30_000)).toBe(0);
      rmSync(data, { recursive: true, force: true });
    }
  }, 150_000);
});
