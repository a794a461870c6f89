/**
 * A fleet behind a load balancer: four processes, each serving the v5 endpoint with its own usage
 * recorder (flushing every 100 ms) into one PostgreSQL database, each sending load to all four
 * over loopback, two of them with clocks a day off. Afterwards the stored totals must equal, per
 * field and client, exactly what was sent — and so must the operation catalog's counts, per
 * client and operation (issue 46.1).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizedOperation, openUsageStore, retirementReport, type UsageRecorderStatus } from 'ergraph/compat';
import { databaseTargets, PG_URL } from '../orm/databases.js';
import { recordSkip } from '../support/skips.js';

const PROCESSES = 4;
const REQUESTS_EACH = 150;
const DAY = 86_400_000;
const SKEWS = [0, DAY, -DAY, 5 * 60_000];
const hasServer = (await databaseTargets()).some((t) => t.name === 'postgres');

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const childScript = fileURLToPath(new URL('./fleet-child.ts', import.meta.url));

interface Child {
  process: ChildProcessWithoutNullStreams;
  next(): Promise<Record<string, unknown>>;
  send(message: unknown): void;
}

function start(id: number, usageUrl: string): Child {
  const child = spawn(process.execPath, [tsx, childScript], {
    env: { ...process.env, USAGE_URL: usageUrl, SKEW_MS: String(SKEWS[id]), CHILD_ID: String(id) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    process: child,
    async next() {
      const { value, done } = await lines.next();
      if (done) throw new Error(`fleet child ${id} ended early: ${stderr}`);
      return JSON.parse(value);
    },
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
  };
}

if (!hasServer) recordSkip('usage across a fleet of 4 processes (cross-process exactness)', 'no PostgreSQL server answers', 'ERGRAPH_REQUIRE_PG');

describe.runIf(hasServer)('usage across a fleet of 4 processes on one PostgreSQL database', () => {
  const schema = `ergraph_fleet_${process.pid}_${Date.now().toString(36)}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let children: Child[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
  });

  afterAll(async () => {
    for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('adds up exactly: stored totals per field and client equal the requests sent', { timeout: 60_000 }, async () => {
    const started = Date.now();
    children = Array.from({ length: PROCESSES }, (_, i) => start(i, url));
    const ports = (await Promise.all(children.map((c) => c.next()))).map((m) => m.ready as number);
    const readyMs = Date.now() - started;
    for (const c of children) c.send({ ports, requests: REQUESTS_EACH });
    const loads = await Promise.all(children.map((c) => c.next()));
    const sentByChild = loads.map((m) => m.sent as Record<string, number>);
    for (const c of children) c.send({ stop: true });
    const statuses = (await Promise.all(children.map((c) => c.next()))).map((m) => m.closed as UsageRecorderStatus);
    const loadMs = Date.now() - started;

    const expected: Record<string, number> = {};
    for (const sent of sentByChild) for (const [key, n] of Object.entries(sent)) expected[key] = (expected[key] ?? 0) + n;

    const store = await openUsageStore(url);
    try {
      const snapshot = await store.read('2000-01-01');
      const stored: Record<string, number> = {};
      for (const r of snapshot.rows) stored[`${r.coordinate} ${r.client}`] = (stored[`${r.coordinate} ${r.client}`] ?? 0) + r.count;
      const total = Object.values(expected).reduce((a, b) => a + b, 0);
      console.log(`fleet: ${PROCESSES} processes, ${PROCESSES * REQUESTS_EACH} requests, ${total} field uses, ${snapshot.rows.length} rows; started in ${readyMs} ms, load and shutdown ${loadMs - readyMs} ms`);

      expect(stored).toEqual(expected);
      expect(total).toBeGreaterThan(PROCESSES * REQUESTS_EACH);
      // The long client header was cut, the missing one recorded as unknown.
      expect(Object.keys(stored).some((k) => k.endsWith(` long-${'n'.repeat(95)}`))).toBe(true);
      expect(Object.keys(stored).some((k) => k.endsWith(' unknown'))).toBe(true);
      // Skewed clocks put uses on three different days; none is lost.
      expect(new Set(snapshot.rows.map((r) => r.day)).size).toBeGreaterThanOrEqual(3);
      for (const s of statuses) expect(s).toMatchObject({ pendingUses: 0, lostUses: 0, failedFlushes: 0, droppedOperations: 0 });

      // The catalog: one row per client and operation, its count exactly the requests sent.
      const normalized = (query: string) => {
        const document = parse(query);
        return normalizedOperation(document, document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!);
      };
      const sentOperations: Record<string, number> = {};
      for (const load of loads) {
        for (const [key, n] of Object.entries(load.operations as Record<string, number>)) {
          const [query, client] = key.split('\u0000') as [string, string];
          const at = `${client}: ${normalized(query)}`;
          sentOperations[at] = (sentOperations[at] ?? 0) + n;
        }
      }
      const catalog = Object.fromEntries((await store.readOperations!()).map((r) => [`${r.client}: ${r.text}`, r.count]));
      expect(catalog).toEqual(sentOperations);
      expect(statuses.reduce((n, s) => n + s.flushes, 0)).toBeGreaterThan(PROCESSES);

      // The report over the same database counts every use, the ahead-of-time day included.
      const report = await retirementReport(store, { days: 30 });
      expect(report.fields.reduce((n, f) => n + f.count, 0)).toBe(total);
      expect(report.fields.find((f) => f.coordinate === 'Query.userById')?.verdict.status).toBe('in-use');
      expect(report.fields.find((f) => f.coordinate === 'Query.userGetAll')?.replacement).toBe('User.getAll');
    } finally {
      await store.close();
    }
  });
});
