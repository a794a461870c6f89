/**
 * The retirement report as a page a team lead would rather look at than read: the verdict on top,
 * then daily use per field and per client as stacked bar charts, then the tables.
 *
 * The charts are SVG written here on the server rather than drawn by a chart library in the
 * browser: the page then needs no script at all (it is served with a CSP that allows none), works
 * offline, renders the same in any browser and in a screenshot, and adds nothing to the install.
 * Every text that comes from data (client names above all) goes through `esc`.
 */
import { escapeHtml as esc, ICON_LINK } from '../src/graphql/page.js';
import { kitSection, type KitView } from './kit-page.js';
import { heldBack } from './usage-proof.js';
import type { RetirementReport, Trend, VerdictStatus } from './usage-report.js';

/**
 * What the page draws: a report, or the route's view of one (no store name, no error text; the
 * recorder's counters with only the time of its last failure).
 */
export interface ReportView extends Omit<RetirementReport, 'store' | 'recorder'> {
  store: { ok: boolean; description?: string; error?: string };
  recorder?: {
    pendingUses: number;
    lostUses: number;
    lastError?: { message: string; at: string } | null;
    lastErrorAt?: string | null;
  };
}


/** Header for the page: no scripts, no external anything, styles inline only. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

// Okabe–Ito: distinguishable with the common colour-vision deficiencies.
const COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
const OTHER_COLOR = '#999999';
const MAX_SERIES = COLORS.length;

export interface Series {
  name: string;
  values: number[];
}

/** The biggest series, the rest summed into one "other" series, so a chart stays legible. */
export function topSeries(series: readonly Series[], max = MAX_SERIES): Array<Series & { color: string }> {
  const sorted = [...series].filter((s) => s.values.some((v) => v > 0)).sort((a, b) => sum(b.values) - sum(a.values));
  const shown = sorted.slice(0, max).map((s, i) => ({ ...s, color: COLORS[i]! }));
  const rest = sorted.slice(max);
  if (rest.length > 0) {
    const values = rest[0]!.values.map((_, d) => rest.reduce((acc, s) => acc + (s.values[d] ?? 0), 0));
    shown.push({ name: `${rest.length} others`, values, color: OTHER_COLOR });
  }
  return shown;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** A round axis maximum: 1, 2, 5 × 10^n at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= max)!;
}

/** A stacked daily bar chart as an SVG element (`id` for tests and anchors). */
export function stackedBarChart(id: string, label: string, days: readonly string[], series: ReadonlyArray<Series & { color: string }>): string {
  const width = 760;
  const height = 220;
  const m = { top: 10, right: 10, bottom: 28, left: 44 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const totals = days.map((_, d) => series.reduce((acc, s) => acc + (s.values[d] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, slot * 0.8);
  const y = (v: number) => m.top + plotH - (v / top) * plotH;
  const parts: string[] = [];
  for (const tick of [0, top / 2, top]) {
    parts.push(`<line class="grid" x1="${m.left}" x2="${width - m.right}" y1="${y(tick)}" y2="${y(tick)}"/>`);
    parts.push(`<text class="tick" x="${m.left - 6}" y="${y(tick) + 4}" text-anchor="end">${fmt(tick)}</text>`);
  }
  const labelEvery = Math.ceil(days.length / 10);
  days.forEach((day, d) => {
    const x = m.left + d * slot + (slot - barW) / 2;
    let base = 0;
    for (const s of series) {
      const v = s.values[d] ?? 0;
      if (v <= 0) continue;
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${y(base + v).toFixed(1)}" width="${barW.toFixed(1)}" height="${(y(base) - y(base + v)).toFixed(1)}" fill="${s.color}" data-series="${esc(s.name)}" data-day="${day}" data-value="${v}"><title>${esc(s.name)} · ${day}: ${v}</title></rect>`,
      );
      base += v;
    }
    if (d % labelEvery === 0 || d === days.length - 1) {
      parts.push(`<text class="tick" x="${(m.left + d * slot + slot / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${day.slice(5)}</text>`);
    }
  });
  const legend = series
    .map((s) => `<li><span class="swatch" style="background:${s.color}"></span>${esc(s.name)} <span class="n">${sum(s.values)}</span></li>`)
    .join('');
  const empty = series.length === 0 ? `<text class="empty" x="${width / 2}" y="${height / 2}" text-anchor="middle">no use in this window</text>` : '';
  return `<figure><svg id="${id}" role="img" aria-label="${esc(label)}" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">${parts.join('')}${empty}</svg><ul class="legend">${legend}</ul></figure>`;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const when = (s: string | null) => (s ? `${s.slice(0, 16).replace('T', ' ')}` : 'never');
const TREND: Record<Trend, string> = { none: '—', new: 'new', rising: '↑ rising', steady: '→ steady', falling: '↓ falling', stopped: '↓ stopped' };
const HEADLINE: Record<VerdictStatus, string> = { retire: 'Safe to retire', ready: 'Ready to retire', 'in-use': 'Not yet', wait: 'Keep watching', unknown: 'No verdict' };

/** The page; with `kit`, one client's migration kit as a section of it (`#kit`). */
export function reportPage(report: ReportView, options: { title?: string; kit?: KitView } = {}): string {
  const title = options.title ?? 'v5 retirement report';
  const v = report.verdict;
  const fieldSeries = topSeries(report.fields.map((f) => ({ name: f.coordinate, values: f.daily })));
  const clientSeries = topSeries(report.clients.map((c) => ({ name: c.client, values: c.daily })));
  const problems: string[] = [];
  if (!report.store.ok) problems.push(`The usage store could not be read${report.store.error ? `: ${report.store.error}` : ' (the server log says why)'}`);
  const r = report.recorder;
  const failedAt = r?.lastError?.at ?? r?.lastErrorAt;
  if (r && failedAt) {
    const why = r.lastError ? `: ${r.lastError.message}` : '';
    problems.push(`Last write to the store failed at ${when(failedAt)}${why} (${r.pendingUses} uses pending, ${r.lostUses} lost)`);
  }
  const others = report.otherClients.clients > 0 ? `${report.otherClients.clients} more clients (${report.otherClients.count} uses) are not listed.` : '';
  const fieldRows = report.fields
    .map(
      (f) => `<tr class="${f.verdict.status}"><td><code>${esc(f.coordinate)}</code></td><td>${f.replacement ? `<code>${esc(f.replacement)}</code>` : '?'}${f.usage ? `<br><code class="usage">${esc(f.usage)}</code>` : ''}</td><td class="n">${f.count}</td><td>${TREND[f.trend]}</td><td>${esc(when(f.lastUsed))}</td><td>${f.clients.map((c) => `${esc(c.client)} (${c.count})`).join(', ') || '—'}${f.moreClients > 0 ? `, ${f.moreClients} more` : ''}</td><td>${esc(f.verdict.message)}</td></tr>`,
    )
    .join('');
  const held = heldBack(report.fields);
  const clientRows = report.clients
    .map(
      (c) => `<tr><td><a href="?client=${encodeURIComponent(c.client)}#kit" title="migration kit">${esc(c.client)}</a></td><td class="n">${c.count}</td><td>${TREND[c.trend]}</td><td>${esc(when(c.lastUsed))}</td><td>${c.fields.map((f) => `<code>${esc(f)}</code>`).join(', ') || '—'}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
${ICON_LINK}
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:0 16px 40px;color:#222}
.verdict{margin:16px 0;padding:16px 20px;border-radius:8px;border:2px solid}
.verdict h1{margin:0 0 4px;font-size:24px}.verdict p{margin:0}
.verdict.retire{background:#e8f6ee;border-color:#1a7f45}.verdict.in-use{background:#fdecea;border-color:#b3261e}
.verdict.wait{background:#fff6e0;border-color:#a86b00}.verdict.ready{background:#eef6fb;border-color:#0072b2}.verdict.unknown{background:#eee;border-color:#666}
.meta{color:#555;font-size:13px}.problem{background:#fff3cd;border-left:4px solid #a86b00;padding:8px 12px}
figure{margin:0 0 24px}svg .grid{stroke:#ddd}svg .tick,svg .empty{font-size:11px;fill:#555}
.legend{list-style:none;padding:0;margin:4px 0 0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px}
.swatch{display:inline-block;width:10px;height:10px;margin-right:6px;border-radius:2px}.legend .n{color:#777}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #e4e4e4;padding:6px 8px;text-align:left;vertical-align:top}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}.operation{border-top:1px solid #ddd;margin-top:12px}.operation h3{font-size:14px}
.operation.differs h3,.operation.no-v6-form h3{color:#b3261e}.operation.same h3{color:#1a7f45}
td.n{text-align:right}tr.in-use td:last-child{color:#b3261e}tr.retire td:last-child,tr.ready td:last-child{color:#1a7f45}code{font-size:12px}code.usage{color:#555}
</style></head><body>
<header id="verdict" class="verdict ${v.status}" data-status="${v.status}"><h1>${HEADLINE[v.status]}</h1><p>${esc(v.message.replace(/^(not yet|safe to retire|ready to retire|no verdict): /, ''))}</p></header>
<p class="meta">${esc(title)} · ${report.window.from} to ${report.window.to} (${report.days} days)${report.store.description ? ` · store: ${esc(report.store.description)}` : ''} · generated ${esc(when(report.generatedAt))} UTC · <a href="?format=json">JSON</a></p>
${problems.map((p) => `<p class="problem">${esc(p)}</p>`).join('\n')}
<h2>Daily use per field</h2>
${stackedBarChart('chart-fields', 'Daily use per field', report.window.days, fieldSeries)}
<h2>Daily use per client</h2>
${stackedBarChart('chart-clients', 'Daily use per client', report.window.days, clientSeries)}
<h2>Fields</h2>
<table id="fields"><thead><tr><th>field</th><th>v6 replacement</th><th>uses</th><th>trend</th><th>last use</th><th>clients</th><th>verdict</th></tr></thead><tbody>${fieldRows}</tbody></table>
${held.length > 0 ? `<h2>What holds fields back</h2>
<table id="held-back"><thead><tr><th>field</th><th>client</th><th>why</th></tr></thead><tbody>${held.map((h) => `<tr><td><code>${esc(h.field)}</code></td><td><a href="?client=${encodeURIComponent(h.client)}#kit">${esc(h.client)}</a></td><td>${esc(h.reason)}</td></tr>`).join('')}</tbody></table>` : ''}
<h2>Clients</h2>
<table id="clients"><thead><tr><th>client</th><th>uses</th><th>trend</th><th>last use</th><th>fields</th></tr></thead><tbody>${clientRows || '<tr><td colspan="5">no client in this window</td></tr>'}</tbody></table>${others ? `<p class="meta" id="other-clients">${others}</p>` : ''}
${options.kit ? kitSection(options.kit) : ''}
</body></html>`;
}
