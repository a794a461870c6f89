/**
 * Issue 13: no request size limit anywhere — a 100 MB GraphQL body and a 50 MB use-case body were
 * read whole. Every HTTP surface of the demo now refuses bodies over 1 MB with 413 (GraphQL v6,
 * v5 compat, use-case routes, MCP), reading no more than the limit; and documents the parser
 * would have kept (the cache grew by count, not size) are stopped by the token limit first.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heapGrowth, postGraphQL, startDemo, type DemoUnderAttack } from './demo.js';

let demo: DemoUnderAttack;
let base: string;
beforeAll(async () => {
  demo = await startDemo();
  base = await demo.listen();
}, 60_000);
afterAll(() => demo?.close());

const SURFACES = [
  { path: '/graphql', body: (pad: string) => JSON.stringify({ query: `{ __typename } # ${pad}` }) },
  { path: '/graphql/v5', body: (pad: string) => JSON.stringify({ query: `{ __typename } # ${pad}` }) },
  { path: '/api/task_service/getTask', body: (pad: string) => JSON.stringify({ taskId: 1, pad }) },
  { path: '/mcp', body: (pad: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad } }) },
];
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * POST with node:http, writing `mb` megabytes after `prefix` while they are sent (chunked, no
 * Content-Length unless `declared`), so the test never holds the body. Resolves with the status
 * and body text, or 'closed' when the server hung up without answering. A server that answers
 * early and closes the connection while the client still writes is doing its job: the write
 * errors that follow are ignored.
 */
function post(path: string, prefix: string, mb: number, declared = false): Promise<{ status: number | 'closed'; text: string; written: number }> {
  return new Promise((resolve) => {
    const total = Buffer.byteLength(prefix) + mb * 1024 * 1024;
    const req = request(base + path, { method: 'POST', headers: { ...HEADERS, ...(declared ? { 'content-length': String(total) } : {}) } });
    let written = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.on('data', (d) => (text += d));
      const done = () => (resolve({ status: res.statusCode!, text, written }), req.destroy());
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', () => {
      if (!answered) resolve({ status: 'closed', text: '', written });
    });
    if (declared) {
      // The size is known from the header alone: send it and wait, as a client with Expect would.
      req.flushHeaders();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    req.write(prefix);
    const pump = () => {
      while (!req.destroyed && !answered && written < mb * 1024 * 1024) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

describe('request bodies over 1 MB get 413 on every HTTP surface', () => {
  for (const surface of SURFACES) {
    it(`${surface.path}: 2 MB declared by Content-Length`, async () => {
      const { status, text } = await post(surface.path, surface.body(''), 2, true);
      expect(status).toBe(413);
      expect(text).toMatch(/larger than 1048576 bytes/);
    });
  }

  it('a 100 MB streamed GraphQL body (no Content-Length) is cut off after 1 MB; the heap does not grow by it', async () => {
    const { result, mb } = await heapGrowth(() => post('/graphql', '{"query":"{ __typename } #', 100));
    expect(result.status).toBe(413);
    expect(result.written).toBeLessThan(20 * 1024 * 1024); // the server stopped reading long before 100 MB
    expect(mb).toBeLessThan(40);
    expect((await fetch(`${base}/`)).status).toBe(200); // still serving
  }, 10_000);

  it('a 50 MB use-case body is refused the same way', async () => {
    const { result, mb } = await heapGrowth(() => post('/api/task_service/getTask', '{"taskId":1,"pad":"', 50));
    expect(result.status).toBe(413);
    expect(mb).toBeLessThan(40);
  }, 10_000);

  it('just under the limit still runs', async () => {
    const { status, body } = await postGraphQL(demo.app, '/graphql', { query: `{ __typename } # ${'x'.repeat(900 * 1024)}` });
    expect(status).toBe(200);
    expect(body).toEqual({ data: { __typename: 'Query' }, errors: null });
  });
});

describe('the document cache cannot be filled with huge documents', () => {
  it('40 distinct ~900 KB documents are each refused by the token limit while parsing; nothing is kept', async () => {
    const { result, mb } = await heapGrowth(async () => {
      const codes: string[] = [];
      for (let i = 0; i < 40; i++) {
        const query = `{ ${`__typename `.repeat(80_000)} a${i}: __typename }`;
        const { body } = await postGraphQL(demo.app, '/graphql', { query });
        codes.push(body.errors![0].extensions.code);
      }
      return codes;
    });
    expect(new Set(result)).toEqual(new Set(['TOKEN_LIMIT_EXCEEDED']));
    expect(mb).toBeLessThan(100);
  }, 10_000);
});
