/**
 * `npm run demo -- [--port N] [--host H]` (or `npx tsx examples/demo/main.ts`): the demo service,
 * on embedded PGlite in `.demo-data/` (one process per directory), or on the PostgreSQL server
 * named by DATABASE_URL. Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C or SIGTERM
 * stops it after closing the database, so nothing written is lost.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createUsageRecorder, sqlUsageStore } from 'ergraph/compat';
import { createApp } from './app.js';
import { openDatabase, type DemoDatabase } from './database.js';
import { buildGraph } from './graph.js';
import { DataDirBusyError } from './lock.js';
import { serveDemo, type DemoServer } from './server.js';
import { ensureSeeded, SIZES } from './seed.js';

const fail = (message: string): never => {
  console.error(`ergraph demo: ${message}`);
  process.exit(1);
};

let options: { port?: string; host?: string };
try {
  ({ values: options } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true }));
} catch (error) {
  fail(`${(error as Error).message} (usage: npm run demo -- [--port N] [--host H])`);
}
const portText = options!.port ?? process.env.PORT ?? '4000';
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535) fail(`--port must be a port number (0-65535), got ${portText}`);
const hostname = options!.host ?? '127.0.0.1';

function portProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE') return `port ${port} on ${hostname} is already in use (pick another: npm run demo -- --port ${port + 1})`;
  if (error.code === 'EACCES') return `not allowed to listen on ${hostname}:${port}`;
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return `cannot listen on host ${hostname}`;
  return error.message;
}

// Say a port is busy before spending seconds on the database (the listen below still checks).
if (port !== 0) {
  await new Promise<void>((free) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => fail(portProblem(error)));
    probe.listen(port, hostname, () => probe.close(() => free()));
  });
}

const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
// The repository's gitignored .demo-data/, wherever the command is started from.
const defaultDataDir = fileURLToPath(new URL('../../.demo-data/pglite', import.meta.url));
const dataDir = process.env.DATABASE_URL ? undefined : (process.env.DEMO_DATA_DIR ?? defaultDataDir);
// Creating a PGlite directory runs PostgreSQL's initdb, most of a first start (tens of seconds on
// a busy machine): say so rather than print nothing until ready.
const creating = dataDir !== undefined && !existsSync(join(dataDir, 'PG_VERSION'));
if (creating) console.log(`ergraph demo: first start: creating the embedded database (PGlite) in ${dataDir}; later starts reuse it`);
const opening = Date.now();
let database: DemoDatabase;
try {
  database = await openDatabase({ url: process.env.DATABASE_URL, dataDir });
} catch (error) {
  fail(error instanceof DataDirBusyError ? error.message : `cannot open the database: ${(error as Error).message}`);
}
if (creating) console.log(`ergraph demo: database created in ${seconds(opening)}`);
const seeding = Date.now();
let tables = 0;
const seeded = await ensureSeeded(database!.db, SIZES, (table, rows) => {
  process.stdout.write(`${tables++ === 0 ? 'ergraph demo: seeding ' : ', '}${table} ${rows.toLocaleString('en-US')}`);
});
if (seeded) console.log(` (${seconds(seeding)})`);
// v5 use is counted in the demo's own database, so the retirement report survives restarts.
const usage = createUsageRecorder(sqlUsageStore(database!.db, { description: database!.description }));
const app = createApp(buildGraph(database!.db), database!.db, usage);

let closing = false;
let server: DemoServer | undefined;
async function stop(code: number) {
  if (closing) return;
  closing = true;
  if (server) await server.stop();
  else {
    // Listening failed: only the usage counts and the database to close.
    await usage.close().catch(() => undefined);
    await database.close().catch((error: Error) => console.error(`ergraph demo: closing the database: ${error.message}`));
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));
try {
  // The package's server limits: header/request/idle timeouts, a cap on connections, bounded shutdown.
  server = await serveDemo(app, database!, usage, { hostname, port });
} catch (error) {
  console.error(`ergraph demo: ${portProblem(error as NodeJS.ErrnoException)}`);
  await stop(1);
}
console.log(`ergraph demo on ${database!.description}${seeded ? ' (seeded now)' : ''}, ready in ${Date.now() - started} ms`);
const base = server!.served.url;
// Said in the lock before the ready line, so whoever reads the line finds it there.
database!.announce?.(`${base}/graphql/v5/usage`);
console.log(`${base}/ · GraphiQL: ${base}/graphql · ER diagram: ${base}/er · API docs: ${base}/docs · MCP: ${base}/mcp`);
console.log(`v5 compat: ${base}/graphql/v5 · who still calls it: ${base}/graphql/v5/usage`);
