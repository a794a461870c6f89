/** Print a benchmark pair side by side with the ratio, the way every bench reports. */
import type { Bench } from 'tinybench';

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
