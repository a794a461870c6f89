/**
 * `ergraph demo [--port] [--host]`: the demo service of `examples/demo/` in a child process. The
 * demo is a top-level script (it opens its database, serves, and closes the database on
 * SIGINT/SIGTERM), so it runs as its own Node process with tsx's loader, and this command
 * forwards stop signals to it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CliError } from './load-apps.js';
import type { CliIO } from './io.js';
import { ergraphRoot } from './packages.js';

export interface DemoArgs {
  port?: number;
  host?: string;
}

export function demoEntry(): string {
  const root = ergraphRoot();
  const main = join(root, 'examples', 'demo', 'main.ts');
  // The published package ships dist/ and bin/ only.
  if (!existsSync(main)) throw new CliError(`the demo ships with the source checkout, not the npm package (looked for ${main})`);
  return main;
}

function tsxLoader(root: string): string {
  try {
    createRequire(join(root, 'package.json')).resolve('tsx');
    return 'tsx'; // resolved by Node from the child's cwd, the checkout
  } catch {
    throw new CliError('the demo runs through tsx: install the dev dependencies (npm ci) in the ergraph checkout');
  }
}

/** Resolves with the demo's exit code. */
export async function demoCommand(args: DemoArgs, io: CliIO): Promise<number> {
  const main = demoEntry();
  const root = ergraphRoot();
  const flags = [...(args.port !== undefined ? ['--port', String(args.port)] : []), ...(args.host !== undefined ? ['--host', args.host] : [])];
  // cwd is the checkout so the demo's embedded database lands in its .demo-data/, as with npm run demo.
  const child = spawn(process.execPath, ['--import', tsxLoader(root), main, ...flags], { cwd: root, env: io.env ?? process.env, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}
