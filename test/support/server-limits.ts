/**
 * Checks of the server limits shared by the tests of every server the package starts (`ergraph
 * serve`, `ergraph mcp --http`, the demo): raw sockets, so what the server does to a connection
 * is seen as it happens. Every wait is on an event (a close, a 'connection' or 'drop').
 */
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';

export interface RawConnection {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

export function open(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
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

/** The limits as the built server holds them, in the units of the README's table. */
export function limitsOf(server: Server) {
  return {
    headersTimeoutMs: server.headersTimeout,
    requestTimeoutMs: server.requestTimeout,
    keepAliveTimeoutMs: server.keepAliveTimeout,
    socketTimeoutMs: server.timeout,
    maxConnections: server.maxConnections,
  };
}

/** What docs/graphql.md promises (written out, not read from DEFAULT_SERVER_LIMITS). */
export const DOCUMENTED_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  socketTimeoutMs: 60_000,
  maxConnections: 1_000,
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

/** Opens `cap` connections (all accepted), then one more: what that one received before it was closed. */
export async function beyondCap(server: Server, port: number, cap: number): Promise<{ received: string; held: RawConnection[] }> {
  let accepted = 0;
  const allAccepted = new Promise<void>((resolve) => {
    const onConnection = () => {
      if (++accepted === cap) {
        server.off('connection', onConnection);
        resolve();
      }
    };
    server.on('connection', onConnection);
  });
  const held: RawConnection[] = [];
  for (let i = 0; i < cap; i++) held.push(await open(port));
  await allAccepted;
  const dropped = new Promise<void>((resolve) => server.once('drop', () => resolve()));
  const extra = await open(port);
  extra.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await dropped;
  await extra.closed;
  return { received: extra.received(), held };
}

/** An upload whose body never comes: resolves once the server has the request in hand. */
export async function uploadInFlight(server: Server, port: number, path: string): Promise<RawConnection> {
  const requested = new Promise<void>((resolve) => server.once('request', () => resolve()));
  const c = await open(port);
  c.socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`);
  await requested;
  return c;
}
