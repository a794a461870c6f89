#!/usr/bin/env node
// Launcher: the compiled CLI after `npm run build`; from a source checkout, the TypeScript
// sources through tsx's loader (a dev dependency), so the same command works in both.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { finish, quietOnClosedPipe } from './finish.js';

quietOnClosedPipe();

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
  cli = await import(new URL('../codemods/cli.ts', import.meta.url).href);
}
await finish(await cli.main(process.argv.slice(2)));
