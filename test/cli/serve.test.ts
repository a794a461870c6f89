/** `ergraph serve`: GraphQL per app and MCP at /mcp, in-process through buildServeApp and as the real bin. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildServeApp } from '../../cli/serve.js';
import { call, newClient } from '../mcp/client.js';
import { apps as twoApps } from './fixtures/two-apps.js';
import { root, run, spawnCli } from './helpers.js';
import { open, type RawConnection } from '../support/server-limits.js';

const post = (query: string) =>
  ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }) as const;

describe('buildServeApp', () => {
  it('serves each of several apps at /<name>/graphql with its own context, and says where at /', async () => {
    const { app, served } = buildServeApp(twoApps);
    expect(served).toEqual([
      { name: 'tasks', graphql: '/tasks/graphql', er: '/tasks/er' },
      { name: 'books', graphql: '/books/graphql', er: '/books/er' },
    ]);
    const tasks = await app.request('/tasks/graphql', post('{ User { byId(id: 1) { name tasks { title } } } }'));
    expect(await tasks.json()).toEqual({ data: { User: { byId: { name: 'Ada', tasks: [{ title: 'compile' }, { title: 'ship' }] } } }, errors: null });
    const books = await app.request('/books/graphql', post('{ Book { all { title } forCaller { title } } }'));
    expect(await books.json()).toEqual({ data: { Book: { all: [{ title: 'SICP' }], forCaller: { title: 'serve' } } }, errors: null });
    // one app's endpoint does not answer for the other's schema
    expect((await (await app.request('/books/graphql', post('{ User { getAll { id } } }'))).json()).errors[0].message).toContain('User');
    expect(await (await app.request('/')).json()).toEqual({ apps: served, mcp: '/mcp' });
    expect(await (await app.request('/', { headers: { accept: 'application/json' } })).json()).toEqual({ apps: served, mcp: '/mcp' });
    // A browser gets the same as a page of links.
    const page = await app.request('http://127.0.0.1:4000/', { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    for (const href of ['/tasks/graphql', '/tasks/er', '/books/graphql', '/books/er']) expect(html).toContain(`<a href="${href}">`);
    expect(html).toContain('<code>POST /mcp</code>');
    expect(html).toContain('&quot;url&quot;:&quot;http://127.0.0.1:4000/mcp&quot;');
    expect((await app.request('/graphql', post('{ __typename }'))).status).toBe(404);
  });

  it('serves GraphiQL on GET with its assets under the app path', async () => {
    const { app } = buildServeApp(twoApps);
    const page = await app.request('/books/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/books/graphql/assets/');
    const asset = /\/books\/graphql\/assets\/[^"']+/.exec(html)![0];
    expect((await app.request(asset)).status).toBe(200);
  });

  it('serves one app at /graphql', async () => {
    const { app, served } = buildServeApp([twoApps[1]!]);
    expect(served).toEqual([{ name: 'books', graphql: '/graphql', er: '/er' }]);
    expect(await (await app.request('/graphql', post('{ Book { all { id } } }'))).json()).toEqual({ data: { Book: { all: [{ id: 1 }] } }, errors: null });
  });

  it('refuses handlers graphqlApp cannot serve and names that are not URL segments', () => {
    const bare = { name: 'bare', handler: { schema: buildSchema('type Query { a: Int }'), execute: async () => ({ data: null }) } };
    expect(() => buildServeApp([bare])).toThrow("app bare: serve needs a GraphQLHandler from 'ergraph' (its handler has no prepare/getGraphiqlHtml)");
    expect(() => buildServeApp([twoApps[0]!, { ...twoApps[1]!, name: 'my books' }])).toThrow('app "my books": with several apps each name is a URL segment');
  });
});

describe('ergraph serve', () => {
  it("draws the module's use-case services on the /er page it prints", async () => {
    const cli = spawnCli(['serve', '--app', 'test/picture/shop.ts', '--port', '0']);
    let code: number | null = null;
    try {
      const [, er] = await cli.waitFor(/ER picture at (http:\/\/127\.0\.0\.1:\d+\/er)\n/);
      const picture = (await (await fetch(`${er}?format=json`)).json()) as { entities: { name: string }[]; services: { name: string }[] };
      expect(picture.services.map((s) => s.name)).toEqual(['OrderService']);
      expect(picture.entities.map((e) => e.name)).toContain('Order');
    } finally {
      // Asserted after the block: a failure above (a start that timed out, when SIGTERM then finds
      // no handler yet and ends the process by the signal, code null) must not be reported as this.
      code = await cli.stop();
    }
    expect(code).toBe(0);
  });

  it('serves the apps, their v5 compat endpoints and MCP on the port it prints; verify --url proves against it; stops on SIGTERM with a kept-alive connection open', async () => {
    const cli = spawnCli(['serve', '--app', 'test/cli/fixtures/two-apps.ts', '--port', '0', '--v5-compat']);
    let code: number | null = null;
    let kept: RawConnection | undefined;
    const documents = mkdtempSync(join(tmpdir(), 'ergraph-serve-verify-'));
    try {
      const [, base] = await cli.waitFor(/MCP at (http:\/\/127\.0\.0\.1:\d+)\/mcp\n/);
      expect(cli.stdout()).toBe(
        `ergraph serve: tasks GraphQL at ${base}/tasks/graphql · ER picture at ${base}/tasks/er\n` +
          `ergraph serve: tasks v5 GraphQL (compat) at ${base}/tasks/graphql/v5\n` +
          `ergraph serve: books GraphQL at ${base}/books/graphql · ER picture at ${base}/books/er\n` +
          `ergraph serve: books v5 GraphQL (compat) at ${base}/books/graphql/v5\n` +
          `ergraph serve: MCP at ${base}/mcp\n`,
      );
      const response = await fetch(`${base}/tasks/graphql`, post('{ User { getAll(limit: 1) { name } } }'));
      expect(await response.json()).toEqual({ data: { User: { getAll: [{ name: 'Ada' }] } }, errors: null });
      // --v5-compat: the flat v5 schema beside each endpoint, as the docs mount it…
      const v5 = await fetch(`${base}/tasks/graphql/v5`, post('{ userGetAll(limit: 1) { name } }'));
      expect(await v5.json()).toMatchObject({ data: { userGetAll: [{ name: 'Ada' }] } });
      // …so `ergraph-migrate verify --url` proves a migration against the CLI's own server (both binaries).
      writeFileSync(join(documents, 'users.graphql'), 'query Users { userGetAll(limit: 2) { name tasks { title } } }\n');
      const verified = spawnSync(process.execPath, [`${root}codemods/bin/ergraph-migrate.js`, 'verify', '.', '--url', `${base}/tasks`], { cwd: documents, encoding: 'utf8' });
      expect(verified.stdout).toContain('same: users.graphql:1 Users\n');
      expect(verified.stdout).toContain(': 1 operations, 1 same, 0 differ, 0 not run');
      expect(verified.status).toBe(0);

      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      expect((await call(client, 'list_apps')).data.map((a: { name: string }) => a.name)).toEqual(['tasks', 'books']);
      // --v5-compat reaches the MCP endpoint
      expect((await call(client, 'get_query_schema', { name: 'bookAll', app_name: 'books' })).data).toMatchObject({ entity: 'Book', method: 'all' });
      const run = await call(client, 'graphql_query', { app_name: 'books', query: '{ Book { forCaller { title } } }' });
      expect(run.data).toEqual({ Book: { forCaller: { title: 'serve' } } });
      await client.close();

      // A kept-alive connection left open by a client does not hold the shutdown: it is closed.
      kept = await open(Number(new URL(base!).port));
      const answered = new Promise<void>((resolve) => kept!.socket.once('data', () => resolve()));
      kept.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await answered;
    } finally {
      code = await cli.stop();
      rmSync(documents, { recursive: true, force: true });
    }
    expect(code).toBe(0);
    await kept!.closed;
    expect(kept!.received()).toMatch(/^HTTP\/1\.1 200[^]*keep-alive/i);
    expect(cli.stderr()).toBe('');
  }, 60_000);

  it('exits 1 naming the problem when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const result = await run(['serve', '--app', 'test/mcp/fixtures/app.ts', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });

  it('exits 2 without --app and 1 for a module without apps', async () => {
    expect((await run(['serve'])).code).toBe(2);
    const noApps = await run(['serve', '--app', 'test/mcp/fixture.ts']);
    expect(noApps.code).toBe(1);
    expect(noApps.stderr).toContain('test/mcp/fixture.ts exports no app: export');
  });
});
