/**
 * Streamable HTTP transport mounted in a Hono app. Stateless: every POST gets a fresh server and
 * transport answering in plain JSON, so any number of clients (and server processes) can share
 * the endpoint with no session store. Without sessions there is no server-initiated stream,
 * so GET and DELETE answer 405, which the protocol allows.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { ConfigError } from '../er/errors.js';
import { createMcpServer, serverOptions } from './server.js';

export interface McpAppOptions {
  /** Where the endpoint is mounted; `/mcp` by default. */
  path?: string;
}

function serverFactory(source: McpServer | (() => McpServer)): () => McpServer {
  if (typeof source === 'function') return source;
  const options = serverOptions(source);
  if (!options) {
    throw new ConfigError('mcpApp needs a server made by createMcpServer, or a function returning a new McpServer per request');
  }
  return () => createMcpServer(options);
}

/** A Hono app serving MCP over Streamable HTTP at `path`. */
export function mcpApp(source: McpServer | (() => McpServer), options: McpAppOptions = {}): Hono {
  const makeServer = serverFactory(source);
  const path = options.path ?? '/mcp';
  const app = new Hono();
  app.post(path, async (c) => {
    const server = makeServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // JSON mode: the response body is complete once handleRequest resolves.
      void server.close();
    }
  });
  const notAllowed = () =>
    Response.json(
      { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, use POST' }, id: null },
      { status: 405, headers: { allow: 'POST' } },
    );
  app.get(path, notAllowed);
  app.delete(path, notAllowed);
  return app;
}
