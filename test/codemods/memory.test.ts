/**
 * The memory budget for held trees: past it, a wanted file is parsed again by each pass that
 * reads it instead of being held. A run over budget must report exactly what a run within it does
 * (cross-file facts, segments, manual items and notes included).
 */
import { afterEach, expect, it } from 'vitest';
import { join } from 'node:path';
import { upgradePath } from '../../codemods/registry.js';
import { setHeldSourceBudget } from '../../codemods/runner/parses.js';
import { runMigration, type MigrationReport } from '../../codemods/runner/run.js';
import { FIXTURES } from './helpers.js';

let restore: number | undefined;
afterEach(() => {
  if (restore !== undefined) setHeldSourceBudget(restore);
  restore = undefined;
});

const migrate = (app: string): Promise<MigrationReport> => {
  const cwd = join(FIXTURES, 'corpus', app, 'old');
  // No schema: v5-to-v6 runs as a segment of its own after the lookup, as from the CLI.
  return runMigration({ transforms: upgradePath('3', '6'), paths: ['.'], cwd, workers: 0, dryRun: true, gitignore: false, resolveSchema: async () => undefined });
};
const outcome = (report: MigrationReport) =>
  report.files.map(({ file, after, transforms, manual, notes, pending, notForThisApi, error }) => ({ file, after, transforms, manual, notes, pending, notForThisApi, error }));

it('a run holding no tree reports what a run holding every tree does', async () => {
  const within = await migrate('v3-blog');
  expect(within.summary.changed).toBeGreaterThan(3);
  expect(within.summary.errors).toBe(0);
  restore = setHeldSourceBudget(0);
  const over = await migrate('v3-blog');
  expect(outcome(over)).toEqual(outcome(within));
  expect(over.summary).toEqual({ ...within.summary, seconds: over.summary.seconds });
});
