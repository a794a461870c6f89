/**
 * A small pool of worker threads for large trees. From the TypeScript sources (tests, `tsx`)
 * each worker first registers tsx so it can load the `.ts` modules; built code needs nothing.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Control, Reply, Task } from './protocol.js';

type Job = Omit<Task, 'id'>;

export interface Pool {
  run(jobs: readonly Job[], onDone?: () => void): Promise<Reply[]>;
  broadcast(control: Control): void;
  close(): Promise<void>;
}

/** tsx's ESM register API, found through its package exports (a `require` resolve gives the CJS build). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifest), pkg.exports['./esm/api'].import.default)).href;
}

function spawn(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(`./worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(entry);
  const tsxApi = tsxEsmApi();
  const bootstrap =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((m) => (m.register ?? m.default.register)())` +
    `.then(() => import(${JSON.stringify(entry.href)}))`;
  return new Worker(bootstrap, { eval: true });
}

export function createPool(size: number): Pool {
  const workers = Array.from({ length: size }, spawn);
  let nextId = 0;
  return {
    broadcast(control) {
      for (const w of workers) w.postMessage(control);
    },
    run(jobs, onDone) {
      const replies: Reply[] = new Array(jobs.length);
      let cursor = 0;
      let finished = 0;
      return new Promise((resolvePromise, reject) => {
        if (jobs.length === 0) return resolvePromise(replies);
        const feed = (worker: Worker) => {
          if (cursor >= jobs.length) return;
          const index = cursor++;
          const id = nextId++;
          const onMessage = (reply: Reply) => {
            if (reply.id !== id) return;
            worker.off('message', onMessage);
            worker.off('error', reject);
            replies[index] = reply;
            finished++;
            onDone?.();
            if (finished === jobs.length) resolvePromise(replies);
            else feed(worker);
          };
          worker.on('message', onMessage);
          worker.once('error', reject);
          worker.postMessage({ ...jobs[index], id } as Task);
        };
        for (const w of workers) feed(w);
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
