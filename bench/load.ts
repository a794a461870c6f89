/**
 * Load and soak (issue 27.8): the demo app (bench/http-server.ts: `/graphql` and `/graphql/v5`,
 * served through `serveApp` with the package's default server limits) under 50 connections for
 * 30 s on PGlite and on PostgreSQL, with the errors (which must be 0), p50/p99 latency and the
 * server's RSS before and after; and, when asked, a soak of several minutes with RSS sampled every
 * 10 s. Traffic goes to 127.0.0.1 only. autocannon (already the HTTP bench's load generator) sends
 * it, from this process; the server runs in a process of its own so its RSS is its own.
 *
 *   npm run bench -- load                                  50 connections × 30 s per database
 *   npm run bench -- load --soak                           and a 3-minute soak on PGlite (--soak=600: 10)
 *   npx tsx bench/load.ts [--seconds 30] [--connections 50] [--soak [180]] [--only pglite|postgres]
 *
 * PostgreSQL: ERGRAPH_PG_URL (default postgres://postgres@127.0.0.1:5432/test) names the server;
 * the bench creates a database of its own there and drops it afterwards. Without a server it
 * runs on PGlite only and says so.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import type { BenchRow, BenchRun } from './report.js';
import { rssMb, startServer, type Server } from './http.js';

const PG_URL = process.env.ERGRAPH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface LoadOptions {
  connections?: number;
  seconds?: number;
  /** Soak length in seconds (0: none); on PGlite, after the load runs. */
  soakSeconds?: number;
  only?: 'pglite' | 'postgres';
  log?: (line: string) => void;
}

export interface LoadResult {
  database: 'PGlite' | 'PostgreSQL';
  connections: number;
  seconds: number;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

export interface SoakResult {
  seconds: number;
  requests: number;
  errors: number;
  p99Ms: number;
  /** [seconds since start, RSS MB] every 10 s. */
  samples: Array<[number, number]>;
}

/** v6 and v5 documents, and a few client names (the usage counters see traffic as a fleet sends it). */
function requests(base: string) {
  const body = (query: string) => JSON.stringify({ query });
  const headers = (client: string) => ({ 'content-type': 'application/json', accept: 'application/json', 'x-client-name': client });
  return [
    { method: 'POST' as const, path: '/graphql', headers: headers('web'), body: body('{ User { getAll(limit: 20) { id name email projects(limit: 3) { items { id name } } } } }') },
    { method: 'POST' as const, path: '/graphql/v5', headers: headers('ios'), body: body('{ userGetAll(limit: 20) { id name projects(limit: 3) { items { id name } } } }') },
    { method: 'POST' as const, path: '/graphql', headers: headers('batch'), body: body('{ Task { getAll(limit: 10) { id title comments(limit: 2) { items { id body } } } } }') },
  ].map((r) => ({ ...r, url: base + r.path }));
}

/** Every answer must be 200 with data and no errors: autocannon counts non-2xx; this checks bodies once before load. */
async function checkAnswers(base: string): Promise<void> {
  for (const r of requests(base)) {
    const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
    const json = (await res.json()) as { data?: unknown; errors?: unknown };
    if (res.status !== 200 || !json.data || json.errors) throw new Error(`${r.path} answered ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  }
}

async function load(server: Server, connections: number, seconds: number, onTick?: () => void) {
  const url = new URL(server.base);
  if (url.hostname !== '127.0.0.1') throw new Error(`load goes to 127.0.0.1 only, not ${url.hostname}`);
  const tick = onTick ? setInterval(onTick, 10_000) : undefined;
  try {
    return await autocannon({ url: server.base, requests: requests(server.base), connections, duration: seconds, timeout: 30 });
  } finally {
    clearInterval(tick);
  }
}

/** A PostgreSQL database of the bench's own, or undefined (said why) when there is no server. */
async function createPgDatabase(log: (line: string) => void): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const name = `ergraph_load_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    log(`PostgreSQL at ${PG_URL} unavailable (${(error as Error).message}): PGlite only`);
    await admin.end().catch(() => undefined);
    return undefined;
  }
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise<void>((done) => server.child.once('exit', () => done()));
  server.child.kill('SIGTERM');
  await exited;
}

export async function runLoad(options: LoadOptions = {}): Promise<{ results: LoadResult[]; soak?: SoakResult }> {
  const connections = options.connections ?? 50;
  const seconds = options.seconds ?? 30;
  const log = options.log ?? ((line: string) => console.log(line));
  const results: LoadResult[] = [];
  let soak: SoakResult | undefined;
  for (const database of ['PGlite', 'PostgreSQL'] as const) {
    if (options.only && options.only !== database.toLowerCase()) continue;
    const pgDb = database === 'PostgreSQL' ? await createPgDatabase(log) : undefined;
    if (database === 'PostgreSQL' && !pgDb) continue;
    const server = await startServer('ergraph', pgDb ? { BENCH_DATABASE_URL: pgDb.url } : {});
    try {
      await checkAnswers(server.base);
      await load(server, 8, 2); // warm: documents cached, code compiled, pools filled
      const rssBeforeMb = rssMb(server.child.pid!);
      const r = await load(server, connections, seconds);
      const rssAfterMb = rssMb(server.child.pid!);
      const result: LoadResult = {
        database,
        connections,
        seconds,
        requests: r.requests.total,
        reqPerSec: r.requests.total / r.duration,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        maxMs: r.latency.max,
        errors: r.errors + r.timeouts + r.non2xx,
        rssBeforeMb,
        rssAfterMb,
      };
      results.push(result);
      log(
        `  ${database.padEnd(10)} ${connections} connections × ${seconds} s: ${result.requests} requests, ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms, ${result.errors} errors, RSS ${rssBeforeMb.toFixed(0)} → ${rssAfterMb.toFixed(0)} MB`,
      );
      if (database === 'PGlite' && options.soakSeconds) {
        const samples: Array<[number, number]> = [[0, rssMb(server.child.pid!)]];
        const t0 = Date.now();
        const s = await load(server, connections, options.soakSeconds, () => {
          samples.push([Math.round((Date.now() - t0) / 1000), rssMb(server.child.pid!)]);
          log(`    soak ${samples.at(-1)![0]} s: RSS ${samples.at(-1)![1].toFixed(0)} MB`);
        });
        samples.push([Math.round((Date.now() - t0) / 1000), rssMb(server.child.pid!)]);
        soak = { seconds: options.soakSeconds, requests: s.requests.total, errors: s.errors + s.timeouts + s.non2xx, p99Ms: s.latency.p99, samples };
        const rss = samples.map(([, mb]) => mb);
        log(
          `  soak on PGlite, ${connections} connections × ${options.soakSeconds} s: ${soak.requests} requests, p99 ${soak.p99Ms} ms, ${soak.errors} errors, RSS ${rss[0]!.toFixed(0)} → ${rss.at(-1)!.toFixed(0)} MB (min ${Math.min(...rss).toFixed(0)}, max ${Math.max(...rss).toFixed(0)})`,
        );
      }
    } finally {
      await stopServer(server);
      await pgDb?.drop().catch((error: Error) => log(`  could not drop the bench database: ${error.message}`));
    }
  }
  const failed = [...results.filter((r) => r.errors > 0).map((r) => `${r.database}: ${r.errors} errors`), ...(soak?.errors ? [`soak: ${soak.errors} errors`] : [])];
  if (failed.length > 0) throw new Error(`load must see 0 errors; ${failed.join(', ')}`);
  return { results, soak };
}

const soakFromEnv = () => Number(process.env.ERGRAPH_SOAK_SECONDS) || 0;

/**
 * For `npm run bench`: 30 s per database when the budget allows (`npm run bench -- load` alone
 * gets the whole budget), shorter within a full run. One row per database: p99 against p50 (the
 * tail against the middle), with throughput, errors and RSS in the case text.
 */
export const run: BenchRun = async ({ budgetMs }) => {
  const seconds = Math.max(5, Math.min(30, Math.floor((budgetMs - 60_000) / 2_000)));
  const { results, soak } = await runLoad({ seconds, soakSeconds: soakFromEnv() });
  const rows = results.map(
    (r): BenchRow => ({
      bench: 'load',
      case: `${r.database}, ${r.connections} connections × ${r.seconds} s: ${r.reqPerSec.toFixed(0)} req/s, ${r.errors} errors, RSS ${r.rssBeforeMb.toFixed(0)} → ${r.rssAfterMb.toFixed(0)} MB`,
      subject: 'p99',
      subjectMs: r.p99Ms,
      baseline: 'p50',
      baselineMs: r.p50Ms,
    }),
  );
  if (soak) {
    const rss = soak.samples.map(([, mb]) => mb);
    rows.push({
      bench: 'load',
      case: `soak, PGlite, ${soak.seconds} s: ${soak.requests} requests, ${soak.errors} errors, RSS ${rss[0]!.toFixed(0)} → ${rss.at(-1)!.toFixed(0)} MB (max ${Math.max(...rss).toFixed(0)})`,
      subject: 'p99',
      subjectMs: soak.p99Ms,
      baseline: 'first RSS sample, MB',
      baselineMs: rss[0]!,
    });
  }
  return rows;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const only = arg('only');
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new Error(`--only pglite|postgres, got ${only}`);
  console.log(`load bench: NODE_ENV=${process.env.NODE_ENV ?? 'production (servers)'}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await runLoad({
    seconds: arg('seconds') ? Number(arg('seconds')) : undefined,
    connections: arg('connections') ? Number(arg('connections')) : undefined,
    // --soak alone: 3 minutes.
    soakSeconds: process.argv.includes('--soak') ? Number(/^\d+$/.test(arg('soak') ?? '') ? arg('soak') : 180) : soakFromEnv(),
    only,
  });
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
