import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { call, newClient } from './client.js';
import { open, type RawConnection } from '../support/server-limits.js';
import { main } from '../../cli/ergraph.js';
import { loadApps } from '../../cli/load-apps.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { cwd: root, stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } },
  };
}

describe('ergraph CLI', () => {
  it('loads the apps a module exports', async () => {
    const apps = await loadApps('test/mcp/fixtures/app.ts', root);
    expect(apps.map((a) => a.name)).toEqual(['demo']);
  });

  it('exits 1 with a clear message for a missing module or one without apps', async () => {
    const missing = io();
    expect(await main(['mcp', '--app', 'no/such/module.ts'], missing.io)).toBe(1);
    expect(missing.out.stderr).toBe(`ergraph: app module not found: ${root}no/such/module.ts\n`);

    const noApps = io();
    expect(await main(['mcp', '--app', 'test/mcp/fixture.ts'], noApps.io)).toBe(1);
    expect(noApps.out.stderr).toBe(
      'ergraph: test/mcp/fixture.ts exports no app: export `export const apps = [{ name, handler, description }]` (or a default export of that list), a GraphQLHandler, or an ErDiagram (it exports demoHandler, demoApps)\n',
    );
  });

  it('exits 2 on usage errors', async () => {
    const noCommand = io();
    expect(await main([], noCommand.io)).toBe(2);
    expect(noCommand.out.stderr).toContain('give a command');
    const noApp = io();
    expect(await main(['mcp'], noApp.io)).toBe(2);
    expect(noApp.out.stderr).toContain('app');
  });
});

describe('ergraph mcp --http', () => {
  it('serves Streamable HTTP on the port it prints, and stops on SIGTERM with a kept-alive connection open', async () => {
    let kept: RawConnection | undefined;
    const child = spawn(process.execPath, ['bin/ergraph.js', 'mcp', '--app', 'test/mcp/fixtures/app.ts', '--http', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk) => {
          stderr += String(chunk);
          const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
          if (found) resolve(found[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      expect(stderr).toMatch(/^ergraph mcp: demo at http/);
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await call(client, 'list_apps')).data.map((a: { name: string }) => a.name)).toEqual(['demo']);
      await client.close();
      // A kept-alive connection left open by a client does not hold the shutdown: it is closed.
      kept = await open(Number(new URL(url).port));
      const answered = new Promise<void>((resolve) => kept!.socket.once('data', () => resolve()));
      kept.socket.write('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await answered;
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    await kept!.closed;
  }, 60_000);
});

describe('ergraph mcp --v5-compat', () => {
  it('answers v5-shaped calls over stdio', async () => {
    const client = newClient();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/ergraph.js', 'mcp', '--app', 'test/mcp/fixtures/app.ts', '--v5-compat'],
        cwd: root,
        stderr: 'pipe',
      }),
    );
    try {
      const schema = await call(client, 'get_query_schema', { name: 'userById', app_name: 'demo' });
      expect(schema.data).toMatchObject({ entity: 'User', method: 'byId', description: 'One user by id' });
      expect(schema.hint).toContain("{ entity: 'User', method: 'byId' }");
      expect((await call(client, 'list_mutations', { app_name: 'demo', format: 'v5' })).data).toEqual([{ name: 'taskCreate', description: expect.anything() }]);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('ergraph mcp --operations', () => {
  it('offers each operation of the file as a tool over stdio, mutations only with --mutations', async () => {
    const client = newClient();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/ergraph.js', 'mcp', '--app', 'test/mcp/fixtures/app.ts', '--operations', 'test/mcp/fixtures/operations.graphql'],
        cwd: root,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'UserWithTasks');
      expect(tool).toMatchObject({ description: 'One user, by id, with the titles of their tasks.', inputSchema: { required: ['id'] } });
      expect(tools.map((t) => t.name)).not.toContain('AddTask');
      expect((await call(client, 'UserWithTasks', { id: 1 })).data).toEqual({ User: { byId: { name: 'Ada', tasks: [{ title: 'compile' }, { title: 'ship' }] } } });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses a bad operation before serving, naming it', async () => {
    const bad = io();
    expect(await main(['mcp', '--app', 'test/mcp/fixtures/app.ts', '--operations', 'test/mcp/fixtures/app.ts.graphql'], bad.io)).toBe(1);
    expect(bad.out.stderr).toMatch(/^ergraph: MCP operations: no file .*app\.ts\.graphql\n$/);
  });
});
