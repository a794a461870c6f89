/**
 * Streamable HTTP transport mounted in a Hono app. Stateless: every POST gets a fresh server and
 * transport answering in plain JSON, so any number of clients (and server processes) can share
 * the endpoint with no session store. Without sessions there is no server-initiated stream,
 * so GET and DELETE answer 405, which the protocol allows.
 *
 * Bounded like every HTTP surface: `Host`/`Origin` are checked against DNS rebinding (loopback
 * only unless configured, see `origin.ts`) and bodies over 1 MB get 413, before the transport.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ConfigError } from '../er/errors.js';
import { originGuard, type OriginPolicy } from './origin.js';
import { createMcpServer, serverOptions } from './server.js';

export interface McpAppOptions extends OriginPolicy {
  /** Where the endpoint is mounted; `/mcp` by default. */
  path?: string;
  /** Largest request body in bytes (default 1 MB); larger ones get 413. */
  bodyLimit?: number;
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

const rpcError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status, headers });

/** A Hono app serving MCP over Streamable HTTP at `path`. */
export function mcpApp(source: McpServer | (() => McpServer), options: McpAppOptions = {}): Hono {
  const makeServer = serverFactory(source);
  const path = options.path ?? '/mcp';
  const maxSize = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = new Hono();
  app.use(path, originGuard(options));
  app.post(
    path,
    bodyLimit({ maxSize, onError: () => rpcError(413, `The request body is larger than ${maxSize} bytes`) }),
    async (c) => {
      const server = makeServer();
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(c.req.raw);
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
