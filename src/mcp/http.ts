/**
 * Streamable HTTP transport mounted in a Hono app. Stateless: every POST gets a fresh server and
 * transport answering in plain JSON, so any number of clients (and server processes) can share
 * the endpoint with no session store. Without sessions there is no server-initiated stream,
 * so GET and DELETE answer 405, which the protocol allows.
 *
 * Bounded like every HTTP surface: `Host`/`Origin` are checked against DNS rebinding (loopback
 * only unless configured, see `origin.ts`) and bodies over 1 MB get 413, before the transport.
 * A JSON-RPC batch (an array) gets 400: MCP 2025-06-18 removed batching, and one request carrying
 * a hundred tool calls was a hundredfold amplifier. Tool calls are rate-bounded per client
 * address (rate.ts; the server's `toolCallRate`), since every request here is a session of its own.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ConfigError } from '../er/errors.js';
import { originGuard, type OriginPolicy } from './origin.js';
import { createMcpServer, serverOptions } from './server.js';
import { checkRate, TokenBuckets, type ToolCallRate } from './rate.js';

export interface McpAppOptions extends OriginPolicy {
  /** Where the endpoint is mounted; `/mcp` by default. */
  path?: string;
  /** Largest request body in bytes (default 1 MB); larger ones get 413. */
  bodyLimit?: number;
  /**
   * Tool calls per client address (default: the server's `toolCallRate`, else 10 a second with
   * bursts of 30); past it 429 with `Retry-After`. `false` turns it off.
   */
  toolCallRate?: Partial<ToolCallRate> | false;
  /** The clock the rate reads, in ms (default `performance.now`); for tests. */
  now?: () => number;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;

function serverFactory(source: McpServer | (() => McpServer)): () => McpServer {
  if (typeof source === 'function') return source;
  const options = serverOptions(source);
  if (!options) {
    throw new ConfigError('mcpApp needs a server made by createMcpServer, or a function returning a new McpServer per request');
  }
  return () => createMcpServer(options);
}

const rpcError = (status: number, message: string, headers: Record<string, string> = {}, code = -32000) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });

/** The peer's address under `@hono/node-server` (its `incoming` request); one key for runtimes that hide it. */
function clientAddress(env: unknown): string {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

/** A Hono app serving MCP over Streamable HTTP at `path`. */
export function mcpApp(source: McpServer | (() => McpServer), options: McpAppOptions = {}): Hono {
  const makeServer = serverFactory(source);
  const configured = typeof source === 'function' ? undefined : serverOptions(source)?.toolCallRate;
  const rate = checkRate((options.toolCallRate ?? configured) as ToolCallRate | false | undefined, 'mcpApp');
  const buckets = rate ? new TokenBuckets(rate, options.now) : undefined;
  const path = options.path ?? '/mcp';
  const maxSize = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = new Hono();
  app.use(path, originGuard(options));
  app.post(
    path,
    bodyLimit({ maxSize, onError: () => rpcError(413, `The request body is larger than ${maxSize} bytes`) }),
    async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return rpcError(400, 'Parse error: Invalid JSON', {}, -32700);
      }
      if (Array.isArray(body)) {
        return rpcError(400, 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request', {}, -32600);
      }
      if (buckets && (body as { method?: unknown } | null)?.method === 'tools/call') {
        const key = clientAddress(c.env);
        if (!buckets.take(key)) {
          const retry = buckets.retryAfter(key);
          return rpcError(429, `Too many tool calls from this client: wait ${retry} s`, { 'retry-after': String(retry) });
        }
      }
      const server = makeServer();
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(c.req.raw, { parsedBody: body });
      } finally {
        // JSON mode: the response body is complete once handleRequest resolves.
        void server.close();
      }
    },
  );
  const notAllowed = () => rpcError(405, 'Method not allowed: this MCP endpoint is stateless, use POST', { allow: 'POST' });
  app.get(path, notAllowed);
  app.delete(path, notAllowed);
  return app;
}
