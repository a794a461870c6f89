// Preload (`node --import`) for test/codemods/cli-start.test.ts: on exit, writes the CommonJS
// modules the process loaded to the file named by LOADED_CJS_OUT. ts-morph and the TypeScript
// compiler are CommonJS, so an ESM `import` of them lands in this cache too.
import { writeFileSync } from 'node:fs';
import Module from 'node:module';

process.on('exit', () => writeFileSync(process.env.LOADED_CJS_OUT, JSON.stringify(Object.keys(Module._cache))));
