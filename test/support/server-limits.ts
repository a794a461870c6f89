/**
 * Checks of the server limits shared by the tests of every server the package starts (`ergraph
 * serve`, `ergraph mcp --http`, the demo): raw sockets, so what the server does to a connection
 * is seen as it happens. Every wait is on an event (a close, a 'connection') or on a count the
 * server's sockets show (`until`), never on a timer.
 */
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { ServedApp } from '../../src/http/index.js';

export interface RawConnection {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

/** A raw connection to 127.0.0.1 (from `localAddress`, another loopback address, to act as another client). */
export function open(port: number, localAddress?: string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    // A refused connection may end in a reset: that is the refusal, not a test failure.
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** The limits as the built server holds them (Node's own, and this package's), in the units of docs/graphql.md's table. */
export function limitsOf({ server, limits }: ServedApp) {
  return {
    headersTimeoutMs: server.headersTimeout,
    requestTimeoutMs: server.requestTimeout,
    keepAliveTimeoutMs: server.keepAliveTimeout,
    socketTimeoutMs: server.timeout,
    maxConnections: limits.maxConnections,
    minRequestBytesPerSecond: limits.minRequestBytesPerSecond,
    requestRateGraceMs: limits.requestRateGraceMs,
    shutdownTimeoutMs: limits.shutdownTimeoutMs,
  };
}

/** What docs/graphql.md promises (written out, not read from DEFAULT_SERVER_LIMITS). */
export const DOCUMENTED_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  socketTimeoutMs: 60_000,
  maxConnections: 1_000,
  minRequestBytesPerSecond: 240,
  requestRateGraceMs: 5_000,
  shutdownTimeoutMs: 10_000,
};

/** A GET answered on a kept-alive connection, then the server's close of it once idle. */
export async function idleConnection(port: number, path = '/'): Promise<string> {
  const c = await open(port);
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await c.closed;
  return c.received();
}

/** A client that never finishes its headers: what it received before the server closed it. */
export async function slowHeaders(port: number): Promise<string> {
  const c = await open(port);
  c.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  await c.closed;
  return c.received();
}

/**
 * Opens `cap` connections that send nothing (all accepted), then one more that asks for `path`:
 * what that one received, and the first one, which gave way to it.
 */
export async function atCap(server: Server, port: number, cap: number, path = '/'): Promise<{ received: string; gaveWay: RawConnection; held: RawConnection[] }> {
  let accepted = 0;
  server.on('connection', () => accepted++);
  const held: RawConnection[] = [];
  for (let i = 0; i < cap; i++) held.push(await open(port));
  await until(() => accepted === cap);
  const extra = await open(port);
  extra.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  await extra.closed;
  const gaveWay = held[0]!;
  await gaveWay.closed;
  return { received: extra.received(), gaveWay, held };
}

/** An upload whose body never comes: resolves once the server has the request in hand. */
export async function uploadInFlight(server: Server, port: number, path: string): Promise<RawConnection> {
  const requested = new Promise<void>((resolve) => server.once('request', () => resolve()));
  const c = await open(port);
  c.socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`);
  await requested;
  return c;
}

/** Resolves once `condition` holds, looking again after each turn of the event loop (never on a timer: fake timers leave it alone). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The server's end of each client connection, found by the client's port. */
export function serverEnds(server: Server): { of(client: RawConnection): Promise<Socket>; all: Socket[]; hasRead(clients: RawConnection[]): boolean } {
  const all: Socket[] = [];
  const byPeer = new Map<string, Socket>();
  server.on('connection', (socket: Socket) => {
    all.push(socket);
    byPeer.set(`${socket.remoteAddress}:${socket.remotePort}`, socket);
  });
  const peer = (client: RawConnection) => `${client.socket.localAddress}:${client.socket.localPort}`;
  return {
    all,
    async of(client) {
      await until(() => byPeer.has(peer(client)));
      return byPeer.get(peer(client))!;
    },
    /** Whether the server has read every byte these clients wrote (those closed at either end aside). */
    hasRead(clients) {
      return clients.every((c) => {
        if (c.socket.destroyed) return true;
        const end = byPeer.get(peer(c));
        return end !== undefined && (end.destroyed || end.bytesRead === c.socket.bytesWritten);
      });
    },
  };
}
