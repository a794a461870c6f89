/**
 * The demo as a newcomer runs it: `npm run demo -- --port N` as a process tree (npm → node), on a
 * PGlite data directory of its own. The first start says what it is doing while it creates and
 * seeds the database; one process per directory; --port honoured; 127.0.0.1 by default; a busy
 * port is one line; the ready lines name every page, and `compat report` on the directory the demo
 * holds points at the demo's usage page; SIGTERM to npm stops it and what was written survives.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MUTATION } from '../../examples/demo/graph.js';
import { open } from '../support/server-limits.js';

const root = join(import.meta.dirname, '..', '..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npmDemo(dataDir: string, args: string[]): Run {
  const child = spawn('npm', ['run', '--silent', 'demo', '--', ...args], {
    cwd: root,
    env: { ...process.env, DEMO_DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the base URL once the ready line is printed; rejects if the demo exits first. */
function ready(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /(http:\/\/[^/\s]+)\/ · GraphiQL/.exec(run.output());
      if (match) {
        run.child.stdout!.off('data', check);
        resolve(match[1]!);
      }
    };
    run.child.stdout!.on('data', check);
    void run.exited.then(() => reject(new Error(`demo exited: ${run.output()}`)));
    check();
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const problemLines = (output: string) => output.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l));

describe('npm run demo, as processes', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ergraph-demo-'));
    dataDir = join(dir, 'pglite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says what a first start does, serves on 127.0.0.1, refuses a second process, stops on SIGTERM to npm, and keeps what was written', async () => {
    const first = npmDemo(dataDir, ['--port', '0']);
    const base = await ready(first);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Each step of a first start is printed when it starts or ends, not only the ready line.
    expect(problemLines(first.output()).slice(0, 4)).toEqual([
      `ergraph demo: first start: creating the embedded database (PGlite) in ${dataDir}; later starts reuse it`,
      expect.stringMatching(/^ergraph demo: database created in \d+\.\d s$/),
      expect.stringMatching(/^ergraph demo: seeding users 300, projects 600, tasks 6,000, comments 18,000, tags 24, task_tags [\d,]+ \(\d+\.\d s\)$/),
      expect.stringMatching(/^ergraph demo on PGlite in .* \(seeded now\), ready in \d+ ms$/),
    ]);

    const created = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: DEMO_MUTATION }),
    }).then((r) => r.json() as Promise<{ data: { Task: { create: { id: number; title: string } } }; errors: unknown }>);
    expect(created.errors).toBeNull();
    expect(created.data.Task.create.title).toBe('Try ergraph');
    const comment = await fetch(`${base}/api/task_service/addComment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': '2' },
      body: JSON.stringify({ taskId: created.data.Task.create.id, body: 'still here after a restart' }),
    });
    expect(comment.status).toBe(200);
    const v5 = await fetch(`${base}/graphql/v5`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-name': 'demo-test' },
      body: JSON.stringify({ query: '{ userGetAll(limit: 1) { id } }' }),
    });
    expect(v5.status).toBe(200);

    // The ready lines name every page; the lock of the data directory names the usage report, so
    // `compat report` on the directory the demo holds points there instead of opening it.
    const lines = problemLines(first.output());
    expect(lines[4]).toBe(`${base}/ · GraphiQL: ${base}/graphql · ER diagram: ${base}/er · API docs: ${base}/docs · MCP: ${base}/mcp`);
    expect(lines[5]).toBe(`v5 compat: ${base}/graphql/v5 · who still calls it: ${base}/graphql/v5/usage`);
    const refused = spawnSync(process.execPath, [join(root, 'bin', 'ergraph.js'), 'compat', 'report', '--database', `pglite:${dataDir}`], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^ergraph: ${escape(dataDir)} is open in process \\d+ .*: open the same report at ${escape(base)}/graphql/v5/usage, or stop that process`));

    const second = npmDemo(dataDir, ['--port', '0']);
    expect(await second.exited).toBe(1);
    expect(problemLines(second.output())).toEqual([
      expect.stringMatching(new RegExp(`^ergraph demo: another demo \\(pid \\d+\\) is using ${escape(dataDir)}; stop it first`)),
    ]);

    // A kept-alive connection left open by a browser does not hold the shutdown: it is closed.
    const kept = await open(Number(new URL(base).port));
    const answered = new Promise<void>((resolve) => kept.socket.once('data', () => resolve()));
    kept.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await answered;
    first.child.kill('SIGTERM'); // npm itself, as a process manager or a terminal would signal it
    expect(await first.exited).not.toBeNull();
    await kept.closed;
    // npm has exited; the demo under it may still be closing its database: it stops and releases
    // its lock (were it not to, the test's timeout ends this wait).
    while (existsSync(`${dataDir}.lock`)) await new Promise((r) => setTimeout(r, 100));

    const again = npmDemo(dataDir, ['--port', '0']);
    const base2 = await ready(again);
    expect(problemLines(again.output())[0]).toMatch(/^ergraph demo on PGlite in .*, ready in \d+ ms$/); // nothing to create or seed
    expect(again.output()).not.toContain('(seeded now)');
    const read = await fetch(`${base2}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ Task { byId(id: ${created.data.Task.create.id}) { title comments { items { body author { id } } } } } }`,
      }),
    }).then((r) => r.json() as Promise<{ data: { Task: { byId: { title: string; comments: { items: unknown[] } } } } }>);
    expect(read.data.Task.byId).toEqual({ title: 'Try ergraph', comments: { items: [{ body: 'still here after a restart', author: { id: 2 } }] } });
    // v5 use counted before the restart was written at shutdown and is in the report after it.
    const report = (await fetch(`${base2}/graphql/v5/usage`, { headers: { accept: 'application/json' } }).then((r) => r.json())) as {
      fields: { coordinate: string; clients: { client: string; count: number }[] }[];
    };
    expect(report.fields.find((f) => f.coordinate === 'Query.userGetAll')?.clients).toEqual([expect.objectContaining({ client: 'demo-test', count: 1 })]);
    again.child.kill('SIGINT');
    await again.exited;
  }, 400_000); // a first start runs PostgreSQL's initdb: tens of seconds, minutes at a load of 20

  it('says in one line that a port is busy', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = npmDemo(dataDir, ['--port', String(port)]);
      expect(await run.exited).toBe(1);
      expect(problemLines(run.output())).toEqual([`ergraph demo: port ${port} on 127.0.0.1 is already in use (pick another: npm run demo -- --port ${port + 1})`]);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
