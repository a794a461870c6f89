/**
 * A file's failure as its report says it: named by the report's path (not the absolute one the
 * steps saw), and a stack overflow said for what it is. Every pass of a run that touches a file
 * ends a failure there (`runShared`, the pool, the output check, the write): this is how each is put.
 */
import type { FileReport } from './types.js';

const STACK = 'Maximum call stack size exceeded';

/** The message of a failure of the file at `abs` (reported as `file`): its own place first when it has one. */
export function failureText(error: string, abs: string, file: string): string {
  const located = error.startsWith(`${abs}:`) ? file + error.slice(abs.length) : error;
  if (!located.includes(STACK)) return located;
  return located.replace(STACK, `${STACK}: nested too deeply to migrate (generated or minified code? --ignore leaves it out)`);
}

/** Every failed report's error, put as `failureText` says. */
export function settleFailures(reports: ReadonlyMap<string, FileReport>): void {
  for (const [abs, report] of reports) if (report.error) report.error = failureText(report.error, abs, report.file);
}
