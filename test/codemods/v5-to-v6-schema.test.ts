import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, graphql, introspectionFromSchema, printSchema } from 'graphql';
import { loadSchema, SchemaLoadError } from '../../codemods/v5-to-v6/schema.js';

const SDL = 'type Query {\n  User: UserQuery!\n}\n\ntype UserQuery {\n  getAll(limit: Int = 20): [Int!]!\n}';
const schema = buildSchema(SDL);
const dir = mkdtempSync(join(tmpdir(), 'ergraph-v5-schema-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('loadSchema', () => {
  let server: Server;
  let url: string;
  // Another host (127.0.0.2, loopback): a redirect's target, which must get no request.
  let other: Server;
  let elsewhere: string;
  let reachedElsewhere = 0;
  beforeAll(async () => {
    other = createServer((_, res) => {
      reachedElsewhere++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    elsewhere = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        if (req.url === '/down') {
          res.writeHead(503).end();
          return;
        }
        if (req.url === '/silent') return; // accepts the request, never answers
        if (req.url === '/moved') {
          res.writeHead(307, { location: `${elsewhere}/graphql` }).end();
          return;
        }
        if (req.url === '/endless') {
          // An answer that does not stop: 64 KB chunks for as long as the client reads.
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 32);
          const more = () => {
            while (res.write(chunk));
          };
          res.on('drain', more);
          more();
          return;
        }
        const { query } = JSON.parse(body) as { query: string };
        const result = await graphql({ schema, source: query });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections(); // the silent and endless answers keep theirs open
    await new Promise<void>((resolve) => other.close(() => resolve()));
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads an SDL file', async () => {
    expect(printSchema(await loadSchema(file('schema.graphql', SDL)))).toBe(SDL);
  });

  it('reads introspection JSON, as an HTTP response or a bare __schema dump', async () => {
    const introspection = introspectionFromSchema(schema);
    expect(printSchema(await loadSchema(file('a.json', JSON.stringify({ data: introspection }))))).toBe(SDL);
    expect(printSchema(await loadSchema(file('b.json', JSON.stringify(introspection))))).toBe(SDL);
  });

  it('introspects a running endpoint', async () => {
    expect(printSchema(await loadSchema(`${url}/graphql`))).toBe(SDL);
  });

  it('names the source and the problem when it cannot load', async () => {
    await expect(loadSchema(join(dir, 'missing.graphql'))).rejects.toThrow(new SchemaLoadError(join(dir, 'missing.graphql'), 'cannot read the file: ENOENT'));
    await expect(loadSchema(file('bad.json', '{"data": '))).rejects.toThrow(/bad\.json: invalid JSON: /);
    await expect(loadSchema(file('other.json', '{"hello": 1}'))).rejects.toThrow(/other\.json: not an introspection result/);
    await expect(loadSchema(file('bad.graphql', 'type Query {'))).rejects.toThrow(/bad\.graphql: invalid SDL \(line 1, column 13\): /);
    await expect(loadSchema(`${url}/down`)).rejects.toThrow(`${url}/down: introspection answered HTTP 503`);
    await expect(loadSchema('http://127.0.0.1:1/graphql')).rejects.toThrow(/cannot reach the server/);
  });

  it('follows no redirect: the introspection goes to the address given and nowhere else', async () => {
    await expect(loadSchema(`${url}/moved`)).rejects.toThrow(
      `${url}/moved: introspection answered HTTP 307, a redirect to ${elsewhere}/graphql: the schema is read from the address given and nowhere else; give the address the server means`,
    );
    expect(reachedElsewhere).toBe(0);
  });

  it('gives up on an endpoint that does not answer in time, or answers without end', async () => {
    // The endpoint never answers: only the timeout ends the wait (the message names it).
    await expect(loadSchema(`${url}/silent`, { timeoutMs: 300 })).rejects.toThrow(`${url}/silent: no introspection answer within 300 ms`);
    await expect(loadSchema(`${url}/endless`, { maxBytes: 1024 * 1024 })).rejects.toThrow(`${url}/endless: the answer is more than the 1048576 bytes allowed`);
  });
});
