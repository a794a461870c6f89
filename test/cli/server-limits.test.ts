/**
 * The servers the package starts — `ergraph serve`, `ergraph mcp --http` and the demo — each with
 * the package's server limits: started with no options they hold the documented defaults; with
 * small limits (only to keep the test quick) an idle connection is closed, a connection at the cap
 * closes the one longest without a byte, a client that never finishes its headers is cut, and the command's own shutdown
 * ends while an upload is still in flight. Every wait is on an event.
 */
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedApp, ServerLimits } from 'ergraph/http';
import { mcpCommand, startMcpHttp } from '../../cli/mcp.js';
import { serveCommand, startServe } from '../../cli/serve.js';
import { createApp } from '../../examples/demo/app.js';
import { openDatabase, type DemoDatabase } from '../../examples/demo/database.js';
import { buildGraph } from '../../examples/demo/graph.js';
import { serveDemo } from '../../examples/demo/server.js';
import { atCap, DOCUMENTED_LIMITS, idleConnection, limitsOf, open, slowHeaders, uploadInFlight, type RawConnection } from '../support/server-limits.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const io = { cwd: root, stdout: { write: () => undefined }, stderr: { write: () => undefined } };
const host = '127.0.0.1';

let database: DemoDatabase;
let demoApp: Hono;
let demoClosed = 0;
beforeAll(async () => {
  database = await openDatabase();
  demoApp = createApp(buildGraph(database.db), database.db);
}, 60_000);
afterAll(async () => database?.close());

interface Subject {
  name: string;
  /** A path that takes a POST body. */
  post: string;
  start(limits?: ServerLimits): Promise<ServedApp>;
  /** The whole command: listen, wait for `stopped`, shut down. */
  run(limits: ServerLimits, stopped: (listening: ServedApp) => Promise<unknown>): Promise<void>;
}

const serveArgs = { app: 'test/cli/fixtures/two-apps.ts', host, port: 0, v5Compat: false, mutations: false, allowedHosts: [] };
const mcpArgs = { app: 'test/mcp/fixtures/app.ts', http: true, host, port: 0, path: '/mcp', v5Compat: false, mutations: false, allowedHosts: [] };
// The demo's shutdown closes the database: a stand-in that counts, so one database serves every test.
const demoDatabase = () => ({ ...database, close: async () => void demoClosed++ });

const subjects: Subject[] = [
  {
    name: 'ergraph serve',
    post: '/tasks/graphql',
    start: (limits) => startServe(serveArgs, io, limits),
    run: (limits, stopped) => serveCommand(serveArgs, io, { limits, stopped }),
  },
  {
    name: 'ergraph mcp --http',
    post: '/mcp',
    start: (limits) => startMcpHttp(mcpArgs, io, limits),
    run: (limits, stopped) => mcpCommand(mcpArgs, io, { limits, stopped }),
  },
  {
    name: 'the demo',
    post: '/graphql',
    start: async (limits) => (await serveDemo(demoApp, demoDatabase(), undefined, { hostname: host, port: 0, limits })).served,
    async run(limits, stopped) {
      const demo = await serveDemo(demoApp, demoDatabase(), undefined, { hostname: host, port: 0, limits });
      await stopped(demo.served);
      await demo.stop(); // what main.ts calls on SIGINT/SIGTERM
    },
  },
];

describe.each(subjects)('$name', (subject) => {
  it('holds the documented limits when started with no options', async () => {
    const served = await subject.start();
    try {
      expect(limitsOf(served)).toEqual(DOCUMENTED_LIMITS);
    } finally {
      await served.close();
    }
  });

  it('closes an idle kept-alive connection, makes room at the cap by closing the connection longest without a byte, and cuts a client that never finishes its headers', async () => {
    const served = await subject.start({ keepAliveTimeoutMs: 50, maxConnections: 3, headersTimeoutMs: 100, requestTimeoutMs: 200 });
    try {
      expect(await idleConnection(served.port)).toMatch(/^HTTP\/1\.1 \d{3}[^]*keep-alive/i);
      expect(await slowHeaders(served.port)).toMatch(/^HTTP\/1\.1 408/);
      const { received, gaveWay, held } = await atCap(served.server, served.port, 3);
      expect(received).toMatch(/^HTTP\/1\.1 \d{3}/);
      expect(gaveWay.received()).toBe('');
      for (const c of held) c.socket.destroy();
    } finally {
      await served.close();
    }
  }, 30_000);

  it('shuts down within shutdownTimeoutMs while an upload is in flight and a kept-alive connection is open', async () => {
    let upload!: RawConnection;
    let idle!: RawConnection;
    const before = demoClosed;
    // Limits that would hold the connections for an hour: only the shutdown bound ends them.
    await subject.run({ shutdownTimeoutMs: 100, requestTimeoutMs: 3_600_000, keepAliveTimeoutMs: 3_600_000, socketTimeoutMs: 3_600_000 }, async (listening) => {
      idle = await open(listening.port);
      const answered = new Promise<void>((resolve) => idle.socket.once('data', () => resolve()));
      idle.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await answered;
      upload = await uploadInFlight(listening.server, listening.port, subject.post);
    });
    await Promise.all([upload.closed, idle.closed]);
    expect(upload.received()).toBe('');
    if (subject.name === 'the demo') expect(demoClosed).toBe(before + 1);
  }, 30_000);
});
