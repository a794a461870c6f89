/** Worker thread: runs scan/apply of registered transforms on files sent by the pool. */
import { parentPort } from 'node:worker_threads';
import { applyFile, scanFile } from '../apply.js';
import { findTransform } from '../registry.js';
import type { Control, Reply, Task } from './protocol.js';
import { revivedOptions, serializeError } from './protocol.js';

/** The step being run: one at a time, so its revived schema and module graph replace the last step's. */
let current: { transform: string; options: Record<string, unknown>; facts: unknown[] } | undefined;
const contextOf = (transform: string) => (current?.transform === transform ? current : { transform, options: {}, facts: [] });

function handle(message: Task): Reply {
  const transform = findTransform(message.transform);
  if (!transform) return { id: message.id, error: { name: 'Error', message: `unknown transform ${message.transform}` } };
  try {
    const ctx = contextOf(message.transform);
    if (message.op === 'scan') return { id: message.id, facts: scanFile(transform, message.source, message.file, ctx.options) };
    const outcome = applyFile(transform, message.source, message.file, ctx.facts, ctx.options, false);
    return outcome.error
      ? { id: message.id, error: serializeError(outcome.error) }
      : { id: message.id, result: outcome.result! };
  } catch (error) {
    return { id: message.id, error: serializeError(error) };
  }
}

parentPort?.on('message', (message: Task | Control) => {
  if (message.op === 'options') {
    current = { transform: message.transform, options: revivedOptions(message.options), facts: [] };
    return;
  }
  if (message.op === 'facts') {
    current = { ...contextOf(message.transform), facts: message.facts };
    return;
  }
  parentPort?.postMessage(handle(message));
});
