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

/**
 * `size` threads. A thread that dies on a file (out of memory, or anything its own catch cannot
 * hold) answers that file with an error and is replaced, with the step's options and facts sent
 * again: one file cannot stop the run. `start` makes a thread (tests give one that dies on cue).
 */
export function createPool(size: number, start: () => Worker = spawn): Pool {
  const workers = Array.from({ length: size }, start);
  // The current step's controls, for a thread started in the middle of it.
  let controls: Control[] = [];
  let nextId = 0;
  return {
    broadcast(control) {
      controls = control.op === 'options' ? [control] : [...controls, control];
      for (const w of workers) w.postMessage(control);
    },
    run(jobs, onDone) {
      const replies: Reply[] = new Array(jobs.length);
      let cursor = 0;
      let finished = 0;
      return new Promise((resolvePromise) => {
        if (jobs.length === 0) return resolvePromise(replies);
        const feed = (slot: number) => {
          if (cursor >= jobs.length) return;
          const worker = workers[slot]!;
          const index = cursor++;
          const id = nextId++;
          const settle = (reply: Reply) => {
            worker.off('message', onMessage);
            worker.off('error', onError);
            worker.off('exit', onExit);
            replies[index] = reply;
            finished++;
            onDone?.();
            if (finished === jobs.length) resolvePromise(replies);
            else feed(slot);
          };
          const onMessage = (reply: Reply) => {
            if (reply.id === id) settle(reply);
          };
          const died = (why: string) => {
            const next = start();
            for (const c of controls) next.postMessage(c);
            workers[slot] = next;
            void worker.terminate();
            settle({ id, error: { name: 'Error', message: `the worker thread migrating this file stopped (${why}); the file is left unchanged` } });
          };
          const onError = (error: Error) => died(error.message);
          const onExit = (code: number) => died(`exit code ${code}`);
          worker.on('message', onMessage);
          worker.once('error', onError);
          worker.once('exit', onExit);
          worker.postMessage({ ...jobs[index], id } as Task);
        };
        for (const slot of workers.keys()) feed(slot);
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
