/**
 * The one usage-error path of both binaries (`ergraph` and `ergraph-migrate`): a command-line
 * mistake is exit code 2 and one line on stderr, `<tool>: <what was wrong> (run <tool> --help for
 * usage)`, whichever parser or command noticed it.
 */
import { EXIT } from './io.js';

/** A command-line mistake: exit 2 with one line, not 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** yargs reports its own parse failures (unknown command, missing option) as `YError`. */
export function isUsageError(error: unknown): error is Error {
  return error instanceof UsageError || (error instanceof Error && (error.name === 'YError' || error.name === 'UsageError'));
}

/** The line a usage error prints; the message is folded onto one line. */
export function usageLine(tool: string, error: Error): string {
  const message = error.message.replace(/\s*\n\s*/g, '; ').trim();
  return `${tool}: ${message} (run ${tool} --help for usage)\n`;
}

/** Writes the usage line and answers the exit code: what both CLIs do with a usage error. */
export function reportUsageError(tool: string, error: Error, stderr: { write(s: string): unknown }): number {
  stderr.write(usageLine(tool, error));
  return EXIT.usage;
}
