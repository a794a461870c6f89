/**
 * The contract every bench follows, and how they are timed.
 *
 * A bench module exports `run(options): Promise<BenchRow[]>` — one row per comparison of a
 * subject (ergraph) with its baseline (the fastest known peer for the job), measured side by side
 * in the same process — and stays runnable alone (`npm run bench -- <name>` for the built package;
 * `npx tsx bench/<name>.ts` runs the sources, through `runAlone`, and says so).
 * `npm run bench` (bench/run.ts) runs every module within a time budget and prints one table.
 *
 * Timing (`alternate`): rounds of one call per side, the order rotating every round, until the
 * budget is spent; each side reports its median round, in CPU time (wall time for benches whose
 * work happens in another process, such as a database server). tinybench timed one side for seconds and
 * then the other, so a change of load in between (other processes on a shared 2-core machine)
 * landed on one side only and the ratio swung from 0.53x to 1.68x between runs.
 */
import { openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { version as graphqlVersion } from 'graphql';

export interface BenchRow {
  /** The bench module, e.g. `graphql`. */
  bench: string;
  /** What this row measures, e.g. `1,000 roots, depth 3`. */
  case: string;
  subject: string;
  subjectMs: number;
  baseline: string;
  baselineMs: number;
  /** Other sides measured in the same rounds, ms per operation by name. */
  others?: Record<string, number>;
  /** The ratio subject / baseline the project aims at (at most). */
  target?: number;
  /** Rounds each side ran. */
  rounds?: number;
  /** Anything else the row should say (plan shape, bytes). */
  note?: string;
}

export interface BenchOptions {
  /** Wall time this bench may take, in ms (roughly: a round in progress finishes). */
  budgetMs: number;
}

export type BenchRun = (options: BenchOptions) => Promise<BenchRow[]>;

export interface AlternateOptions {
  /** Time for the timed rounds, ms. */
  budgetMs: number;
  /** Rounds run even past the budget (default 3). */
  minRounds?: number;
  maxRounds?: number;
  /**
   * Untimed calls first, round-robin until this much wall time has passed (every side is called
   * at least once), before the calibration runs. Default: a tenth of `budgetMs`, at most 1 s.
   * V8 compiles hot code on background threads whose CPU time the process clock charges to
   * whichever side is running: timed from cold, the side with more code to compile paid for it
   * (the first GraphQL case, 10 roots, read 1.2-1.4x after one warm-up call and ~1.0x warm).
   */
  warmupMs?: number;
  /**
   * `cpu` (default): this process's CPU time. `wall`: elapsed time, for sides whose work is
   * done elsewhere (a PostgreSQL server), which this process's CPU time would not see.
   */
  clock?: 'cpu' | 'wall';
  /**
   * Every side makes as many calls per round as the slowest-calibrating one needs (the largest
   * count), instead of each its own: for sides of a few microseconds, where a count per side
   * made each side's rounds differ in length and in how much of the collector's work they met.
   */
  sameCalls?: boolean;
}

/**
 * Median ms per call of each side, from alternating rounds. Time is the process's CPU time
 * (user + system, `process.cpuUsage`), not wall time: on a shared machine wall time includes
 * waiting for a core, which no side controls. Calls shorter than ~5 ms are repeated within a
 * round so each measurement is well above the clock's resolution.
 */
export async function alternate(
  sides: Record<string, () => unknown>,
  { budgetMs, minRounds = 3, maxRounds = 200, warmupMs = Math.min(1000, budgetMs / 10), clock = 'cpu', sameCalls = false }: AlternateOptions,
): Promise<{ ms: Record<string, number>; threadMs?: Record<string, number>; rounds: number }> {
  const names = Object.keys(sides);
  const warmUntil = performance.now() + warmupMs;
  const slice = warmupMs / (names.length * 4);
  do {
    for (const name of names) {
      const until = performance.now() + slice;
      do await sides[name]!();
      while (performance.now() < until);
    }
  } while (performance.now() < warmUntil);
  const reps: Record<string, number> = {};
  for (const name of names) {
    // Calibrate: double the calls until they take 5 ms, so each timed round is well above the
    // clock's resolution. A first (cold, unoptimised) call of a fast side would otherwise size
    // its rounds far too small; the doubling runs also finish warming it up.
    let calls = 1;
    while (calls < 1 << 20 && (await timeMs('wall', sides[name]!, calls)) < 5) calls *= 2;
    reps[name] = calls;
  }
  if (sameCalls) {
    const most = Math.max(...Object.values(reps));
    for (const name of names) reps[name] = most;
  }
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const threadTimes: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const thread = clock === 'cpu' ? threadCpuMs : undefined;
  const start = performance.now();
  let rounds = 0;
  while (rounds < maxRounds && (rounds < minRounds || performance.now() - start < budgetMs)) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + rounds) % names.length]!;
      const threadBefore = thread?.();
      times[name]!.push((await timeMs(clock, sides[name]!, reps[name]!)) / reps[name]!);
      if (thread) threadTimes[name]!.push((thread() - threadBefore!) / reps[name]!);
    }
    rounds++;
  }
  const ms = Object.fromEntries(names.map((n) => [n, median(times[n]!)]));
  const threadMs = thread && Object.fromEntries(names.map((n) => [n, median(threadTimes[n]!)]));
  return { ms, threadMs, rounds };
}

/**
 * This thread's CPU time in ms, where the platform gives it (Node 23.9+'s
 * `process.threadCpuUsage`, else Linux's `/proc/thread-self/schedstat`, read through one open
 * descriptor, ~3 µs a read). The process clock also counts V8's helper threads, which collect
 * every side's garbage concurrently and so charge it to whichever side's round is running; this
 * clock counts only the work done on the thread running the side (its own scavenges and marking
 * steps included). Reading schedstat does not bring the running thread's total up to date (it moves
 * at scheduler ticks: 0.7 ms of work read 0.00 or 4.00 ms); asking the process's usage first
 * (`getrusage` of the process) does, so every read is preceded by one; Linux's per-thread usage,
 * behind `threadCpuUsage`, is read the same way.
 */
const threadCpuMs = ((): (() => number) | undefined => {
  const own = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (typeof own === 'function') {
    return () => {
      process.cpuUsage();
      const { user, system } = own.call(process);
      return (user + system) / 1000;
    };
  }
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(64);
  return () => {
    process.cpuUsage();
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return Number(buffer.toString('latin1', 0, read).split(' ', 1)[0]) / 1e6;
  };
})();

/**
 * The subject's ratio on the main thread's clock, for a row's note: the two clocks differ by the
 * concurrent collection of every side's garbage, which the process clock charges to whichever side
 * ran (docs/benchmarks.md "Both clocks"). Undefined where the platform has no thread clock.
 */
export function mainThreadRatio(threadMs: Record<string, number> | undefined, subject: string, baseline: string): string | undefined {
  return threadMs && `main thread ${(threadMs[subject]! / threadMs[baseline]!).toFixed(2)}x`;
}

async function timeMs(clock: 'cpu' | 'wall', side: () => unknown, reps: number): Promise<number> {
  if (clock === 'wall') {
    const start = performance.now();
    for (let i = 0; i < reps; i++) await side();
    return performance.now() - start;
  }
  const before = process.cpuUsage();
  for (let i = 0; i < reps; i++) await side();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/** Print rows as one table: every side's time, and the ratio subject / baseline against its target. */
export function printRows(rows: readonly BenchRow[]): void {
  const table = rows.map((r) => {
    const ratio = r.subjectMs / r.baselineMs;
    const line: Record<string, string> = {
      bench: r.bench,
      case: r.case,
      [`subject ms`]: `${fmt(r.subjectMs)} (${r.subject})`,
      [`baseline ms`]: `${fmt(r.baselineMs)} (${r.baseline})`,
      ratio: `${ratio.toFixed(2)}x`,
      target: r.target ? `<= ${r.target}x ${ratio <= r.target ? 'ok' : 'MISSED'}` : '',
    };
    if (r.others) line.others = Object.entries(r.others).map(([n, ms]) => `${n} ${fmt(ms)}`).join('; ');
    if (r.note) line.note = r.note;
    return line;
  });
  console.table(table);
}

/** Run `bench` when its module is the program (`npx tsx bench/<name>.ts`), and print its rows. */
export async function runAlone(meta: ImportMeta, bench: BenchRun, budgetMs: number): Promise<void> {
  if (process.argv[1] !== fileURLToPath(meta.url)) return;
  const rows = await bench({ budgetMs: Number(process.env.BENCH_BUDGET_MS) || budgetMs });
  printRows(rows);
  console.log(`ergraph from ${import.meta.resolve('ergraph')}; node ${process.version}, graphql ${graphqlVersion}`);
}
