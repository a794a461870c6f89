/** What both command lines (`ergraph`, `ergraph-migrate`) share: where a command writes, and its exit codes. */

/** 0 done · 1 errors · 2 usage; a tool adds its own codes above these. */
export const EXIT = { ok: 0, errors: 1, usage: 2 } as const;

/** Where a command runs and writes: the process's by default, collectors in tests. */
export interface CommandIO {
  cwd: string;
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown };
}

export const processIO = (): CommandIO => ({ cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
