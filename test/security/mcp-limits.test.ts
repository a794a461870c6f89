/**
 * Issue 27 item 5, MCP with its defaults: a JSON-RPC batch is refused before any call in it runs
 * (MCP 2025-06-18 removed batching), arguments are bounded and never echoed in full, and tool
 * calls per session go through a token bucket (30 at once, then 10 a second). The clock is
 * frozen (`performance` faked), so exactly the burst passes and nothing depends on timing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { GraphQLHandler } from 'ergraph';
import { createMcpServer, mcpApp } from 'ergraph/mcp';
import { diagram } from '../graphql/domain.js';

const handler = new GraphQLHandler(diagram);
let executed = 0;
const counting = {
  get schema() {
    return handler.schema;
  },
  execute: (...args: Parameters<GraphQLHandler['execute']>) => {
    executed++;
    return handler.execute(...args);
  },
};
const apps = [{ name: 'test', handler: counting }];

beforeEach(() => {
  executed = 0;
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const call = (id: number, query = '{ __typename }') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'graphql_query', arguments: { app_name: 'test', query } },
});

async function post(app: ReturnType<typeof mcpApp>, body: unknown) {
  const response = await app.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'localhost' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

async function connected(): Promise<Client> {
  const server = createMcpServer({ apps });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'agent', version: '1' });
  await mcp.connect(client);
  return mcp;
}

describe('MCP over HTTP, defaults', () => {
  it('refuses a JSON-RPC batch: 400, and none of its calls runs', async () => {
    const app = mcpApp(createMcpServer({ apps }));
    const { status, body } = await post(app, Array.from({ length: 100 }, (_, i) => call(i)));
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/batches are not supported/) });
    expect(executed).toBe(0);
    // One message per request still works.
    const single = await post(app, call(1));
    expect(single.status).toBe(200);
    expect(single.body.result.structuredContent).toMatchObject({ success: true, data: { __typename: 'Query' } });
    expect(executed).toBe(1);
  });

  it('bounds tool calls per client: the burst of 30 passes, the next gets 429 with Retry-After', async () => {
    const app = mcpApp(createMcpServer({ apps }));
    for (let i = 0; i < 30; i++) expect((await post(app, call(i))).status).toBe(200);
    const refused = await post(app, call(30));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error.message).toMatch(/Too many tool calls/);
    expect(executed).toBe(30);
    // A tenth of a second later, one call more.
    vi.advanceTimersByTime(100);
    expect((await post(app, call(31))).status).toBe(200);
    expect((await post(app, call(32))).status).toBe(429);
  });
});

describe('MCP session (one server, as over stdio), defaults', () => {
  it('bounds tool calls per session with the same bucket', async () => {
    const mcp = await connected();
    try {
      for (let i = 0; i < 30; i++) {
        const result = await mcp.callTool({ name: 'list_apps', arguments: {} });
        expect(result.isError).toBeFalsy();
      }
      const refused = await mcp.callTool({ name: 'graphql_query', arguments: { app_name: 'test', query: '{ __typename }' } });
      expect(refused.structuredContent).toMatchObject({ success: false, error_type: 'rate_limited' });
      expect(executed).toBe(0);
    } finally {
      await mcp.close();
    }
  });

  it('refuses arguments over 100,000 characters without echoing them, and clips what it names', async () => {
    const mcp = await connected();
    try {
      const huge = 'A'.repeat(1024 * 1024);
      const tooLarge = await mcp.callTool({ name: 'graphql_query', arguments: { app_name: huge, query: '{ __typename }' } });
      expect(tooLarge.structuredContent).toMatchObject({ success: false, error_type: 'arguments_too_large' });
      expect(JSON.stringify(tooLarge).length).toBeLessThan(2_000);
      expect(executed).toBe(0);

      const long = 'B'.repeat(90_000);
      const unknown = await mcp.callTool({ name: 'graphql_query', arguments: { app_name: long, query: '{ __typename }' } });
      expect(unknown.structuredContent).toMatchObject({ success: false, error_type: 'app_not_found' });
      expect((unknown.structuredContent as { error: string }).error).toMatch(/^no app named B{80}… \(90000 characters\)$/);
      expect(JSON.stringify(unknown).length).toBeLessThan(2_000);

      // A document that does not parse: the parser's message is the only echo, clipped.
      const bad = await mcp.callTool({ name: 'graphql_query', arguments: { app_name: 'test', query: `{ ${'x'.repeat(90_000)}` } });
      expect(bad.structuredContent).toMatchObject({ success: false });
      expect(JSON.stringify(bad).length).toBeLessThan(20_000);
    } finally {
      await mcp.close();
    }
  });
});
