/** `ergraph compat report --database <url> [--days N] [--format md|json]`: the retirement verdict. */
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
  const { compatReport } = await import('../compat/usage-report.js');
  const { text, report } = await compatReport({ database: args.database, days: args.days, format: args.format });
  io.stdout.write(text);
  if (!report.store.ok) {
    io.stderr.write(`ergraph: cannot read usage from ${report.store.description}: ${report.store.error}\n`);
    return EXIT.errors;
  }
  return EXIT.ok;
}
