'use strict';
// ergraph-migrate's steps as jscodeshift transforms: `npx jscodeshift -t
// node_modules/ergraph-migrate/transforms/<step>.js --parser tsx src/` (the parser is not used: the
// steps parse with TypeScript). jscodeshift require()s a transform through Babel's register hook,
// which then compiles every CommonJS module loaded after it — ts-morph's bundled TypeScript
// among them, which it cannot even parse. So the step runs in a worker thread of its own, where no
// hook is registered, one file a message (dist/codemods/jscodeshift/worker.js).
const { Worker } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');

const WORKER = new URL('../dist/codemods/jscodeshift/worker.js', pathToFileURL(__filename));
let worker;
let next = 0;
const waiting = new Map();

function thread() {
  if (worker) return worker;
  worker = new Worker(WORKER);
  worker.on('message', ({ id, output, reports, error }) => {
    const call = waiting.get(id);
    waiting.delete(id);
    // Idle, the thread must not keep jscodeshift's worker process alive.
    if (waiting.size === 0) worker.unref();
    if (error === undefined) call.resolve({ output, reports });
    else call.reject(new Error(error));
  });
  worker.on('error', (error) => {
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
    worker = undefined;
  });
  return worker;
}

/** The jscodeshift transform of step `step`; `--schema=<sdl|introspection.json|url>` gives v5-to-v6 the v6 schema. */
module.exports = function stepTransform(step) {
  async function transform(file, api, options) {
    const id = next++;
    const answer = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    const steps = thread();
    steps.ref();
    steps.postMessage({ id, step, path: file.path, source: file.source, schema: typeof options.schema === 'string' ? options.schema : undefined });
    const { output, reports } = await answer;
    for (const line of reports) api.report(line);
    return output;
  }
  transform.parser = 'tsx';
  return transform;
};
