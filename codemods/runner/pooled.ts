/**
 * Worker threads run the steps one at a time, at about 8x the CPU per file; they only pay off
 * with more spare cores than that (see `defaultWorkers`).
 */
import { availableParallelism } from 'node:os';
import { handles } from '../apply.js';
import { append } from '../lib/append.js';
import type { Transform, TransformOptions } from '../types.js';
import type { Pool } from './pool.js';
import { cloneableOptions, reviveError, type Reply } from './protocol.js';
import type { Outcomes } from './types.js';

/** Below this many files, starting threads costs more than it saves. */
export const PARALLEL_THRESHOLD = 400;

/**
 * How many times the shared-parse chain's CPU a file costs in the worker pool, which runs the
 * steps one at a time (a parse per step and per scan), clones every text and starts threads.
 * Measured with `bench/codemods.ts` on 2 cores, 2,000 files: 2 workers took 8.4x the wall time
 * of one thread (10.5 s against 1.26 s), so each file costs the pool about 8x.
 */
export const POOLED_COST = 8;
const MAX_WORKERS = 16;

/**
 * Threads only where they can win: a large tree, and more spare cores than the pool's extra cost
 * per file (on fewer, one thread finishes first). On this project's 2-core machine that is never;
 * the 10-core threshold follows from the measured cost, not from a run on such a machine.
 * A pool that ran the shared chain would not change that on 2 cores: two threads each running the
 * whole chain on half of 8,000 files (no facts crossing, the best such a pool could do) took
 * 6.4–7.0 s of wall time against 5.6 s for one thread on all of them, since one thread's
 * collector already keeps the second core busy and a new thread starts TypeScript cold.
 */
export function defaultWorkers(files: number, cores = availableParallelism()): number {
  const spare = Math.min(MAX_WORKERS, cores - 1);
  return files >= PARALLEL_THRESHOLD && spare > POOLED_COST ? spare : 0;
}

/** One step at a time in worker threads (the pool gets the step's facts, then the files). */
export async function runPooled(
  steps: readonly Transform[],
  files: readonly string[],
  texts: Map<string, string>,
  options: TransformOptions,
  pool: Pool,
  progress: () => void,
): Promise<Outcomes> {
  const outcomes: Outcomes = new Map(files.map((f) => [f, []]));
  const current = new Map(files.map((f) => [f, texts.get(f)!]));
  // Cloned once per run, revived once per step in each worker (schemas as SDL, the graph as facts).
  const cloneable = cloneableOptions(options);
  for (const step of steps) {
    const mine = files.filter((f) => handles(step, f) && !outcomes.get(f)!.some((o) => o.error));
    const facts: unknown[] = [];
    const failed = new Map<string, Error>();
    // A worker knows the texts of its own share only and reads the rest from disk: say when an
    // earlier step made the disk older than the run (v5-to-v6's checker then trusts it less).
    const diskBehind = files.some((f) => current.get(f) !== texts.get(f));
    pool.broadcast({ op: 'options', transform: step.name, options: diskBehind ? { ...cloneable, diskBehind } : cloneable });
    if (step.scan) {
      const replies = await pool.run(mine.map((file) => ({ op: 'scan', transform: step.name, file, source: current.get(file)! })));
      replies.forEach((reply, i) => {
        if ('facts' in reply) append(facts, reply.facts);
        else if ('error' in reply) failed.set(mine[i]!, reviveError(reply.error));
      });
    }
    const pending = mine.filter((f) => !failed.has(f));
    for (const [file, error] of failed) outcomes.get(file)!.push({ transform: step.name, error });
    pool.broadcast({ op: 'facts', transform: step.name, facts });
    const replies: Reply[] = await pool.run(pending.map((file) => ({ op: 'apply', transform: step.name, file, source: current.get(file)! })), progress);
    replies.forEach((reply, i) => {
      const file = pending[i]!;
      if ('result' in reply) {
        outcomes.get(file)!.push({ transform: step.name, result: reply.result });
        current.set(file, reply.result.output);
      } else if ('error' in reply) outcomes.get(file)!.push({ transform: step.name, error: reviveError(reply.error) });
    });
  }
  return outcomes;
}
