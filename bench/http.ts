/**
 * HTTP load bench (issue 13.9, 14.4): requests per second, p50/p99 latency and the server's RSS
 * before and after load, for the demo's `/graphql` and `/graphql/v5` beside a minimal Hono +
 * graphql-js + DataLoader server over the same tables and rows. Loopback only; each server in a
 * process of its own (bench/http-server.ts); autocannon (in this process) sends a bounded number
 * of rounds of a fixed duration, the targets' order rotating each round so load changes on the
 * machine spread over all of them.
 *
 *   npx tsx bench/http.ts [--rounds 3] [--seconds 3] [--connections 8]
 *
 * `runHttpBench(options)` returns the rows for the `npm run bench` runner.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import type { BenchRow, BenchRun } from './report.js';

export interface HttpBenchOptions {
  rounds?: number;
  /** Length of one round against one target. */
  seconds?: number;
  connections?: number;
  log?: (line: string) => void;
}

export interface HttpBenchRow {
  bench: 'http';
  target: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  /** req/s of this target / req/s of the minimal graphql-js server (higher is better). */
  ratio: number;
  errors: number;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The same data asked three ways: 20 users, each with its 3 newest projects. */
const TARGETS = [
  { name: 'ergraph /graphql', server: 'ergraph', path: '/graphql', query: '{ User { getAll(limit: 20) { id name email projects(limit: 3) { items { id name } } } } }' },
  { name: 'ergraph /graphql/v5', server: 'ergraph', path: '/graphql/v5', query: '{ userGetAll(limit: 20) { id name email projects(limit: 3) { items { id name } } } }' },
  { name: 'minimal graphql-js', server: 'minimal', path: '/graphql', query: '{ users(limit: 20) { id name email projects(limit: 3) { items { id name } } } }' },
] as const;

export interface Server {
  child: ChildProcess;
  base: string;
}

/** A bench server (bench/http-server.ts) in a process of its own; `env` adds to this process's. */
export async function startServer(kind: string, env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/http-server.ts', kind], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production', ...env },
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start within 180 s`)), 180_000);
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as { port?: number };
      if (parsed.port) {
        clearTimeout(timer);
        resolvePort(parsed.port);
      }
    });
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** The rows each target answers, in one shape, so the bench compares equal work. */
function rowsOf(json: any): unknown {
  const users = json?.data?.User?.getAll ?? json?.data?.userGetAll ?? json?.data?.users;
  return users;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runHttpBench(options: HttpBenchOptions = {}): Promise<HttpBenchRow[]> {
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 3;
  const connections = options.connections ?? 8;
  const log = options.log ?? ((line: string) => console.log(line));
  const servers = new Map<string, Server>();
  try {
    for (const kind of ['ergraph', 'minimal']) servers.set(kind, await startServer(kind));
    const request = (t: (typeof TARGETS)[number]) => ({
      url: servers.get(t.server)!.base + t.path,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: t.query }),
    });

    // Same answer from all three, and warm (documents cached, JIT-compiled) before measuring.
    let expected: string | undefined;
    for (const t of TARGETS) {
      const r = request(t);
      const json = await (await fetch(r.url, { method: 'POST', headers: r.headers, body: r.body })).json();
      const rows = JSON.stringify(rowsOf(json));
      if (!rowsOf(json)) throw new Error(`${t.name} answered ${JSON.stringify(json).slice(0, 300)}`);
      if (expected !== undefined && rows !== expected) throw new Error(`${t.name} answers different rows than ${TARGETS[0].name}`);
      expected = rows;
      await autocannon({ ...request(t), connections, duration: 1 });
    }

    const rssBefore = new Map([...servers].map(([kind, s]) => [kind, rssMb(s.child.pid!)]));
    const samples = new Map<string, { requests: number; seconds: number; p50: number[]; p99: number[]; errors: number }>();
    for (let round = 0; round < rounds; round++) {
      // Rotate the order each round: whoever runs first does not always get the quiet machine.
      const order = TARGETS.map((_, i) => TARGETS[(i + round) % TARGETS.length]!);
      for (const t of order) {
        const result = await autocannon({ ...request(t), connections, duration: seconds });
        const s = samples.get(t.name) ?? { requests: 0, seconds: 0, p50: [], p99: [], errors: 0 };
        s.requests += result.requests.total;
        s.seconds += result.duration;
        s.p50.push(result.latency.p50);
        s.p99.push(result.latency.p99);
        s.errors += result.errors + result.non2xx + result.timeouts;
        samples.set(t.name, s);
        log(`  round ${round + 1}/${rounds} ${t.name.padEnd(22)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`);
      }
    }
    const rssAfter = new Map([...servers].map(([kind, s]) => [kind, rssMb(s.child.pid!)]));

    const minimal = samples.get('minimal graphql-js')!;
    const minimalRate = minimal.requests / minimal.seconds;
    return TARGETS.map((t) => {
      const s = samples.get(t.name)!;
      const reqPerSec = s.requests / s.seconds;
      return {
        bench: 'http',
        target: t.name,
        reqPerSec,
        p50Ms: median(s.p50),
        p99Ms: median(s.p99),
        rssBeforeMb: rssBefore.get(t.server)!,
        rssAfterMb: rssAfter.get(t.server)!,
        ratio: reqPerSec / minimalRate,
        errors: s.errors,
      };
    });
  } finally {
    for (const s of servers.values()) s.child.kill('SIGTERM');
  }
}

export function printHttpRows(rows: readonly HttpBenchRow[], log: (line: string) => void = console.log): void {
  log('\nHTTP load (loopback; same query, same rows; server RSS in MB)');
  log(`  ${'target'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'RSS before'.padStart(11)} ${'after'.padStart(7)} ${'vs minimal'.padStart(11)} errors`);
  for (const r of rows) {
    log(
      `  ${r.target.padEnd(22)} ${r.reqPerSec.toFixed(0).padStart(8)} ${String(r.p50Ms).padStart(7)} ${String(r.p99Ms).padStart(7)} ${r.rssBeforeMb.toFixed(0).padStart(11)} ${r.rssAfterMb.toFixed(0).padStart(7)} ${`${r.ratio.toFixed(2)}x`.padStart(11)} ${r.errors}`,
    );
  }
  log('  (the demo app serves /graphql and /graphql/v5 from one process: one RSS for both)');
  log('  target: ergraph /graphql >= 1.00x the minimal server');
}

/**
 * For `npm run bench`: the rounds sized to the budget (3 targets per round, servers start in a
 * few seconds), one row per ergraph endpoint against the minimal server, in ms per request
 * (1 / throughput, so the ratio reads like the other benches: lower is better).
 */
export const run: BenchRun = async ({ budgetMs }) => {
  const rounds = 3;
  const seconds = Math.max(2, Math.min(10, Math.floor((budgetMs - 15_000) / (rounds * TARGETS.length * 1000))));
  const rows = await runHttpBench({ rounds, seconds, log: () => undefined });
  printHttpRows(rows);
  const minimal = rows.find((r) => r.target === 'minimal graphql-js')!;
  return rows
    .filter((r) => r !== minimal)
    .map(
      (r): BenchRow => ({
        bench: 'http',
        case: `${r.target}, req/s ${r.reqPerSec.toFixed(0)} vs ${minimal.reqPerSec.toFixed(0)}, p99 ${r.p99Ms} vs ${minimal.p99Ms} ms`,
        subject: r.target,
        subjectMs: 1000 / r.reqPerSec,
        baseline: 'minimal Hono + graphql-js + DataLoader',
        baselineMs: 1000 / minimal.reqPerSec,
        target: r.target === 'ergraph /graphql' ? 1 : undefined,
        rounds,
      }),
    );
};

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const load = await import('node:os').then((os) => os.loadavg().map((l) => l.toFixed(2)).join(' '));
  console.log(`HTTP bench: NODE_ENV=${process.env.NODE_ENV ?? 'production (servers)'}, load average ${load}`);
  const rows = await runHttpBench({ rounds: arg('rounds'), seconds: arg('seconds'), connections: arg('connections') });
  printHttpRows(rows);
}
