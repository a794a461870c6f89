/**
 * The worker thread `transforms/step.js` runs the steps in: one file a message, answered with its
 * new text or the error. No require hook of jscodeshift's (Babel's register) reaches this thread.
 */
import { parentPort } from 'node:worker_threads';
import { migrateFile } from './migrate-file.js';

export interface FileRequest {
  id: number;
  step: string;
  path: string;
  source: string;
  schema?: string;
}

parentPort!.on('message', async ({ id, step, path, source, schema }: FileRequest) => {
  try {
    parentPort!.postMessage({ id, ...(await migrateFile(step, path, source, schema)) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
