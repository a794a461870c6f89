/** Calling tools through the SDK's real `Client`, reading the `{ success, ... }` envelope. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  // text and structured content carry the same envelope
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
  const envelope = result.structuredContent as any;
  expect(Boolean(result.isError)).toBe(!envelope.success);
  return envelope;
}

export const newClient = () => new Client({ name: 'ergraph-test', version: '1.0.0' });
