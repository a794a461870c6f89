/** Worker thread: runs scan/apply of registered transforms on files sent by the pool. */
import { parentPort } from 'node:worker_threads';
import { applyFile, scanFile } from '../apply.js';
import { findTransform } from '../registry.js';
import type { Control, Reply, Task } from './protocol.js';
import { revivedOptions, serializeError } from './protocol.js';

const factsByTransform = new Map<string, { facts: unknown[]; options: Record<string, unknown> }>();

function handle(message: Task): Reply {
  const transform = findTransform(message.transform);
  if (!transform) return { id: message.id, error: { name: 'Error', message: `unknown transform ${message.transform}` } };
  try {
    if (message.op === 'scan') return { id: message.id, facts: scanFile(transform, message.source, message.file) };
    const ctx = factsByTransform.get(message.transform) ?? { facts: [], options: {} };
    const outcome = applyFile(transform, message.source, message.file, ctx.facts, ctx.options, false);
    return outcome.error
      ? { id: message.id, error: serializeError(outcome.error) }
      : { id: message.id, result: outcome.result! };
  } catch (error) {
    return { id: message.id, error: serializeError(error) };
  }
}

parentPort?.on('message', (message: Task | Control) => {
  if (message.op === 'facts') {
    factsByTransform.set(message.transform, { facts: message.facts, options: revivedOptions(message.options) });
    return;
  }
  parentPort?.postMessage(handle(message));
});
