/**
 * The limits of the servers the package starts (`serveApp` / `limitServer`, used by `ergraph
 * serve`, `ergraph mcp --http` and the demo): header and request timeouts that cut slow clients, idle connections closed, and a shutdown that ends within its
 * bound while a request hangs. Every wait here is on an event; the small limits only keep it quick.
 */
import { open } from '../support/server-limits.js';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_LIMITS, limitServer, serveApp, serverOptions, type ServedApp } from 'ergraph/http';
import { createServer } from 'node:http';

const started: ServedApp[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function start(app: Hono, options: Parameters<typeof serveApp>[1] = {}) {
  const served = await serveApp(app, options);
  started.push(served);
  return served;
}

function plainApp() {
  const app = new Hono();
  app.get('/', (c) => c.text('ok'));
  app.post('/upload', async (c) => c.text(`got ${(await c.req.text()).length}`));
  return app;
}

describe('serveApp with no options', () => {
  it('sets every default limit on the server, on loopback', async () => {
    const served = await start(plainApp());
    const { server } = served;
    expect(DEFAULT_SERVER_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      socketTimeoutMs: 60_000,
      maxConnections: 1_000,
      minRequestBytesPerSecond: 240,
      requestRateGraceMs: 5_000,
      shutdownTimeoutMs: 10_000,
    });
    expect(served.limits).toEqual(DEFAULT_SERVER_LIMITS);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.timeout).toBe(60_000);
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
    expect(await (await fetch(served.url)).text()).toBe('ok');
  });
  // The cap and the minimum data rate with no options: slow-senders.test.ts.
});

describe('timeouts (small limits, to keep the test quick)', () => {
  it('cuts a slow upload at the request timeout with 408', async () => {
    const served = await start(plainApp(), { headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const upload = await open(served.port);
    upload.socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n0123456789');
    await upload.closed;
    expect(upload.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a client that never finishes its headers with 408', async () => {
    const served = await start(plainApp(), { headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const slow = await open(served.port);
    slow.socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a kept-alive connection once it has been idle for keepAliveTimeoutMs', async () => {
    const served = await start(plainApp(), { keepAliveTimeoutMs: 50 });
    const idle = await open(served.port);
    idle.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await idle.closed;
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200[^]*keep-alive/i);
  });

  it('passes the timeout-check interval to http.createServer, and refuses nonsense limits', () => {
    expect(serverOptions({ headersTimeoutMs: 100, requestTimeoutMs: 200 })).toMatchObject({ headersTimeout: 100, requestTimeout: 200, connectionsCheckingInterval: 25 });
    expect(serverOptions().connectionsCheckingInterval).toBe(1_000);
    expect(() => serverOptions({ maxConnections: 0 })).toThrow('maxConnections must be a whole number of at least 1, got 0');
    expect(() => serverOptions({ headersTimeoutMs: 500, requestTimeoutMs: 100 })).toThrow('headersTimeoutMs (500) must not exceed requestTimeoutMs (100)');
  });
});

describe('shutdown', () => {
  function hangingApp() {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const app = plainApp();
    app.get('/hang', async () => {
      entered();
      return new Promise<Response>(() => undefined);
    });
    return { app, inside };
  }

  it('ends within shutdownTimeoutMs while a request hangs, closing its connection', async () => {
    const { app, inside } = hangingApp();
    const served = await start(app, { shutdownTimeoutMs: 150 });
    const hanging = await open(served.port);
    hanging.socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n');
    await inside;
    const t0 = performance.now();
    await served.close();
    // It waited for the request (a shutdown is graceful) and then cut it.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    await hanging.closed;
    expect(served.server.listening).toBe(false);
    // A second call is the same shutdown.
    await served.close();
  });

  it('does not wait for its bound when requests finish: kept-alive connections close as they go idle', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const app = plainApp();
    app.get('/slow', async (c) => {
      entered();
      await new Promise<void>((resolve) => (release = resolve));
      return c.text('late');
    });
    // A bound this test would never outlive: closing must not wait for it.
    const served = await start(app, { shutdownTimeoutMs: 3_600_000, keepAliveTimeoutMs: 3_600_000, requestTimeoutMs: 3_600_000, socketTimeoutMs: 3_600_000 });
    const idle = await open(served.port);
    idle.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const busy = await open(served.port);
    busy.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await inside;
    const closing = served.close();
    await idle.closed;
    release();
    await busy.closed;
    await closing;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200[^]*late$/);
  }, 30_000);

  it('limitServer bounds the shutdown of a server the app created itself', async () => {
    const server = createServer(serverOptions(), () => undefined); // every request hangs
    const limited = limitServer(server, { shutdownTimeoutMs: 100 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const requested = new Promise<void>((resolve) => server.once('request', () => resolve()));
    const hanging = await open(port);
    hanging.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await requested;
    await limited.close();
    await hanging.closed;
    expect(limited.limits).toEqual({ ...DEFAULT_SERVER_LIMITS, shutdownTimeoutMs: 100 });
  });
});
