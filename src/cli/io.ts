/** What every `ergraph` command shares: where it writes, its exit codes, and how it is stopped. */
export const EXIT = { ok: 0, errors: 1, usage: 2 } as const;

export interface CliIO {
  cwd: string;
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  /** Environment the command reads (DATABASE_URL, PORT); `process.env` by default. */
  env?: Record<string, string | undefined>;
}

export const defaultIO: CliIO = { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };

export { UsageError } from '../cli-kit/usage.js';

/** Resolves when the process is asked to stop (Ctrl-C, or SIGTERM from a supervisor). */
export const stopSignal = () =>
  new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
