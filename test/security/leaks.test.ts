/**
 * Issue 13: a NUL byte in a search argument returned the failing SQL text and its parameters to
 * the client. Errors reaching clients now carry a fixed message and an id on every surface
 * (GraphQL v6 and v5, MCP, use-case routes); the full error goes to the server's log.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { postGraphQL, startDemo, type DemoUnderAttack } from './demo.js';

let demo: DemoUnderAttack;
const logged: string[] = [];
beforeAll(async () => {
  demo = await startDemo();
  // The default error log is console.error: what the server's operator reads.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.cause ?? ''}` : String(a))).join(' ')));
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await demo?.close();
});

const SQL = /select|from\s+"|params|\$1|ilike|"projects"/i;
const NUL_SEARCH = '{ Project { search(text: "a\\u0000b") { id name } } }';

describe('a database error never shows its SQL or parameters to the client', () => {
  it('GraphQL v6: the NUL byte is bad input with an id; the log has the SQL under that id', async () => {
    const { status, body } = await postGraphQL(demo.app, '/graphql', { query: NUL_SEARCH });
    expect(status).toBe(200);
    expect(body.data).toBeNull(); // search's list is non-null, and so is its group
    const [error] = body.errors!;
    expect(JSON.stringify(body)).not.toMatch(SQL);
    expect(error.message).toMatch(/^Invalid input: a string contains a character the database cannot store \(such as a NUL byte\) \(error id \w+\)$/);
    expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', errorId: expect.any(String), sqlState: expect.stringMatching(/^22/) });
    expect(error.path).toEqual(['Project', 'search']);
    const entry = logged.find((line) => line.includes(error.extensions.errorId));
    expect(entry).toBeDefined();
    expect(entry).toMatch(SQL);
  });

  it('GraphQL v5 compat: the same', async () => {
    const { body } = await postGraphQL(demo.app, '/graphql/v5', { query: '{ projectSearch(text: "a\\u0000b") { id } }' });
    expect(JSON.stringify(body)).not.toMatch(SQL);
    expect(body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors![0].path).toEqual(['projectSearch']);
  });

  it('an out-of-range integer reaching the database: bad input, no SQL', async () => {
    const { body } = await postGraphQL(demo.app, '/graphql', { query: '{ Task { byId(id: 99999999999) { id } } }' });
    expect(JSON.stringify(body)).not.toMatch(SQL);
    // GraphQL's Int stops it before the database (32-bit); the error names the argument, not SQL.
    expect(body.errors![0].message).toMatch(/Int cannot represent non 32-bit signed integer value/);
  });

  it("MCP's graphql_query: the tool result carries the masked error only", async () => {
    const base = await demo.listen();
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
    try {
      const result = await client.callTool({ name: 'graphql_query', arguments: { app_name: 'demo', query: NUL_SEARCH } });
      expect(JSON.stringify(result)).not.toMatch(SQL);
      expect(JSON.stringify(result)).toMatch(/error id \w+/);
    } finally {
      await client.close();
    }
  });

  it('a use-case route: 400 naming the kind of bad input, no SQL', async () => {
    const res = await demo.app.request('/api/task_service/addComment', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': '1' },
      body: JSON.stringify({ taskId: 1, body: 'nul \u0000 here' }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(JSON.stringify(body)).not.toMatch(SQL);
    expect(body).toMatchObject({ error: 'bad_request', error_id: expect.any(String) });
  });

  it('no stack traces anywhere in what clients got', async () => {
    const { body } = await postGraphQL(demo.app, '/graphql', { query: NUL_SEARCH });
    expect(JSON.stringify(body)).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
  });
});
