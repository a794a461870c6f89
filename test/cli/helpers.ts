/** Running `ergraph` in-process (through `main`) and as the real bin, with bounded waits. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { main } from '../../cli/ergraph.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export async function run(argv: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const out = { stdout: '', stderr: '' };
  const code = await main(argv, {
    cwd: options.cwd ?? root,
    env: options.env,
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
  });
  return { code, ...out };
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process exits or `ms` pass first. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  /** The exit code once the process ends by itself (SIGKILL after `ms` so it never outlives the test). */
  exit(ms?: number): Promise<number | null>;
  /** SIGTERM, then the exit code (SIGKILL after `ms`). */
  stop(ms?: number): Promise<number | null>;
}

export function spawnCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Spawned {
  const child = spawn(process.execPath, [`${root}bin/ergraph.js`, ...args], { cwd: options.cwd ?? root, env: options.env ?? process.env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${ms} ms; stdout: ${stdout}; stderr: ${stderr}`)), ms);
        const check = () => {
          const found = pattern.exec(stdout);
          if (found) finish(undefined, found);
        };
        const onExit = (code: number | null) => finish(new Error(`exited with ${code} before ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
        const finish = (error?: Error, found?: RegExpExecArray) => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve(found!);
        };
        child.stdout.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
    async exit(ms = 30_000) {
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const [code] = await exited;
      clearTimeout(timer);
      return code;
    },
    async stop(ms = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return this.exit(ms);
    },
  };
}

/** A PGlite usage database (`pglite:<dir>`) in a directory of its own, removed after the file's tests. */
export function usageDatabase(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return `pglite:${join(dir, 'usage')}`;
}
