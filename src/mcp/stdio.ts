/** MCP over stdio, the transport desktop agents spawn a server with. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Serve `server` on this process's stdin/stdout. Resolves once the client goes away (stdin ends
 * or the connection closes). Stdout belongs to the protocol from here on: log to stderr.
 */
export async function serveStdio(server: McpServer): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  process.stdin.once('end', () => void server.close());
  await closed;
}
