/**
 * examples/demo/apps.ts is the app module every `--app` command of the docs runs against: schema
 * print (v6 and --v5), er (text and SVG), doctor --app, serve (GraphQL and MCP over HTTP) in this
 * process, and mcp over stdio as an agent spawns it. Its database is made and seeded in the
 * background; each request waits for it.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../../cli/serve.js';
import { call, newClient } from '../mcp/client.js';
import { root, run, spawnCli } from '../cli/helpers.js';

const APP = 'examples/demo/apps.ts';
const USERS = '{ User { getAll(limit: 3) { id name } } }';
const saved = process.env.DATABASE_URL;

// The module's own embedded database, never a server this machine may have.
beforeAll(() => {
  delete process.env.DATABASE_URL;
});
afterAll(() => {
  if (saved !== undefined) process.env.DATABASE_URL = saved;
});

describe('examples/demo/apps.ts under every --app command', () => {
  // The bins first: this process then starts the module's database in the background, and a
  // child started meanwhile would share two cores with it.
  it('doctor --app validates its app', async () => {
    const { DATABASE_URL: _, ...env } = process.env;
    const doctor = spawnCli(['doctor', '--app', APP, '--timeout', '1000'], { env });
    expect(await doctor.exit(60_000)).toBe(0);
    expect(doctor.stdout()).toMatch(/✓ app demo: schema and ER diagram validate \(\d+ queries, \d+ mutations\)\n/);
  }, 60_000);

  it('mcp over stdio, as an agent spawns it', async () => {
    const client = newClient();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/ergraph.js', 'mcp', '--app', APP], cwd: root, env: { PATH: process.env.PATH ?? '' } }));
    try {
      // Its tools answer at once; a query would wait for the seeding, which serve's test has shown.
      expect((await call(client, 'list_apps')).data).toEqual([expect.objectContaining({ name: 'demo' })]);
      expect((await call(client, 'list_queries', { app_name: 'demo' })).data).toContainEqual(expect.objectContaining({ name: 'User.getAll' }));
    } finally {
      await client.close();
    }
  }, 60_000);

  it('schema print, schema print --v5, er and er --format svg', async () => {
    const v6 = await run(['schema', 'print', '--app', APP]);
    expect([v6.code, v6.stderr]).toEqual([0, '']);
    expect(v6.stdout).toContain('User: UserQuery!');
    const v5 = await run(['schema', 'print', '--app', APP, '--v5']);
    expect([v5.code, v5.stderr]).toEqual([0, '']);
    expect(v5.stdout).toMatch(/userGetAll\(/);
    const er = await run(['er', '--app', APP]);
    expect([er.code, er.stderr]).toEqual([0, '']);
    expect(er.stdout).toMatch(/^erDiagram\n/);
    expect(er.stdout).toContain('TaskService'); // its services export is drawn
    const svg = await run(['er', '--app', APP, '--format', 'svg']);
    expect(svg.stdout).toMatch(/^<svg [^>]*class="er-diagram"/);
  }, 60_000);

  it('the demo\'s server script, given instead, names the module meant and starts nothing', async () => {
    const { code, stderr } = await run(['schema', 'print', '--app', 'examples/demo/main.ts']);
    expect([code, stderr]).toEqual([1, 'ergraph: examples/demo/main.ts runs the demo server (npm run demo); the app module for --app is examples/demo/apps.ts\n']);
  });

  it('serve answers GraphQL and MCP over HTTP from its seeded data', async () => {
    let out = '';
    const io = { cwd: root, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) } };
    const listening = await startServe({ app: APP, host: '127.0.0.1', port: 0, v5Compat: false, mutations: false, allowedHosts: [] }, io);
    const base = `http://127.0.0.1:${listening.port}`;
    const client = newClient();
    try {
      expect(out).toContain(`ergraph serve: demo GraphQL at ${base}/graphql · ER picture at ${base}/er\n`);
      const answer = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: USERS }) });
      const body = (await answer.json()) as { data: { User: { getAll: { id: number }[] } }; errors: unknown };
      expect(body.errors).toBeNull();
      expect(body.data.User.getAll).toHaveLength(3);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      expect((await call(client, 'graphql_query', { app_name: 'demo', query: USERS })).data.User.getAll).toEqual(body.data.User.getAll);
    } finally {
      await client.close();
      await listening.close();
    }
  }, 60_000);
});
