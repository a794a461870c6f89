/** What every `ergraph` command shares: where it writes, its exit codes, and how it is stopped. */
import { processIO, type CommandIO } from '../src/cli-kit/io.js';
import type { ServedApp, ServerLimits } from '../src/http/serve.js';

export { EXIT } from '../src/cli-kit/io.js';
export { UsageError } from '../src/cli-kit/usage.js';

export interface CliIO extends CommandIO {
  /** Environment the command reads (DATABASE_URL, PORT); `process.env` by default. */
  env?: Record<string, string | undefined>;
}

export const defaultIO: CliIO = processIO();

/** Resolves when the process is asked to stop (Ctrl-C, or SIGTERM from a supervisor). */
export const stopSignal = () =>
  new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });

/** How a serving command (`serve`, `mcp --http`) runs; both fields only for tests. */
export interface RunOptions {
  /** The command itself runs with the documented defaults. */
  limits?: ServerLimits;
  /** Resolves when the command is to stop: SIGINT or SIGTERM unless a test gives its own. */
  stopped?: (listening: ServedApp) => Promise<unknown>;
}
