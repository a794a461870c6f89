/**
 * One instance of a compat fleet, for usage-fleet.test.ts: serves the v5 endpoint on a free
 * loopback port with a usage recorder writing to the shared PostgreSQL store, then sends its share
 * of the load to every instance (itself included) and says exactly what it sent.
 *
 * Protocol (one JSON line each way): → `{"ready":port}`; ← `{"ports":[…],"requests":N}`;
 * → `{"sent":{"<coordinate> <client>":n},"operations":{"<query>\u0000<client>":n}}`; ← `{"stop":true}`;
 * → `{"closed":status}`, exit 0.
 * The clock is shifted by SKEW_MS, as a badly synchronised machine's would be.
 */
import { createInterface } from 'node:readline';
import { serve } from '@hono/node-server';
import { clientName, compatApp, createCompatHandler, createUsageRecorder, openUsageStore } from '../../compat/index.js';
import { createV6Handler } from './helpers.js';

const skew = Number(process.env.SKEW_MS ?? 0);
const id = Number(process.env.CHILD_ID ?? 0);
const store = await openUsageStore(process.env.USAGE_URL!);
const recorder = createUsageRecorder(store, { flushIntervalMs: 100, now: () => Date.now() + skew });
const app = compatApp(createCompatHandler(createV6Handler(), { usage: recorder }));
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
    send({ ready: info.port });
    resolve(s);
  });
});

const QUERIES: Array<{ query: string; fields: string[] }> = [
  { query: '{ userGetAll { id } }', fields: ['Query.userGetAll'] },
  { query: '{ userById(id: 1) { name } taskById(id: 1) { title } }', fields: ['Query.userById', 'Query.taskById'] },
  { query: 'mutation { taskComplete(id: 1) { id } }', fields: ['Mutation.taskComplete'] },
  { query: 'query Q($id: Int!) { a: userById(id: $id) { id } b: userById(id: 2) { id } }', fields: ['Query.userById'] },
];
const CLIENTS = ['web', 'ios', 'android', `batch-${id}`, `long-${'n'.repeat(300)}`, ''];

async function load(ports: number[], requests: number) {
  const sent: Record<string, number> = {};
  const operations: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < requests; i = next++) {
      const q = QUERIES[(i * 7 + id) % QUERIES.length]!;
      const client = CLIENTS[(i + id * 3) % CLIENTS.length]!;
      const port = ports[i % ports.length]!;
      const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(client ? { 'x-client-name': client } : {}) },
        body: JSON.stringify({ query: q.query, variables: { id: 1 } }),
      });
      const body = (await res.json()) as { data: unknown };
      if (res.status !== 200 || !body.data) throw new Error(`request ${i} to :${port} failed: ${res.status} ${JSON.stringify(body)}`);
      for (const field of q.fields) {
        const key = `${field} ${clientName(client || undefined)}`;
        sent[key] = (sent[key] ?? 0) + 1;
      }
      const op = `${q.query}\u0000${clientName(client || undefined)}`;
      operations[op] = (operations[op] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { sent, operations };
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line) as { ports?: number[]; requests?: number; stop?: boolean };
  if (message.ports) send(await load(message.ports, message.requests!));
  if (message.stop) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await recorder.close();
    await store.close();
    send({ closed: recorder.status() });
    process.exit(0);
  }
}
