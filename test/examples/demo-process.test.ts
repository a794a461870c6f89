/**
 * The demo as a newcomer runs it: `npm run demo -- --port N` as a process tree (npm → node), on a
 * PGlite data directory of its own. One process per directory; --port honoured; 127.0.0.1 by
 * default; a busy port is one line; SIGTERM to npm stops it and what was written survives.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../examples/demo/database.js';
import { DEMO_MUTATION } from '../../examples/demo/graph.js';
import { ensureSeeded } from '../../examples/demo/seed.js';

const TINY = { users: 6, projects: 6, tasks: 30, comments: 30, tags: 6 };
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

async function ready(run: Run): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const match = /(http:\/\/[^/\s]+)\/ · GraphiQL/.exec(run.output());
    if (match) return match[1]!;
    if (run.child.exitCode !== null) throw new Error(`demo exited: ${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`demo not ready: ${run.output()}`);
}

const problemLines = (output: string) => output.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l));

describe('npm run demo, as processes', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ergraph-demo-'));
    dataDir = join(dir, 'pglite');
    // Seed a tiny data set first, so the runs below start in seconds.
    const database = await openDatabase({ dataDir });
    await ensureSeeded(database.db, TINY);
    await database.close();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves on 127.0.0.1, refuses a second process, stops on SIGTERM to npm, and keeps what was written', async () => {
    const first = npmDemo(dataDir, ['--port', '0']);
    const base = await ready(first);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

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

    const second = npmDemo(dataDir, ['--port', '0']);
    expect(await second.exited).toBe(1);
    expect(problemLines(second.output())).toEqual([
      expect.stringMatching(new RegExp(`^ergraph demo: another demo \\(pid \\d+\\) is using ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; stop it first`)),
    ]);

    first.child.kill('SIGTERM'); // npm itself, as a process manager or a terminal would signal it
    expect(await first.exited).not.toBeNull();
    for (let i = 0; i < 100 && existsSync(`${dataDir}.lock`); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(`${dataDir}.lock`), 'the demo process itself stopped and released its lock').toBe(false);

    const again = npmDemo(dataDir, ['--port', '0']);
    const base2 = await ready(again);
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
  }, 120_000);

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
