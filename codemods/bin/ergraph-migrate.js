#!/usr/bin/env node
// Launcher: the compiled CLI of the package (dist/, what npm installs); from a source checkout
// without a build, the TypeScript sources through tsx's loader (a dev dependency of the checkout).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1+ keeps the V8 code of the modules it compiles (in the OS temp directory) and reuses it on
// the next start: loading TypeScript's 9 MB compiler went from ~370 to ~90 ms, a CLI start from
// ~1.1 to ~0.7 s. Older Node has no such call. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

const built = new URL('../dist/codemods/cli.js', import.meta.url);
let cli;
if (existsSync(built)) cli = await import(built.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../cli.ts', import.meta.url).href);
}
await cli.run(process.argv.slice(2));
