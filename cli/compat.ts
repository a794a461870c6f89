/**
 * `ergraph compat report --database <url> [--days N] [--format md|json]`: the retirement verdict.
 * `ergraph compat kit --client <name> [--database <url>] [--format md|json]`: one client's migration kit.
 */
import { requirePeers, usageStorePeers } from '../src/peers/peers.js';
import { EXIT, UsageError, type CliIO } from './io.js';

export interface CompatReportArgs {
  database: string;
  days: number;
  format: 'md' | 'json';
}

/** Exit 1 when the store cannot be read (the report, printed anyway, says why). */
export async function compatReportCommand(args: CompatReportArgs, io: CliIO): Promise<number> {
  if (!Number.isInteger(args.days) || args.days < 1 || args.days > 3660) throw new UsageError(`--days must be a whole number from 1 to 3660, got ${args.days}`);
  requirePeers(`compat report --database ${args.database.split(':')[0]}:…`, usageStorePeers(args.database), io.env);
  const { compatReport } = await import('../compat/report-markdown.js');
  const { text, report } = await compatReport({ database: args.database, days: args.days, format: args.format });
  io.stdout.write(text);
  if (!report.store.ok) {
    io.stderr.write(`ergraph: cannot read usage from ${report.store.description}: ${report.store.error}\n`);
    return EXIT.errors;
  }
  return EXIT.ok;
}

export interface CompatKitArgs {
  client: string;
  /** Default: DATABASE_URL. */
  database?: string;
  format: 'md' | 'json';
}

/** Exit 1 when the store cannot be read, or holds no operation of the client (stderr names those it holds). */
export async function compatKitCommand(args: CompatKitArgs, io: CliIO): Promise<number> {
  const database = args.database ?? (io.env ?? process.env).DATABASE_URL;
  if (!database) throw new UsageError('give the usage database: --database <url> (postgres://…, pglite:<dir>), or set DATABASE_URL');
  if (args.client.trim() === '') throw new UsageError('--client must name a client (as it sends x-client-name)');
  requirePeers(`compat kit --database ${database.split(':')[0]}:…`, usageStorePeers(database), io.env);
  const { compatKit } = await import('../compat/kit.js');
  const { text, kit, clients } = await compatKit({ database, client: args.client, format: args.format });
  if (!kit.store.ok) {
    io.stderr.write(`ergraph: cannot read the operation catalog from ${kit.store.description}: ${kit.store.error}\n`);
    return EXIT.errors;
  }
  io.stdout.write(text);
  if (clients) {
    const shown = clients.slice(0, 20).map((c) => JSON.stringify(c));
    const more = clients.length > shown.length ? `, and ${clients.length - shown.length} more` : '';
    io.stderr.write(`ergraph: no operation of client ${JSON.stringify(args.client)} in the catalog; it holds ${shown.length > 0 ? `${shown.join(', ')}${more}` : 'none yet'}\n`);
    return EXIT.errors;
  }
  return EXIT.ok;
}
