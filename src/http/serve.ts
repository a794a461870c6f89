/**
 * The limits of every Node server this package starts (`ergraph serve`, `ergraph mcp --http`, the
 * demo), in one place: how long a client may take to send its headers and its whole request, how
 * long an idle connection is kept, how many connections are open at once, and how long a shutdown
 * waits for requests in flight before it cuts them.
 *
 * Node's own defaults leave most of this open (no cap on connections, no inactivity timeout, five
 * minutes for a request, timeouts checked only every 30 s, a `close()` that waits for ever), so a
 * few thousand idle or slow clients hold a server. `serveApp(app)` starts a Hono app with these
 * limits; `limitServer(server)` applies them to a server you created yourself (pass
 * `serverOptions(limits)` to `http.createServer` too, for the timeout checks' interval). The cap
 * and the minimum data rate are connections.ts's.
 */
import type { Server, ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardConnections } from './connections.js';

export interface ServerLimits {
  /** Time to receive a request's headers (default 10 000 ms): slow-header clients get 408. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included (default 30 000 ms): slow uploads get 408. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests (default 5 000 ms). */
  keepAliveTimeoutMs?: number;
  /** A connection with no bytes in either direction for this long is closed (default 60 000 ms), e.g. a client that stops reading its response. */
  socketTimeoutMs?: number;
  /**
   * Open connections at most (default 1 000). At the cap a new connection closes the one that has
   * gone longest without a byte either way, among those not waiting for the app's answer (idle,
   * sending slowly, not reading); when every one waits for the app, the new one is closed.
   */
  maxConnections?: number;
  /** A request (headers and body) arriving slower than this on average once `requestRateGraceMs` has passed gets 408 (default 240 bytes/s, as Kestrel). */
  minRequestBytesPerSecond?: number;
  /** How long a request may take before `minRequestBytesPerSecond` applies (default 5 000 ms). */
  requestRateGraceMs?: number;
  /** How long `close()` waits for requests in flight before closing their connections (default 10 000 ms). */
  shutdownTimeoutMs?: number;
}

export const DEFAULT_SERVER_LIMITS: Readonly<Required<ServerLimits>> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  socketTimeoutMs: 60_000,
  maxConnections: 1_000,
  minRequestBytesPerSecond: 240,
  requestRateGraceMs: 5_000,
  shutdownTimeoutMs: 10_000,
});

function resolveLimits(limits: ServerLimits): Required<ServerLimits> {
  const resolved = { ...DEFAULT_SERVER_LIMITS };
  for (const key of Object.keys(DEFAULT_SERVER_LIMITS) as Array<keyof ServerLimits>) {
    const value = limits[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new RangeError(`${key} must be a whole number of at least 1, got ${JSON.stringify(value)}`);
    }
    resolved[key] = value;
  }
  if (resolved.headersTimeoutMs > resolved.requestTimeoutMs) {
    throw new RangeError(`headersTimeoutMs (${resolved.headersTimeoutMs}) must not exceed requestTimeoutMs (${resolved.requestTimeoutMs})`);
  }
  return resolved;
}

/**
 * Options for `http.createServer`: Node checks the header and request timeouts on a timer
 * (`connectionsCheckingInterval`, 30 s by default), so without this a 1 s limit acts after 30.
 */
export function serverOptions(limits: ServerLimits = {}): ServerOptions {
  const l = resolveLimits(limits);
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(l.headersTimeoutMs / 4))),
  };
}

export interface LimitedServer {
  /** The limits in force, defaults filled in. */
  readonly limits: Readonly<Required<ServerLimits>>;
  /**
   * Stop accepting, close idle connections, wait for requests in flight up to
   * `shutdownTimeoutMs`, then close what is left. Resolves when every connection is closed;
   * calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** Applies the limits to a Node HTTP server (its own or one from `@hono/node-server`'s `serve`). */
export function limitServer(server: Server, limits: ServerLimits = {}): LimitedServer {
  const l = resolveLimits(limits);
  server.headersTimeout = l.headersTimeoutMs;
  server.requestTimeout = l.requestTimeoutMs;
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  // With no 'timeout' listener Node destroys the socket itself.
  server.setTimeout(l.socketTimeoutMs);
  // The cap is the guard's: Node's own maxConnections would refuse the newest client, not the slowest.
  guardConnections(server, l, (line) => console.warn(line));

  let closing: Promise<void> | undefined;
  return {
    limits: Object.freeze(l),
    close() {
      closing ??= new Promise<void>((resolve) => {
        const deadline = setTimeout(() => server.closeAllConnections(), l.shutdownTimeoutMs);
        // Requests that arrive on open connections while closing are answered with `Connection: close`;
        // those already in flight leave a kept-alive connection behind when they finish, closed by
        // the sweep below (Node's close() closes only the connections idle at the moment it is called).
        const closeAfter = (_req: unknown, res: { shouldKeepAlive: boolean }) => (res.shouldKeepAlive = false);
        server.on('request', closeAfter);
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(deadline);
          clearInterval(sweep);
          server.off('request', closeAfter);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

export interface ServeAppOptions extends ServerLimits {
  /** Default 127.0.0.1: a server is public only when asked to be. */
  hostname?: string;
  /** Default 0 (a free port). */
  port?: number;
}

export interface ServedApp extends LimitedServer {
  server: Server;
  port: number;
  /** `http://<hostname>:<port>`. */
  url: string;
}

/** Starts a Hono app (anything with `fetch`) on Node with the limits above; resolves once listening. */
export async function serveApp(app: { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> }, options: ServeAppOptions = {}): Promise<ServedApp> {
  const hostname = options.hostname ?? '127.0.0.1';
  const created = serverOptions(options);
  const { serve } = await import('@hono/node-server');
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch as (request: Request) => Response | Promise<Response>, hostname, port: options.port ?? 0, serverOptions: created }, () => {
      s.off('error', reject);
      resolve(s as Server);
    });
    // e.g. EADDRINUSE: the caller's error, not an uncaught exception.
    s.once('error', reject);
  });
  const limited = limitServer(server, options);
  const port = (server.address() as AddressInfo).port;
  return { ...limited, server, port, url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}` };
}
