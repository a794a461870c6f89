/**
 * No silent skips: a suite or variant that cannot run here (no PostgreSQL server, no Chromium)
 * says so through `recordSkip`, and `npm test` lists every one at the end (skips-report.ts, a
 * globalSetup's teardown) — and fails when the variable that requires it, or CI, is set.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Written by the workers, read by the main process at the end of the run. */
export const SKIPS_FILE = join(REPO, 'node_modules', '.cache', 'ergraph-test-skips.jsonl');

export interface Skip {
  /** The test file that skipped, relative to the repository. */
  file: string;
  what: string;
  why: string;
  /** The variable that makes it required (CI requires every one). */
  requiredBy: string;
}

/** The test file this worker runs (vitest's worker state; after an await the stack no longer shows it). */
function callerFile(): string {
  const state = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__;
  const frame = new Error().stack?.split('\n').find((line) => /\.test\.ts/.test(line));
  const path = state?.filepath ?? /(\/[^():]+\.test\.ts)/.exec(frame ?? '')?.[1];
  return path ? relative(REPO, path) : '(unknown file)';
}

export function recordSkip(what: string, why: string, requiredBy: string): void {
  const skip: Skip = { file: callerFile(), what, why, requiredBy };
  mkdirSync(dirname(SKIPS_FILE), { recursive: true });
  appendFileSync(SKIPS_FILE, `${JSON.stringify(skip)}\n`);
}
