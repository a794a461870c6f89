/**
 * The sandboxed side of the schema lookup (sandbox.ts): started under Node's permission model
 * with the TypeScript hooks registered, it gets one request, loads the GraphQL Config and the
 * ER graph's modules, and answers with the schemas as SDL. It exits once it has answered: a
 * module's timers or pool must not keep it running.
 */
import { printSchema } from 'graphql';
import { ts } from '../lib/typescript.js';
import type { SandboxReply, SandboxRequest } from './sandbox.js';
import { requireTypeScript, type Settings } from './sandbox-hooks.js';
import { lookupInProcess } from './sources.js';

process.once('message', async (request: SandboxRequest) => {
  const logs: string[] = [];
  let reply: SandboxReply;
  try {
    requireTypeScript(ts, JSON.parse(request.settings) as Settings);
    const found = await lookupInProcess(request, (line) => logs.push(line));
    reply = { logs, ...(found ? { result: { sdls: found.schemas.map((s) => printSchema(s)), source: found.source } } : {}) };
  } catch (error) {
    const e = error as Error & { source?: string };
    reply = { logs, error: { name: e.name, message: e.message, source: e.source } };
  }
  process.send!(reply, () => process.exit(0));
});
