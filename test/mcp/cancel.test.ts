/**
 * Cancellation of MCP tool calls (issue 28.4): a client that cancels its call (the SDK sends
 * notifications/cancelled) aborts the signal the run's loaders hold, and no batch starts after it.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseEntity, buildList, buildObject, GraphQLHandler, model, query, Relationship, type LoaderInfo } from 'ergraph';
import { createMcpServer } from 'ergraph/mcp';
import { call, newClient } from './client.js';
import { loaderGate } from '../support/loader-gate.js';

const Base = baseEntity();
const gate = loaderGate();
const { seen } = gate;

async function ownersById(ids: readonly number[], info: LoaderInfo) {
  await gate.enter(info);
  return buildObject(
    ids.map((id) => new Owner({ id, name: `o${id}` })),
    ids,
    (o) => o.id,
  );
}
async function petsByOwner(ids: readonly number[], info: LoaderInfo) {
  await gate.enter(info);
  return buildList([1, 2].map((id) => new Pet({ id, ownerId: id, name: `p${id}` })), ids, (p) => p.ownerId);
}

@Base.entity
class Owner extends model({ id: z.int(), name: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'id', target: () => [Pet], name: 'pets', loader: petsByOwner })];
}
@Base.entity
class Pet extends model({ id: z.int(), ownerId: z.int(), name: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'ownerId', target: Owner, name: 'owner', loader: ownersById })];
  @query({ returns: () => [Pet] })
  static async all() {
    return [1, 2].map((id) => new Pet({ id, ownerId: id, name: `p${id}` }));
  }
}

const QUERY = '{ Pet { all { name owner { name pets { name } } } } }';

async function connected() {
  const server = createMcpServer({ apps: [{ name: 'pets', handler: new GraphQLHandler(Base.getDiagram()) }] });
  const client = newClient();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe('MCP tool calls: the call signal', () => {
  it('reaches the loaders, unaborted while the call goes on', async () => {
    const client = await connected();
    gate.reset();
    const result = await call(client, 'graphql_query', { app_name: 'pets', query: QUERY });
    expect(result.success).toBe(true);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.signal.aborted).toBe(false);
    await client.close();
  });

  it('aborts the signal a loader holds when the client cancels the call, and no batch starts after it', async () => {
    const client = await connected();
    gate.reset();
    const { reached, open } = gate.shut();
    const controller = new AbortController();
    const answer = client.callTool({ name: 'graphql_query', arguments: { app_name: 'pets', query: QUERY } }, undefined, { signal: controller.signal });
    await reached;
    const { signal } = seen[0]!;
    const aborted = new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
    controller.abort('client gone');
    await expect(answer).rejects.toThrow();
    // The cancel notification reaches the server over the transport: the loader's signal aborts.
    await aborted;
    expect(signal.aborted).toBe(true);
    open(); // the loader ignored its signal and finishes late: the pets level never starts
    await client.close();
    expect(seen).toHaveLength(1);
  });
});
