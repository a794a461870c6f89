/**
 * The demo's server and its shutdown, apart from main.ts so tests can start it in-process: the
 * app served with the package's server limits, and a stop that is bounded at every step (the
 * connections, the last usage counts, the database), so a hung request or a locked table never
 * keeps the process from ending.
 */
import type { Hono } from 'hono';
import type { UsageRecorder } from 'ergraph/compat';
import { serveApp, type ServedApp, type ServerLimits } from 'ergraph/http';
import type { DemoDatabase } from './database.js';

/** How long each of the later shutdown steps may take (the connections have `shutdownTimeoutMs`). */
const SHUTDOWN_STEP_MS = 10_000;

function within(step: Promise<unknown>, what: string): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`ergraph demo: ${what} did not finish within ${SHUTDOWN_STEP_MS / 1000} s; stopping anyway`);
      resolve();
    }, SHUTDOWN_STEP_MS);
    timer.unref();
  });
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

export interface DemoServer {
  served: ServedApp;
  /** Connections (bounded by `shutdownTimeoutMs`), then the last usage counts, then the database. */
  stop(): Promise<void>;
}

export interface DemoServerOptions {
  hostname: string;
  port: number;
  /** Only for tests: the demo itself runs with the package's defaults. */
  limits?: ServerLimits;
}

/** Listens (rejects with the listen error, e.g. EADDRINUSE, having closed nothing). */
export async function serveDemo(app: Hono, database: DemoDatabase, usage: UsageRecorder | undefined, options: DemoServerOptions): Promise<DemoServer> {
  const served = await serveApp(app, { ...options.limits, hostname: options.hostname, port: options.port });
  let stopping: Promise<void> | undefined;
  return {
    served,
    stop() {
      stopping ??= (async () => {
        await served.close();
        if (usage) await within(usage.close(), 'writing the last usage counts'); // the counts of the last flush window
        // PGlite must close cleanly (it flushes its data directory) before the process ends.
        await within(
          database.close().catch((error: Error) => console.error(`ergraph demo: closing the database: ${error.message}`)),
          'closing the database',
        );
      })();
      return stopping;
    },
  };
}
