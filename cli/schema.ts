/**
 * `ergraph schema print --app <module> [--name <app>] [--v5]` and
 * `ergraph schema diff <old> <new> [--usage <database>] [--days N] [--format text|json]`.
 */
import { formatSchemaDiff, schemaDiff } from '../src/schema/diff.js';
import { schemaSdl } from '../src/schema/index.js';
import { requirePeers, usageStorePeers } from '../src/peers/peers.js';
import { EXIT, UsageError, type CliIO } from './io.js';
import { loadApps, pickApp } from './load-apps.js';

export interface SchemaPrintArgs {
  app: string;
  name?: string;
  v5: boolean;
}

export async function schemaPrintCommand(args: SchemaPrintArgs, io: CliIO): Promise<number> {
  const app = pickApp(await loadApps(args.app, io.cwd), args.name, args.app);
  if (args.v5) {
    const { v5SchemaSdl } = await import('../compat/flat-schema.js');
    io.stdout.write(v5SchemaSdl(app.handler));
  } else io.stdout.write(schemaSdl(app.handler));
  return EXIT.ok;
}

export interface SchemaDiffArgs {
  old: string;
  new: string;
  usage?: string;
  days: number;
  format: 'text' | 'json';
  timeout: number;
}

/** Exit 1 when a breaking change remains (after the usage downgrade), as CI checks expect. */
export async function schemaDiffCommand(args: SchemaDiffArgs, io: CliIO): Promise<number> {
  let unused: ((coordinates: readonly string[]) => Promise<boolean[]>) | undefined;
  if (!Number.isInteger(args.days) || args.days < 1 || args.days > 3660) throw new UsageError(`--days must be a whole number from 1 to 3660, got ${args.days}`);
  if (args.usage) {
    requirePeers(`schema diff --usage ${args.usage.split(':')[0]}:…`, usageStorePeers(args.usage), io.env);
    const [{ openUsageStore }, { unusedCoordinates }] = await Promise.all([import('../compat/usage-open.js'), import('../compat/usage-report.js')]);
    const store = await openUsageStore(args.usage, { timeoutMs: args.timeout, existing: true });
    try {
      unused = await unusedCoordinates(store, { days: args.days });
    } finally {
      await store.close().catch(() => undefined);
    }
  }
  const result = await schemaDiff(args.old, args.new, { cwd: io.cwd, timeoutMs: args.timeout, unused });
  io.stdout.write(args.format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : formatSchemaDiff(result));
  return result.breaking > 0 ? EXIT.errors : EXIT.ok;
}
