/**
 * Issue 13: MCP over HTTP answered any Origin and Host (the MCP specification requires Origin
 * validation against DNS rebinding), always offered graphql_mutation, and its tools could not
 * see the request. Against the demo's /mcp over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpServer, mcpApp, type McpRequest } from 'ergraph/mcp';
import { startDemo, type DemoUnderAttack } from './demo.js';

let demo: DemoUnderAttack;
let base: string;
beforeAll(async () => {
  demo = await startDemo();
  base = await demo.listen();
}, 60_000);
afterAll(() => demo?.close());

const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

/** A raw POST with exactly the headers given (fetch would not let a test forge Host). */
function rpc(url: string, headers: Record<string, string>, body = LIST_TOOLS): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS rebinding: Host and Origin are checked by default', () => {
  it('a page on another site (Origin) is refused with 403', async () => {
    const res = await rpc(`${base}/mcp`, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Origin \\"http://evil.example\\" is not allowed');
  });

  it('a rebound name (Host: attacker.example resolving to 127.0.0.1) is refused with 403', async () => {
    const port = new URL(base).port;
    const res = await rpc(`${base}/mcp`, { host: `attacker.example:${port}` });
    expect(res.status).toBe(403);
    expect(res.text).toContain('is not allowed (allowedHosts)');
  });

  it('loopback pages and agents without Origin are served', async () => {
    expect((await rpc(`${base}/mcp`, {})).status).toBe(200);
    expect((await rpc(`${base}/mcp`, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await rpc(`${base}/mcp`, { host: `localhost:${new URL(base).port}` })).status).toBe(200);
  });

  it('allow-lists are configurable', async () => {
    const { buildGraph } = await import('../../examples/demo/graph.js');
    const app = mcpApp(createMcpServer({ apps: [{ name: 'demo', handler: buildGraph(demo.database.db).handler }] }), {
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      expect((await rpc(url, { host: 'mcp.example.com', origin: 'https://app.example.com' })).status).toBe(200);
      expect((await rpc(url, { host: 'mcp.example.com', origin: 'http://localhost:3000' })).status).toBe(403);
      expect((await rpc(url, { host: '127.0.0.1' })).status).toBe(403); // no longer on the list
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('tools', () => {
  it('graphql_mutation is offered only when the server asks for it (the demo does, explicitly)', async () => {
    const { buildGraph } = await import('../../examples/demo/graph.js');
    const apps = [{ name: 'demo', handler: buildGraph(demo.database.db).handler }];
    const names = async (app: ReturnType<typeof mcpApp>) => {
      const server: ServerType = await new Promise((resolve) => {
        const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
      });
      const client = new Client({ name: 'agent', version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
        const listed = (await client.listTools()).tools.map((t) => t.name);
        const refused = await client.callTool({ name: 'graphql_query', arguments: { app_name: 'demo', query: 'mutation { Task { __typename } }' } });
        expect(refused.isError).toBe(true); // graphql_query never runs a mutation
        return listed;
      } finally {
        await client.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    };
    const readOnly = await names(mcpApp(() => createMcpServer({ apps })));
    expect(readOnly).toContain('graphql_query');
    expect(readOnly).not.toContain('graphql_mutation');
    expect(await names(mcpApp(() => createMcpServer({ apps, mutations: true })))).toContain('graphql_mutation');
  });

  it("the app's context function sees the HTTP request's headers (so tools can authenticate)", async () => {
    const { buildGraph } = await import('../../examples/demo/graph.js');
    const handler = buildGraph(demo.database.db).handler;
    const seen: McpRequest[] = [];
    const context = (req: McpRequest) => {
      seen.push(req);
      if (req.transport !== 'http' || req.headers.get('authorization') !== 'Bearer good') throw new Error('bad token');
      return { user: 1 };
    };
    const app = mcpApp(() => createMcpServer({ apps: [{ name: 'demo', handler, context }], onError: () => {} }));
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const call = async (token: string) => {
      const client = new Client({ name: 'agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      try {
        return (await client.callTool({ name: 'graphql_query', arguments: { app_name: 'demo', query: '{ User { getAll(limit: 1) { id } } }' } }))
          .structuredContent as { success: boolean; error_type: string | null };
      } finally {
        await client.close();
      }
    };
    try {
      expect(await call('good')).toMatchObject({ success: true });
      expect(await call('bad')).toMatchObject({ success: false, error_type: 'unauthorized' });
      expect(seen.map((r) => r.transport === 'http' && r.headers.get('authorization'))).toEqual(['Bearer good', 'Bearer bad']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
