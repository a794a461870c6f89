#!/usr/bin/env node
// Launcher: the compiled CLI after `npm run build`; from a source checkout, the TypeScript
// sources through tsx's loader (a dev dependency), so the same command works in both.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli/ergraph.js', import.meta.url);
let cli;
if (existsSync(built)) cli = await import(built.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../cli/ergraph.ts', import.meta.url).href);
}
// Every command is done when main returns: serve, mcp and demo return once they are stopped.
await cli.run(process.argv.slice(2));
