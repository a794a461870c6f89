/**
 * The contract every bench follows, and how they are timed.
 *
 * A bench module exports `run(options): Promise<BenchRow[]>` — one row per comparison of a
 * subject (ergraph) with its baseline (the fastest known peer for the job), measured side by side
 * in the same process — and stays runnable alone (`npx tsx bench/<name>.ts`, through `runAlone`).
 * `npm run bench` (bench/run.ts) runs every module within a time budget and prints one table.
 *
 * Timing (`alternate`): rounds of one call per side, the order rotating every round, until the
 * budget is spent; each side reports its median round, in CPU time. tinybench timed one side for seconds and
 * then the other, so a change of load in between (other processes on a shared 2-core machine)
 * landed on one side only and the ratio swung from 0.53x to 1.68x between runs.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Bench } from 'tinybench';

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
  /** Untimed rounds first (JIT warm-up; default 1). */
  warmup?: number;
}

/**
 * Median ms per call of each side, from alternating rounds. Time is the process's CPU time
 * (user + system, `process.cpuUsage`), not wall time: on a shared machine wall time includes
 * waiting for a core, which no side controls. Calls shorter than ~5 ms are repeated within a
 * round so each measurement is well above the clock's resolution.
 */
export async function alternate(
  sides: Record<string, () => unknown>,
  { budgetMs, minRounds = 3, maxRounds = 200, warmup = 1 }: AlternateOptions,
): Promise<{ ms: Record<string, number>; rounds: number }> {
  const names = Object.keys(sides);
  const reps: Record<string, number> = {};
  for (const name of names) {
    // Warm-up rounds also size the repetitions; without warm-up one call is timed for that.
    const calls = Math.max(warmup, 1);
    let spent = 0;
    for (let i = 0; i < calls; i++) spent += await cpuMs(sides[name]!, 1);
    reps[name] = Math.max(1, Math.ceil(5 / Math.max(spent / calls, 0.001)));
  }
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const start = performance.now();
  let rounds = 0;
  while (rounds < maxRounds && (rounds < minRounds || performance.now() - start < budgetMs)) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + rounds) % names.length]!;
      times[name]!.push((await cpuMs(sides[name]!, reps[name]!)) / reps[name]!);
    }
    rounds++;
  }
  const ms = Object.fromEntries(names.map((n) => [n, median(times[n]!)]));
  return { ms, rounds };
}

async function cpuMs(side: () => unknown, reps: number): Promise<number> {
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
    return line;
  });
  console.table(table);
}

/** Run `bench` when its module is the program (`npx tsx bench/<name>.ts`), and print its rows. */
export async function runAlone(meta: ImportMeta, bench: BenchRun, budgetMs: number): Promise<void> {
  if (process.argv[1] !== fileURLToPath(meta.url)) return;
  const rows = await bench({ budgetMs: Number(process.env.BENCH_BUDGET_MS) || budgetMs });
  printRows(rows);
}

/** Print a tinybench pair side by side with the ratio (benches not yet on `alternate`). */
export function report(title: string, bench: Bench, subject: string, baseline: string, target?: number): number {
  const mean = (name: string) => {
    const task = bench.getTask(name);
    const result = task?.result as { latency?: { mean?: number }; mean?: number } | undefined;
    const value = result?.latency?.mean ?? result?.mean;
    if (value === undefined) throw new Error(`benchmark task '${name}' has no result`);
    return value;
  };
  const s = mean(subject);
  const b = mean(baseline);
  const ratio = s / b;
  console.log(`\n${title}`);
  console.log(`  ${subject.padEnd(36)} ${s.toFixed(2).padStart(10)} ms/op`);
  console.log(`  ${baseline.padEnd(36)} ${b.toFixed(2).padStart(10)} ms/op`);
  console.log(`  ratio ${subject} / ${baseline} = ${ratio.toFixed(2)}x${target ? ` (target <= ${target}x)` : ''}`);
  return ratio;
}
