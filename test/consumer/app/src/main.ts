// Prints one JSON document the consumer stage compares with expected.json.
import { calls, createApp } from './graph.js';

const app = createApp();
const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

const v6 = await post('/graphql', { query: '{ User { getAll { name tasks(limit: 1) { items { title owner { name } } pagination { total_count } } } } }' });
const loads = [...calls];
const created = await post('/graphql', { query: 'mutation { Task { create(title: "Ship it") { id title owner { name } } } }' });
const v5 = await post('/graphql/v5', { query: '{ userGetAll(limit: 1) { name } }' });
const external = await post('/notes/graphql', { query: '{ Note { all { id text } } }' });
const bare = await post('/graphql', { query: '{ User }' });
const mcp = await post('/mcp', {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'list_queries', arguments: { app_name: 'app' } },
});
const mcpResult = (mcp.body as { result?: { structuredContent?: unknown } }).result?.structuredContent ?? mcp.body;

console.log(
  JSON.stringify(
    { v6: v6.body, loads, created: created.body, v5: v5.body, external: external.body, bare: (bare.body as { errors: { message: string }[] }).errors.map((e) => e.message), mcp: mcpResult },
    null,
    2,
  ),
);
