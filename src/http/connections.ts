/**
 * The connection cap and the minimum data rate of a Node HTTP server (serve.ts applies them).
 *
 * Node's own `maxConnections` refuses the newest connection, so clients that open sockets and
 * then send slowly (or not at all) hold the cap and lock every other client out. Here the cap
 * is counted on the 'connection' event instead, and at the cap the connection that has gone
 * longest without a byte either way gives way — among those not waiting for the app's answer
 * (an idle keep-alive connection, a client sending its request slowly, a client not reading the
 * answer the app has finished). A new client sends its request at once, so it is never the
 * one chosen; only when every connection waits for the app is the new one refused.
 *
 * Bytes are counted per request, from its first byte (a new connection: from its accept) until
 * the whole request is in (as Kestrel's MinRequestBodyDataRate, for the headers as well): once
 * the grace period has passed, a request arriving slower on average than the minimum rate gets
 * 408 and its connection is closed. Time the app leaves a body unread (its stream is full) does
 * not count against the client.
 *
 * Both written here rather than taken from a library: Node has no rate limit on receiving, and
 * the proxies that have one (nginx's `client_body_timeout`, Kestrel's rates) are not a module.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionPolicy {
  maxConnections: number;
  minRequestBytesPerSecond: number;
  requestRateGraceMs: number;
}

interface Receiving {
  /** When the request's first byte was seen (for a new connection, its accept). */
  since: number;
  /** `socket.bytesRead` before the request's first byte. */
  from: number;
}

interface Connection {
  socket: Socket;
  request?: { req: IncomingMessage; res: ServerResponse };
  /** Set while the client is sending a request: the rate applies. */
  receiving?: Receiving;
  /** `socket.bytesRead` when the last response was done: more than this is a new request. */
  mark: number;
  /** Bytes moved either way (read, and written out of Node's buffer) when last looked at. */
  moved: number;
  /** Order of the last movement seen: the smallest went longest without a byte. */
  lastMoved: number;
  /** When this connection was last looked at. */
  seenAt: number;
}

const REQUEST_TIMEOUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
const BUSY = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n';

/**
 * Counts and polices the connections of `server` until it closes. `warn` is called once per
 * streak of connections closed or refused at the cap. Time is `performance.now()` and the rate is
 * checked on a `setInterval`, both globals, so a test's fake timers drive them.
 */
export function guardConnections(server: Server, policy: ConnectionPolicy, warn: (line: string) => void): void {
  const open = new Map<Socket, Connection>();
  let order = 0;

  const moved = (socket: Socket) => socket.bytesRead + socket.bytesWritten - socket.writableLength;

  /**
   * Brings a connection's state up to date with its socket; false once it has left HTTP (an
   * upgrade to WebSocket frees its parser): no longer counted or policed, its protocol's own.
   */
  function look(c: Connection, now: number): boolean {
    if ((c.socket as { parser?: unknown }).parser === null) {
      open.delete(c.socket);
      return false;
    }
    const m = moved(c.socket);
    if (m !== c.moved) {
      c.moved = m;
      c.lastMoved = ++order;
    }
    const request = c.request;
    if (!request) {
      if (!c.receiving && c.socket.bytesRead > c.mark) c.receiving = { since: now, from: c.mark };
    } else if (request.req.complete) {
      c.receiving = undefined; // the whole request is in: the app's turn
    } else if (c.receiving && request.req.readableLength >= request.req.readableHighWaterMark) {
      c.receiving.since += now - c.seenAt; // the app is not reading: not the client's time
    }
    c.seenAt = now;
    return true;
  }

  /**
   * Waiting for the app: a whole request in hand whose answer the app has not finished and is not
   * held up by the client (an answer waiting in the socket's buffer waits for the client to read).
   */
  const appsTurn = (c: Connection) => c.request !== undefined && !c.receiving && !c.request.res.writableEnded && c.socket.writableLength === 0;

  function drop(c: Connection, response: string): void {
    open.delete(c.socket);
    // A status line only where nothing of an answer has gone out on this request.
    if (!c.request?.res.headersSent && c.socket.writable) c.socket.write(response);
    c.socket.destroy();
  }

  let streak = false;
  let quiet: NodeJS.Timeout | undefined;
  function atCap(what: string): void {
    if (!streak) warn(`ergraph: ${policy.maxConnections} connections open (maxConnections); ${what}`);
    streak = true;
    clearTimeout(quiet);
    quiet = setTimeout(() => (streak = false), 60_000);
    quiet.unref?.();
  }

  function onConnection(socket: Socket): void {
    const now = performance.now();
    if (open.size >= policy.maxConnections) {
      let stalest: Connection | undefined;
      for (const c of open.values()) {
        if (look(c, now) && !appsTurn(c) && (!stalest || c.lastMoved < stalest.lastMoved)) stalest = c;
      }
      if (!stalest) {
        atCap('every one waits for the app: refusing new ones until some close');
        socket.destroy();
        return;
      }
      atCap('closing the one that has gone longest without a byte to make room for each new one');
      // A status line only to a client part-way through a request.
      drop(stalest, stalest.receiving && stalest.socket.bytesRead > stalest.receiving.from ? BUSY : '');
    }
    const c: Connection = { socket, mark: 0, moved: moved(socket), lastMoved: ++order, seenAt: now, receiving: { since: now, from: 0 } };
    open.set(socket, c);
    socket.once('close', () => {
      if (open.get(socket) === c) open.delete(socket);
    });
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const c = open.get(req.socket);
    if (!c) return;
    c.request = { req, res };
    c.receiving ??= { since: performance.now(), from: c.mark };
    res.once('close', () => {
      if (c.request?.res !== res) return;
      c.request = undefined;
      c.receiving = undefined;
      c.mark = c.socket.bytesRead;
    });
  }

  function checkRates(): void {
    const now = performance.now();
    for (const c of open.values()) {
      const r = look(c, now) ? c.receiving : undefined;
      if (!r || now - r.since < policy.requestRateGraceMs) continue;
      const bytes = c.socket.bytesRead - r.from;
      if (bytes * 1000 < policy.minRequestBytesPerSecond * (now - r.since)) drop(c, REQUEST_TIMEOUT);
    }
  }

  server.on('connection', onConnection);
  server.on('request', onRequest);
  const every = Math.max(10, Math.min(1_000, Math.floor(policy.requestRateGraceMs / 5)));
  const timer = setInterval(checkRates, every);
  timer.unref?.();
  server.once('close', () => {
    clearInterval(timer);
    clearTimeout(quiet);
    server.off('connection', onConnection);
    server.off('request', onRequest);
  });
}
