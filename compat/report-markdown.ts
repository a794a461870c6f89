/**
 * The retirement report as text: `reportMarkdown(report)` for a terminal or a pull request, and
 * `compatReport({ database })`, which is `ergraph compat report` as a function.
 */
import { md, mdCode } from './escape.js';
import { openUsageStore } from './usage-open.js';
import { heldBack } from './usage-proof.js';
import type { UsageStore } from './usage-store.js';
import { checkDays, listClients, retirementReport, type RetirementReport, type Trend, type VerdictStatus } from './usage-report.js';

const when = (s: string | null) => (s ? s.slice(0, 16).replace('T', ' ') : 'never');
const TREND: Record<Trend, string> = { none: '—', new: 'new', rising: '↑ rising', steady: '→ steady', falling: '↓ falling', stopped: '↓ stopped' };
const MARK: Record<VerdictStatus, string> = { retire: '✅', ready: '☑️', 'in-use': '⛔', wait: '⏳', unknown: '❔' };

export function reportMarkdown(report: RetirementReport): string {
  const lines = [
    `# v5 retirement report`,
    '',
    `**${MARK[report.verdict.status]} ${md(report.verdict.message)}**`,
    '',
    `Window: ${report.window.from} to ${report.window.to} (${report.days} days) · store: ${md(report.store.description)} · generated ${when(report.generatedAt)} UTC`,
  ];
  if (!report.store.ok) lines.push('', `> The usage store could not be read: ${md(report.store.error ?? '')}`);
  if (report.recorder?.lastError) {
    const r = report.recorder;
    lines.push('', `> Last write failed at ${when(r.lastError!.at)}: ${md(r.lastError!.message)} (${r.pendingUses} uses pending, ${r.lostUses} lost)`);
  }
  if (report.fields.length > 0) {
    lines.push(
      '',
      '## Fields',
      '',
      `| field | v6 replacement | uses (${report.days} d) | trend | last use | clients | verdict |`,
      '|---|---|--:|---|---|---|---|',
    );
    for (const f of report.fields) {
      const replacement = f.usage ? `${mdCode(f.replacement ?? '')} ${mdCode(f.usage)}` : f.replacement ? mdCode(f.replacement) : '?';
      const clients = f.clients.length > 0 ? md(listClients(f.clients, 3, f.moreClients)) : '—';
      lines.push(
        `| ${mdCode(f.coordinate)} | ${replacement} | ${f.count} | ${TREND[f.trend]} | ${when(f.lastUsed)} | ${clients} | ${MARK[f.verdict.status]} ${md(f.verdict.message)} |`,
      );
    }
  }
  const held = heldBack(report.fields);
  if (held.length > 0) {
    lines.push('', '## What holds fields back', '', '| field | client | why |', '|---|---|---|');
    for (const h of held) lines.push(`| ${mdCode(h.field)} | ${md(h.client)} | ${md(h.reason)} |`);
  }
  if (report.clients.length > 0) {
    lines.push('', '## Clients', '', `| client | uses (${report.days} d) | trend | last use | fields |`, '|---|--:|---|---|---|');
    for (const c of report.clients) {
      lines.push(`| ${md(c.client)} | ${c.count} | ${TREND[c.trend]} | ${when(c.lastUsed)} | ${c.fields.map(mdCode).join(', ') || '—'} |`);
    }
    const o = report.otherClients;
    if (o.clients > 0) lines.push(`| ${o.clients} more clients | ${o.count} | | | |`);
  }
  return `${lines.join('\n')}\n`;
}

// ---- `ergraph compat report` as a function ---------------------------------------------------

export interface CompatReportOptions {
  /** A usage database URL (`postgres://…`, `pglite:<dir>`) or an open store. */
  database: string | UsageStore;
  days?: number;
  format?: 'md' | 'json';
  now?: Date;
}

/** The report as text, and whether the store could be read (the CLI exits 1 when not). */
export async function compatReport(options: CompatReportOptions): Promise<{ text: string; report: RetirementReport }> {
  const format = options.format ?? 'md';
  if (format !== 'md' && format !== 'json') throw new RangeError(`format must be md or json, got ${JSON.stringify(format)}`);
  const days = checkDays(options.days ?? 30);
  const opened = typeof options.database === 'string';
  const store = typeof options.database === 'string' ? await openUsageStore(options.database, { existing: true }) : options.database;
  try {
    const report = await retirementReport(store, { days, now: options.now });
    return { report, text: format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportMarkdown(report) };
  } finally {
    if (opened) await store.close().catch(() => undefined);
  }
}
