/**
 * `npm run bench`: every bench in bench/, one after another, each in a process of its own (one
 * bench's JIT and heap state must not weigh on the next), within a total time budget, then one
 * table of ratios with the machine's load average.
 *
 *   npm run bench                      all benches, about 5 minutes (BENCH_BUDGET_MS to change it)
 *   npm run bench -- graphql compat    only these
 *   npm run bench -- load --soak       the load bench and a 3-minute soak (--soak=600: 10 minutes)
 *
 * A bench module exports `run(options): Promise<BenchRow[]>` (bench/report.ts); one that does not
 * yet is run as a script and its output shown as it is. Benches run with NODE_ENV=production,
 * as servers do; the GraphQL bench also runs without it, to show what it changes.
 *
 * They run the built package (`dist/`, built first when stale), as users and the bins get it:
 * bench/tsconfig.json drops the source paths, so `ergraph` resolves to the package's own exports.
 * tsx's output of the sources is not what users run (esbuild's name-keeping wrappers alone cost a
 * codemod run ~3%).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { version as graphqlVersion } from 'graphql';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import buildIfStale from '../test/support/build-if-stale.js';
import { printRows, type BenchRow, type BenchRun } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROWS = 'BENCH_ROWS ';

/** Child mode: run one module and hand its rows back on stdout. */
async function child(file: string, budgetMs: number): Promise<void> {
  process.env.BENCH_CHILD = '1';
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: BenchRun };
  if (typeof mod.run !== 'function') throw new Error(`${file} exports no run()`);
  const rows = await mod.run({ budgetMs });
  console.log(ROWS + JSON.stringify(rows));
}

interface Outcome {
  rows: BenchRow[];
  output: string;
  ok: boolean;
  ms: number;
}

/** Whether a module follows the contract (exports `run`); others run as scripts, as they do alone. */
const followsContract = (file: string) => /export (const|async function|function) run\b/.test(readFileSync(join(here, file), 'utf8'));

function runChild(file: string, budgetMs: number, env: Record<string, string | undefined>): Promise<Outcome> {
  const started = Date.now();
  // tsx's ESM hooks only: its CJS hook loads graphql 17's index.mjs a second time for CommonJS
  // packages (graphql-jit's `require('graphql')`), and jit then rejects the bench's schema types
  // as foreign ("unsupported type"). Node's own require(esm) shares the one instance.
  const args = followsContract(file)
    ? ['--import', 'tsx/esm', fileURLToPath(import.meta.url), '--child', file, String(budgetMs)]
    : ['--import', 'tsx/esm', join(here, file)];
  return new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, TSX_TSCONFIG_PATH: join(here, 'tsconfig.json'), ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
    const proc = spawn(process.execPath, args, {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout.on('data', (d: Buffer) => (output += d));
    proc.stderr.on('data', (d: Buffer) => (output += d));
    // Bounded: a bench that overruns its budget by far is stopped and reported as such.
    let killed = false;
    const limit = setTimeout(() => {
      killed = true;
      proc.kill('SIGKILL');
    }, budgetMs * 3 + 90_000);
    proc.on('close', (code) => {
      clearTimeout(limit);
      if (killed) output += `\nstopped after ${Math.round((Date.now() - started) / 1000)} s: far over its budget of ${Math.round(budgetMs / 1000)} s`;
      const line = output.split('\n').find((l) => l.startsWith(ROWS));
      const rows = line ? (JSON.parse(line.slice(ROWS.length)) as BenchRow[]) : [];
      const rest = output
        .split('\n')
        .filter((l) => !l.startsWith(ROWS) && !/^npm warn/.test(l))
        .join('\n')
        .trim();
      resolve({ rows, output: rest, ok: code === 0, ms: Date.now() - started });
    });
  });
}

async function main(): Promise<void> {
  // `--soak` or `--soak=SECONDS`: the load bench's soak (bench/load.ts), 180 s unless told; the
  // other words name the benches to run.
  const words = process.argv.slice(2);
  const soak = words.find((w) => /^--soak(=\d+)?$/.test(w));
  const unknown = words.filter((w) => w.startsWith('-') && w !== soak);
  if (unknown.length) throw new Error(`unknown option ${unknown.join(' ')} (only --soak[=SECONDS])`);
  if (soak) process.env.ERGRAPH_SOAK_SECONDS = soak.split('=')[1] ?? '180';
  const only = words.filter((w) => !w.startsWith('-'));
  const files = readdirSync(here)
    // http-server.ts and sql-support.ts are pieces of other benches, not benches.
    .filter((f) => f.endsWith('.ts') && !['run.ts', 'report.ts', 'http-server.ts', 'sql-support.ts'].includes(f) && !f.includes('.tmp.'))
    .filter((f) => !only.length || only.includes(basename(f, '.ts')))
    .sort();
  const total = Number(process.env.BENCH_BUDGET_MS) || 300_000;
  const each = Math.floor(total / (files.length + (files.includes('graphql.ts') ? 1 : 0)));
  buildIfStale();
  const load = loadavg();
  console.log(`ergraph benches: ${files.join(', ')}; about ${Math.round(total / 1000)} s in all`);
  console.log(`node ${process.version}, graphql ${graphqlVersion}, ${cpus().length} cores, load average ${load.map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min)\n`);

  const rows: BenchRow[] = [];
  for (const file of files) {
    process.stdout.write(`${file} ... `);
    const outcome = await runChild(file, each, { NODE_ENV: 'production' });
    console.log(`${outcome.ok ? 'done' : 'FAILED'} in ${(outcome.ms / 1000).toFixed(1)} s`);
    if (outcome.output) console.log(outcome.output.replace(/^/gm, '  '));
    rows.push(...outcome.rows);
    if (file === 'graphql.ts' && outcome.ok) {
      // NODE_ENV: graphql-js checks `instanceof` across realms unless it is 'production'.
      process.stdout.write('graphql.ts without NODE_ENV=production ... ');
      const dev = await runChild(file, each, { NODE_ENV: undefined });
      console.log(`${dev.ok ? 'done' : 'FAILED'} in ${(dev.ms / 1000).toFixed(1)} s`);
      for (const d of dev.rows) {
        const p = outcome.rows.find((r) => r.case === d.case);
        if (!p) continue;
        rows.push({
          bench: 'NODE_ENV',
          case: `graphql ${d.case}`,
          subject: 'ergraph, production',
          subjectMs: p.subjectMs,
          baseline: 'ergraph, unset',
          baselineMs: d.subjectMs,
          others: {
            'graphql-js + DataLoader, production': p.others?.['graphql-js + DataLoader'] ?? NaN,
            'graphql-js + DataLoader, unset': d.others?.['graphql-js + DataLoader'] ?? NaN,
          },
        });
      }
    }
  }
  console.log();
  printRows(rows);
  const after = loadavg();
  console.log(`load average after: ${after.map((l) => l.toFixed(2)).join(' ')}; node ${process.version}, graphql ${graphqlVersion}; times are medians of alternating rounds, in this process's CPU time (wall time for the SQL benches, whose server work is another process's, and the CLI start)`);
}

if (process.argv[2] === '--child') await child(process.argv[3]!, Number(process.argv[4]));
else await main();
