import { serve, type ServerType } from '@hono/node-server';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from 'ergraph';
import { createMcpServer, mcpApp } from 'ergraph/mcp';
import { call, newClient } from './client.js';
import { demoApps } from './fixture.js';

let httpServer: ServerType;
let base: string;

beforeAll(async () => {
  // The MCP endpoint lives beside the application's own routes.
  const app = new Hono();
  app.get('/health', (c) => c.text('ok'));
  app.route('/', mcpApp(createMcpServer({ apps: demoApps() })));
  app.route('/tools', mcpApp(createMcpServer({ apps: demoApps() }), { path: '/rpc' }));
  await new Promise<void>((resolve) => {
    httpServer = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
  });
  base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => httpServer.close(() => resolve())));

async function connect(path: string) {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(path, base)));
  return client;
}

describe('MCP over Streamable HTTP', () => {
  it('serves the tools to the SDK client at /mcp', async () => {
    const client = await connect('/mcp');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('get_query_schema');
    expect((await call(client, 'list_queries', { app_name: 'tasks' })).data[0]).toEqual({
      entity: 'User',
      method: 'getAll',
      name: 'User.getAll',
      description: 'All users',
    });
    const result = await call(client, 'graphql_query', { app_name: 'tasks', query: '{ User { getAll(limit: 1) { name } } }' });
    expect(result.data).toEqual({ User: { getAll: [{ name: 'Ada' }] } });
    await client.close();
  });

  it('serves several clients at once, each call on its own server instance', async () => {
    const clients = await Promise.all([connect('/mcp'), connect('/mcp'), connect('/tools/rpc')]);
    const results = await Promise.all(clients.map((c) => call(c, 'list_apps')));
    expect(results.map((r) => r.data.map((a: { name: string }) => a.name))).toEqual([
      ['tasks', 'empty'],
      ['tasks', 'empty'],
      ['tasks', 'empty'],
    ]);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('answers GET with 405 (stateless endpoint) and leaves other routes alone', async () => {
    const res = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await (await fetch(`${base}/health`)).text()).toBe('ok');
  });

  it('takes a factory, and refuses a bare McpServer it cannot recreate', () => {
    expect(() => mcpApp(() => createMcpServer({ apps: demoApps() }))).not.toThrow();
    expect(() => mcpApp(new McpServer({ name: 'x', version: '1' }))).toThrow(ConfigError);
  });
});
