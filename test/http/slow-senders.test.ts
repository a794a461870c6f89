/**
 * Slow senders cannot hold the connection cap (issue 45.5): a request arriving slower than the
 * minimum rate is cut once the grace period has passed, and at the cap the connection that has
 * gone longest without a byte gives way to the new one. Time here is vitest's fake clock
 * (`performance.now()` and the rate check's `setInterval`), advanced by the test; every other
 * wait is on an event or on a count the server's sockets show.
 */
import { createServer } from 'node:http';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitServer, serveApp, serverOptions, type ServedApp } from 'ergraph/http';
import { open, serverEnds, until, type RawConnection } from '../support/server-limits.js';

const started: ServedApp[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/**
 * The rate check's timer and clock are fake; sockets, setImmediate and setTimeout are real. The
 * apps' body reads fail when a connection is cut (Hono logs each): kept out of the output.
 */
function fakeClock() {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
}

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

const upload = (length: number) => `POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n\r\n`;

/** A GET from another loopback address (another client), answered and closed. */
async function probe(port: number): Promise<string> {
  const c = await open(port, '127.0.0.2');
  c.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await c.closed;
  return c.received();
}

describe('the minimum data rate, with no options (240 bytes/s after 5 s)', () => {
  it('cuts a request arriving slower with 408 once 5 s have passed, and not before; one arriving at 240 bytes/s is served', async () => {
    fakeClock();
    const served = await start(plainApp());
    const ends = serverEnds(served.server);
    const head = upload(2_000);
    // Headers alone; 240 bytes a second, headers included, less one byte; exactly 240 bytes a second.
    const [idle, under, steady] = [await open(served.port), await open(served.port), await open(served.port)];
    const clients = [idle, under, steady];
    for (const c of clients) c.socket.write(head);
    const filler = (c: RawConnection, total: number) => c.socket.write('x'.repeat(total - c.socket.bytesWritten));
    for (let second = 1; second <= 5; second++) {
      filler(steady, 240 * second);
      filler(under, 240 * second - (second === 5 ? 1 : 0));
      await until(() => ends.hasRead(clients));
      vi.advanceTimersByTime(second < 5 ? 1_000 : 999);
    }
    const [idleEnd, underEnd, steadyEnd] = await Promise.all(clients.map((c) => ends.of(c)));
    expect([idleEnd.destroyed, underEnd.destroyed]).toEqual([false, false]); // 4,999 ms: still in their grace period
    vi.advanceTimersByTime(1);
    expect([idleEnd.destroyed, underEnd.destroyed, steadyEnd.destroyed]).toEqual([true, true, false]);
    for (const c of [idle, under]) {
      await c.closed;
      expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    }

    filler(steady, head.length + 2_000);
    await steady.closed;
    expect(steady.received()).toMatch(/^HTTP\/1\.1 200[^]*got 2000$/);
  });

  it('does not count the time the app leaves a body unread', async () => {
    fakeClock();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const app = plainApp();
    app.post('/later', async (c) => {
      await released;
      return c.text(`got ${(await c.req.text()).length}`);
    });
    const served = await start(app);
    const held = new Promise<import('node:http').IncomingMessage>((resolve) => served.server.once('request', resolve));
    const client = await open(served.port);
    client.socket.write(`POST /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(64_000)}`);
    const req = await held;
    await until(() => req.readableLength >= req.readableHighWaterMark);
    // Ten minutes in which the client could not send (the app reads nothing): 64 kB in 600 s would be 107 bytes/s.
    vi.advanceTimersByTime(600_000);
    expect(req.socket.destroyed).toBe(false);
    release();
    client.socket.write('x'.repeat(36_000));
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200[^]*got 100000$/);
  });

  it('leaves a connection upgraded to another protocol alone', async () => {
    fakeClock();
    const server = createServer(serverOptions());
    const limited = limitServer(server);
    server.on('upgrade', (_req, socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const ends = serverEnds(server);
    const client = await open((server.address() as { port: number }).port);
    const switched = new Promise<void>((resolve) => client.socket.once('data', () => resolve()));
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
    await switched;
    const end = await ends.of(client);
    vi.advanceTimersByTime(60_000);
    expect(end.destroyed).toBe(false);
    vi.useRealTimers();
    end.destroy(); // no longer HTTP: neither Node's close() nor this package's closes it
    await limited.close();
  });
});

describe('the connection cap (1,000 with no options)', () => {
  it('one client holding 1,100 slow sockets that reconnect: the ones longest without a byte give way, another client is served throughout, and the rate closes the rest', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fakeClock();
    // Only Node's own timeouts (real time) are an hour here, so that nothing but the fake clock closes a socket.
    const hour = 3_600_000;
    const served = await start(plainApp(), { headersTimeoutMs: hour, requestTimeoutMs: hour, socketTimeoutMs: hour });
    const ends = serverEnds(served.server);
    const head = `${upload(1_000)}x`;
    const stillOpen = () => ends.all.filter((s) => !s.destroyed).length;
    const attacker: RawConnection[] = [];
    async function attack(): Promise<RawConnection> {
      const c = await open(served.port);
      c.socket.write(head);
      attacker.push(c);
      return c;
    }

    // 1,000 slow uploads fill the cap; a rate check (at 1 s) sees them all.
    for (let i = 0; i < 1_000; i++) await attack();
    await until(() => ends.all.length === 1_000 && ends.all.every((s) => s.bytesRead === head.length));
    vi.advanceTimersByTime(1_000);
    // The first hundred send a byte more, and a check (at 2 s) sees that.
    for (const c of attacker.slice(0, 100)) c.socket.write('x');
    await until(() => ends.all.slice(0, 100).every((s) => s.bytesRead === head.length + 1));
    vi.advanceTimersByTime(1_000);

    // A hundred more: each closes the one that went longest without a byte (the 101st to 200th), with 503.
    for (let i = 0; i < 100; i++) await attack();
    const gaveWay = attacker.slice(100, 200);
    await Promise.all(gaveWay.map((c) => c.closed));
    for (const c of gaveWay) expect(c.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(stillOpen()).toBe(1_000);
    expect(attacker.filter((c) => c.socket.destroyed)).toHaveLength(100);

    // The hundred reconnect while another client sends five requests: each of those is served, and
    // at no accept are more than 1,000 connections left open.
    let most = 0;
    served.server.on('connection', () => (most = Math.max(most, stillOpen())));
    const reconnected = Promise.all(gaveWay.map(() => attack()));
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push(await probe(served.port));
    await reconnected;
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200[^]*ok$/);
    await until(() => ends.all.length === 1_205);
    expect(most).toBe(1_000);
    const left = stillOpen();
    expect(attacker.filter((c) => !c.socket.destroyed).length).toBeGreaterThanOrEqual(left);

    // Every attacker socket sends a byte every 2 s: far below 240 bytes/s. The reconnected ones came
    // at 2 s, so by 7 s each has had its 5 s of grace and is cut with 408.
    // (Each byte is read before the clock moves: a socket closed with unread input ends in a reset
    // that may throw away the 408 before the client reads it.)
    for (let second = 3; second <= 7; second++) {
      const alive = attacker.filter((c) => !c.socket.destroyed);
      if (second % 2 === 1) for (const c of alive) c.socket.write('x');
      await until(() => ends.hasRead(alive));
      vi.advanceTimersByTime(1_000);
    }
    await Promise.all(attacker.map((c) => c.closed));
    expect(attacker.filter((c) => /^HTTP\/1\.1 408 /.test(c.received()))).toHaveLength(left);
    expect(attacker.filter((c) => /^HTTP\/1\.1 503 /.test(c.received()))).toHaveLength(1_200 - left);
    expect(stillOpen()).toBe(0);
    expect(await probe(served.port)).toMatch(/^HTTP\/1\.1 200[^]*ok$/);
  }, 120_000);
});

describe('the connection cap (small, to keep the test quick)', () => {
  function streamingApp() {
    let entered = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const app = plainApp();
    app.get('/hang', async (c) => {
      entered++;
      await released;
      return c.text('late');
    });
    // An answer the app keeps producing: only a client that reads lets it go on.
    app.get('/endless', () => new Response(new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(65_536)) })));
    return { app, entered: () => entered, release };
  }

  it('refuses a new connection when every open one waits for the app, and says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app, entered, release } = streamingApp();
    const served = await start(app, { maxConnections: 2 });
    const waiting = [await open(served.port), await open(served.port)];
    for (const c of waiting) c.socket.write('GET /hang HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await until(() => entered() === 2);
    const refused = [await open(served.port), await open(served.port)];
    for (const c of refused) c.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await Promise.all(refused.map((c) => c.closed));
    expect(refused.map((c) => c.received())).toEqual(['', '']);
    expect(warn.mock.calls).toEqual([['ergraph: 2 connections open (maxConnections); every one waits for the app: refusing new ones until some close']]);
    release();
    await Promise.all(waiting.map((c) => c.closed));
    for (const c of waiting) expect(c.received()).toMatch(/^HTTP\/1\.1 200[^]*late$/);
    expect(await probe(served.port)).toMatch(/^HTTP\/1\.1 200/);
  });

  it('lets a client that stops reading its answer give way', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app } = streamingApp();
    const served = await start(app, { maxConnections: 1 });
    const ends = serverEnds(served.server);
    const reader = await open(served.port);
    reader.socket.pause();
    reader.socket.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n');
    const end = await ends.of(reader);
    await until(() => end.writableLength > 0);
    expect(await probe(served.port)).toMatch(/^HTTP\/1\.1 200[^]*ok$/);
    expect(end.destroyed).toBe(true);
  });
});
