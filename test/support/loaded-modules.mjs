// Preload (`node --import`) for test/codemods/cli-start.test.ts: on exit, writes what the process
// loaded to the file named by LOADED_MODULES_OUT: `cjs`, the CommonJS modules (ts-morph and the
// TypeScript compiler are CommonJS, so an ESM `import` of them lands there too), and `esm`, the URL
// of every module the ESM loader loaded, recorded by a loader hook (test/support/esm-load-hook.mjs).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const out = process.env.LOADED_MODULES_OUT;
// The hook runs on the loader's own thread: it appends each URL to a file of its own.
const esmList = `${out}.esm`;
writeFileSync(esmList, '');
register(new URL('./esm-load-hook.mjs', import.meta.url), { data: { file: esmList } });

process.on('exit', () => {
  const esm = readFileSync(esmList, 'utf8').split('\n').filter(Boolean);
  rmSync(esmList);
  writeFileSync(out, JSON.stringify({ cjs: Object.keys(Module._cache), esm }));
});
