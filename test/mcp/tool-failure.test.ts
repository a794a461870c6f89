/**
 * A tool that fails unexpectedly (here: an app's handler throwing, as a database would with its
 * SQL in the message) answers the agent with an error id and no text of the error; the server's
 * onError gets the error under that id. The catch around every tool in src/mcp/server.ts.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { createMcpServer } from 'ergraph/mcp';
import { diagram } from '../graphql/domain.js';
import { call, newClient } from './client.js';

class BrokenHandler extends GraphQLHandler {
  override async execute(): Promise<never> {
    throw new Error('relation "secret_table" does not exist: SELECT password FROM secret_table');
  }
}

describe('a tool that throws', () => {
  it('is masked: an error id for the agent, the error for the log', async () => {
    const logged: [unknown, string][] = [];
    const server = createMcpServer({ apps: [{ name: 'a', handler: new BrokenHandler(diagram) }], onError: (error, id) => logged.push([error, id]) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = newClient();
    await client.connect(clientSide);
    try {
      const result = await call(client, 'graphql_query', { app_name: 'a', query: '{ User { getAll { id } } }' });
      expect(result).toMatchObject({ success: false, error_type: 'internal_error' });
      expect(result.error).toMatch(/^graphql_query failed: Internal server error \(error id ([0-9a-f]{8})\)$/);
      expect(JSON.stringify(result)).not.toMatch(/secret|password|SELECT/);
      const id = /error id ([0-9a-f]{8})/.exec(result.error as string)![1];
      expect(logged).toHaveLength(1);
      expect(logged[0]![1]).toBe(id);
      expect(String(logged[0]![0])).toContain('secret_table');
    } finally {
      await client.close();
    }
  });
});
