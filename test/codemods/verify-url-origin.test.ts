/**
 * `ergraph-migrate verify --url` trusts no server (issue 45.3): it sends the introspection, the
 * queries and the mutations to the origin of `--url` only — the one the mutation guard approved —
 * refusing every redirect, and reads no answer past `--max-response-bytes`, aborting the request
 * at the cap. Two real loopback servers: the one `--url` names on 127.0.0.1, and the one its
 * redirects point to on 127.0.0.2, which must never see a request.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler } from '../../compat/index.js';
import { main, type CliIO } from '../../codemods/cli.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../codemods/verify/endpoint.js';
import { graphqlApp } from '../../src/http/index.js';
import { handler } from './verify-app/app.js';

/** compat at /graphql/v5 and v6 at /graphql, as the docs mount them; served below through node:http. */
const app = new Hono();
app.route('/', compatApp(createCompatHandler(handler), { path: '/graphql/v5' }));
app.route('/', graphqlApp(handler, { path: '/graphql' }));

interface Seen {
  path: string;
  query: string;
}

/** What the server `--url` names does with a request other than introspection. */
type Behaviour = (request: Seen, res: ServerResponse) => 'serve' | 'handled';

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A GraphQL server on `host` that records every request and lets `behave` answer it instead. */
function graphqlServer(host: string, seen: Seen[], behave: () => Behaviour): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const request = { path: req.url ?? '', query: String((JSON.parse(text || '{}') as { query?: unknown }).query) };
    seen.push(request);
    if (behave()(request, res) === 'handled') return;
    const answer = await app.fetch(new Request(`http://${host}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: text }));
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, host, () => resolve({ server, url: `http://${host}:${(server.address() as { port: number }).port}` })));
}

/** An answer that does not end: 64 KiB chunks as fast as the client takes them, up to LIMIT (a test that fails must still end). */
const LIMIT = 256 * 2 ** 20;
interface Stream {
  written: number;
  ended: boolean;
  closed: Promise<void>;
}
function endless(res: ServerResponse): Stream {
  const chunk = Buffer.alloc(64 * 1024, ' ');
  let open = true;
  const stream: Stream = { written: 0, ended: false, closed: new Promise((resolve) => res.on('close', () => ((open = false), resolve()))) };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data":"');
  const pump = () => {
    while (open && stream.written < LIMIT) {
      stream.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (open) (stream.ended = true), res.end('"}');
  };
  pump();
  return stream;
}

const root = mkdtempSync(join(tmpdir(), 'ergraph-verify-origin-'));
const dir = join(root, 'src');
let origin = { server: undefined as unknown as Server, url: '' };
let elsewhere = { server: undefined as unknown as Server, url: '' };
/** Requests the server `--url` names got, and those the other origin got (none, ever). */
const atOrigin: Seen[] = [];
const atElsewhere: Seen[] = [];
let behaviour: Behaviour = () => 'serve';
const streams: Stream[] = [];
const isIntrospection = (r: Seen) => r.path === '/graphql' && r.query.includes('__schema');

beforeAll(async () => {
  mkdirSync(dir);
  writeFileSync(join(dir, 'q.graphql'), 'query Users { userGetAll(limit: 2) { id name } }\n');
  writeFileSync(join(dir, 'm.graphql'), 'mutation AddTask { taskCreate(title: "x") { title } }\n');
  origin = await graphqlServer('127.0.0.1', atOrigin, () => behaviour);
  elsewhere = await graphqlServer('127.0.0.2', atElsewhere, () => () => 'serve');
});
afterAll(async () => {
  for (const { server } of [origin, elsewhere]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  atOrigin.length = 0;
  atElsewhere.length = 0;
  streams.length = 0;
});

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = { cwd: root, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  const code = await main(['verify', ...argv], io);
  return { code, out, err };
}

const redirect = (res: ServerResponse, to: string) => (res.writeHead(307, { location: to }).end(), 'handled' as const);
const escaped = (url: string) => url.replace(/[.]/g, '\\.');

describe('verify --url sends requests to its origin only', () => {
  it('refuses a redirected introspection: one line naming both addresses, exit 1, nothing sent elsewhere', async () => {
    behaviour = (r, res) => redirect(res, `${elsewhere.url}${r.path}`);
    const { code, out, err } = await cli('src', '--url', origin.url);
    expect(err).toMatch(new RegExp(`^ergraph-migrate: POST ${escaped(origin.url)}/graphql answered HTTP 307, a redirect to ${escaped(elsewhere.url)}/graphql: verify follows no redirect and sends requests only to ${escaped(origin.url)} \\(--url\\); give the address the server means as --url\\n$`));
    expect(out).toBe('');
    expect(code).toBe(1);
    expect(atOrigin).toHaveLength(1);
    expect(atElsewhere).toEqual([]);
  });

  it('runs no query or mutation a redirect points elsewhere, even in the same origin: not run, cause "redirected", exit 5', async () => {
    // Introspection answered; then the mutation is sent on to the other host, the query to another path here.
    behaviour = (r, res) => (isIntrospection(r) ? 'serve' : redirect(res, r.query.startsWith('mutation') ? `${elsewhere.url}${r.path}` : `/moved${r.path}`));
    const { code, out } = await cli('src', '--url', origin.url, '--mutations', '--target-env', 'local-dev', '--report', 'verify.json');
    expect(out).toContain(
      `not run: src/m.graphql:1 AddTask: POST ${origin.url}/graphql/v5 answered HTTP 307, a redirect to ${elsewhere.url}/graphql/v5: verify follows no redirect and sends requests only to ${origin.url} (--url); give the address the server means as --url\n`,
    );
    expect(out).toContain(`not run: src/q.graphql:1 Users: POST ${origin.url}/graphql/v5 answered HTTP 307, a redirect to ${origin.url}/moved/graphql/v5: verify follows no redirect`);
    expect(out).toContain('not proven: 2 of 2 operations not run: 2 were redirected (verify follows no redirect: give --url the address they point to)\n');
    expect(code).toBe(5);
    const report = JSON.parse(readFileSync(join(root, 'verify.json'), 'utf8')) as { documents: { operation: string; verdict: string; cause: string }[] };
    expect(report.documents.map((d) => [d.operation, d.verdict, d.cause]).sort()).toEqual([
      ['AddTask', 'not run', 'redirected'],
      ['Users', 'not run', 'redirected'],
    ]);
    // Each operation was sent once, to the endpoint --url names, and never on.
    expect(atOrigin.map((r) => r.path).sort()).toEqual(['/graphql', '/graphql/v5', '/graphql/v5']);
    expect(atElsewhere).toEqual([]);
  });

  it('still runs everything against a server that does not redirect (the same servers, exit 0)', async () => {
    behaviour = () => 'serve';
    const { code, out } = await cli('src', '--url', origin.url, '--mutations', '--target-env', 'local-dev');
    expect(out).toContain('same: src/q.graphql:1 Users\n');
    expect(out).toContain('same: src/m.graphql:1 AddTask\n');
    expect(code).toBe(0);
  });
});

describe('verify --url reads no answer past --max-response-bytes', () => {
  it('aborts an endless answer at the cap: not run, cause "oversized", and the server saw the request dropped', async () => {
    behaviour = (r, res) => (isIntrospection(r) ? 'serve' : (streams.push(endless(res)), 'handled'));
    const cap = 64 * 1024;
    const { code, out } = await cli('src/q.graphql', '--url', origin.url, '--max-response-bytes', String(cap), '--report', 'verify.json');
    expect(out).toContain(`not run: src/q.graphql:1 Users: POST ${origin.url}/graphql/v5: the answer is larger than ${cap} bytes (--max-response-bytes): verify stopped reading it\n`);
    expect(out).toContain('not proven: 1 of 1 operations not run: 1 got an answer larger than --max-response-bytes\n');
    expect(code).toBe(5);
    expect(JSON.parse(readFileSync(join(root, 'verify.json'), 'utf8')).documents[0].cause).toBe('oversized');
    expect(streams).toHaveLength(1);
    await streams[0]!.closed;
    // The client hung up: the server never reached the end it would have sent, and what it wrote
    // past the cap is what the sockets' buffers hold, not what a read to the end would have taken.
    expect(streams[0]!.ended).toBe(false);
    expect(streams[0]!.written).toBeGreaterThan(cap);
    expect(streams[0]!.written).toBeLessThan(LIMIT / 4);
  });

  it('aborts an endless introspection at the default cap of 8 MiB: one line, exit 1', async () => {
    behaviour = (r, res) => (isIntrospection(r) ? (streams.push(endless(res)), 'handled') : 'serve');
    const { code, err } = await cli('src/q.graphql', '--url', origin.url);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(8 * 2 ** 20);
    expect(err).toBe(`ergraph-migrate: POST ${origin.url}/graphql: the answer is larger than ${DEFAULT_MAX_RESPONSE_BYTES} bytes (--max-response-bytes): verify stopped reading it\n`);
    expect(code).toBe(1);
    await streams[0]!.closed;
    expect(streams[0]!.ended).toBe(false);
    expect(streams[0]!.written).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES);
  });

  it('takes --max-response-bytes with --url only, as a whole number; --url as a bare base address (usage, exit 2)', async () => {
    for (const [argv, said] of [
      [['--app', 'app.ts', '--max-response-bytes', '1000'], '--max-response-bytes bounds the answers of a --url server'],
      [['--url', origin.url, '--max-response-bytes', '0'], '--max-response-bytes must be a whole number of bytes, at least 1: 0'],
      [['--url', origin.url, '--max-response-bytes', 'lots'], '--max-response-bytes must be a whole number of bytes'],
      [['--url', `${origin.url}/?to=`], '--url names the server\'s base address, without credentials, query or fragment'],
    ] as const) {
      const { code, err } = await cli('src', ...argv);
      expect(err).toContain(said);
      expect(code).toBe(2);
    }
    expect(atOrigin).toEqual([]);
  });
});
