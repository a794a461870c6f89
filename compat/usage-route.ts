/**
 * `GET <path>/usage`: the retirement report of a compat handler's usage store — JSON for
 * dashboards, the page (charts, verdict on top) for a browser (`Accept: text/html`).
 * `?days=N` sets the window; `?format=json|html` overrides the Accept header.
 *
 * It is an operator's page, not a public one: by default only a client on the same machine (a
 * loopback peer, with no proxy header saying it forwards someone else) may read it; the app opens
 * it to others with `access(request)`. Each answer is bounded: at most 366 days, the top 50
 * clients, one report per window computed at a time and reused for a minute, and nothing in it
 * names the store (paths, hosts) or quotes its errors (those go to the server log).
 */
import type { Context } from 'hono';
import type { CompatHandler } from './handler.js';
import { PAGE_CSP, reportPage, type ReportView } from './usage-page.js';
import { checkDays, type RetirementReport } from './usage-report.js';

/** The widest window the route serves. */
export const MAX_ROUTE_DAYS = 366;
/** How long a computed report is served again (per window). */
export const REPORT_CACHE_MS = 60_000;
/** Windows kept cached at once. */
const CACHED_WINDOWS = 4;

export type UsageAccess = (c: Context) => boolean | Promise<boolean>;

export interface UsageRouteOptions {
  /** The default window (30 days). */
  days?: number;
  title?: string;
  /** Who may read the report (default: `loopbackOnly`). */
  access?: UsageAccess;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * The default access rule: the TCP peer is a loopback address (read from `@hono/node-server`'s
 * socket; on another runtime the peer is unknown and the answer is no), and the request carries
 * no proxy header — a reverse proxy on the same machine forwards the whole internet.
 */
export function loopbackOnly(c: Context): boolean {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress;
  if (peer === undefined || !LOOPBACK.test(peer)) return false;
  return PROXY_HEADERS.every((h) => c.req.header(h) === undefined);
}

/** What the route shows: the report without the store's name, its error text or the recorder's. */
export function publicReport(report: RetirementReport): ReportView {
  const { store, recorder, ...rest } = report;
  const view: ReportView = { ...rest, store: { ok: store.ok } };
  if (recorder) {
    const { store: _name, lastError, ...counts } = recorder;
    view.recorder = { ...counts, lastErrorAt: lastError?.at ?? null };
  }
  return view;
}

export function usageRoute(compat: Pick<CompatHandler, 'report'>, options: UsageRouteOptions = {}) {
  const access = options.access ?? loopbackOnly;
  const defaultDays = checkDays(options.days ?? 30, MAX_ROUTE_DAYS);
  // Per window: the report being computed or computed less than a minute ago. A burst of readers
  // shares one computation; a few windows at most are kept.
  const cache = new Map<number, { at: number; report: Promise<ReportView> }>();
  const reportFor = (days: number): Promise<ReportView> => {
    const hit = cache.get(days);
    if (hit && Date.now() - hit.at < REPORT_CACHE_MS) return hit.report;
    const report = compat.report({ days }).then((full) => {
      if (!full.store.ok) console.warn(`ergraph compat: the usage report cannot read ${full.store.description}: ${full.store.error}`);
      return publicReport(full);
    });
    cache.delete(days);
    cache.set(days, { at: Date.now(), report });
    // A failed computation is not served again.
    report.catch(() => cache.get(days)?.report === report && cache.delete(days));
    while (cache.size > CACHED_WINDOWS) cache.delete(cache.keys().next().value!);
    return report;
  };

  return async (c: Context) => {
    if (!(await access(c))) {
      return c.json({ error: 'The usage report is for operators: this server serves it to loopback clients only (compatApp option usageAccess)' }, 403, {
        'Cache-Control': 'no-store',
      });
    }
    const format = c.req.query('format') ?? ((c.req.header('accept') ?? '').toLowerCase().includes('text/html') ? 'html' : 'json');
    const daysParam = c.req.query('days');
    let days = defaultDays;
    try {
      if (format !== 'html' && format !== 'json') throw new RangeError(`format must be json or html, got ${JSON.stringify(format.slice(0, 20))}`);
      if (daysParam !== undefined) days = checkDays(/^\d{1,4}$/.test(daysParam) ? Number(daysParam) : daysParam.slice(0, 20), MAX_ROUTE_DAYS);
    } catch (error) {
      return c.json({ error: (error as Error).message }, 400);
    }
    const report = await reportFor(days);
    // A store that cannot be read is the server's problem, not the client's: 503 (the log says why).
    const status = report.store.ok ? 200 : 503;
    if (format === 'html') {
      return c.html(reportPage(report, options.title ? { title: options.title } : {}), status, {
        'Content-Security-Policy': PAGE_CSP,
        'Cache-Control': 'no-store',
      });
    }
    return c.json(report, status, { 'Cache-Control': 'no-store' });
  };
}
