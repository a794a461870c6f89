/**
 * `GET <path>/usage`: the retirement report of a compat handler's usage store — JSON for
 * dashboards, the page (charts, verdict on top) for a browser (`Accept: text/html`).
 * `?days=N` sets the window; `?format=json|html` overrides the Accept header; `?client=<name>`
 * adds that client's migration kit (the page's `#kit` section, or the kit alone as JSON).
 *
 * It is an operator's page, not a public one: by default only a client on the same machine (a
 * loopback peer, with no proxy header saying it forwards someone else) may read it; the app opens
 * it to others with `access(request)`. Each answer is bounded: at most 366 days, the top 50
 * clients, one report per window computed at a time and reused for a minute, and nothing in it
 * names the store (paths, hosts) or quotes its errors (those go to the server log).
 */
import type { Context } from 'hono';
import type { CompatHandler } from './handler.js';
import { MAX_CLIENT_NAME } from './client-name.js';
import { publicKit, type KitView } from './kit-page.js';
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

/**
 * Per key: the answer being computed or computed less than a minute ago. A burst of readers shares
 * one computation; a few keys at most are kept, and a failed computation is not served again.
 */
function minuteCache<K, V>(compute: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const cache = new Map<K, { at: number; value: Promise<V> }>();
  return (key) => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < REPORT_CACHE_MS) return hit.value;
    const value = compute(key);
    cache.delete(key);
    cache.set(key, { at: Date.now(), value });
    value.catch(() => cache.get(key)?.value === value && cache.delete(key));
    while (cache.size > CACHED_WINDOWS) cache.delete(cache.keys().next().value!);
    return value;
  };
}

export function usageRoute(compat: Pick<CompatHandler, 'report' | 'kit'>, options: UsageRouteOptions = {}) {
  const access = options.access ?? loopbackOnly;
  const defaultDays = checkDays(options.days ?? 30, MAX_ROUTE_DAYS);
  const reportFor = minuteCache((days: number) =>
    compat.report({ days }).then((full) => {
      if (!full.store.ok) console.warn(`ergraph compat: the usage report cannot read ${full.store.description}: ${full.store.error}`);
      return publicReport(full);
    }),
  );
  const kitFor = minuteCache((client: string) =>
    compat.kit({ client }).then((full): KitView => {
      if (!full.store.ok) console.warn(`ergraph compat: the migration kit cannot read ${full.store.description}: ${full.store.error}`);
      return publicKit(full);
    }),
  );

  return async (c: Context) => {
    if (!(await access(c))) {
      return c.json({ error: 'The usage report is for operators: this server serves it to loopback clients only (compatApp option usageAccess)' }, 403, {
        'Cache-Control': 'no-store',
      });
    }
    const format = c.req.query('format') ?? ((c.req.header('accept') ?? '').toLowerCase().includes('text/html') ? 'html' : 'json');
    const daysParam = c.req.query('days');
    const client = c.req.query('client');
    let days = defaultDays;
    try {
      if (format !== 'html' && format !== 'json') throw new RangeError(`format must be json or html, got ${JSON.stringify(format.slice(0, 20))}`);
      if (daysParam !== undefined) days = checkDays(/^\d{1,4}$/.test(daysParam) ? Number(daysParam) : daysParam.slice(0, 20), MAX_ROUTE_DAYS);
      // Stored names are at most MAX_CLIENT_NAME characters (cut and escaped before they are counted).
      if (client !== undefined && (client === '' || client.length > MAX_CLIENT_NAME)) throw new RangeError('client must name one client of the report');
    } catch (error) {
      return c.json({ error: (error as Error).message }, 400);
    }
    if (client !== undefined && format === 'json') {
      const kit = await kitFor(client);
      return c.json(kit, kit.store.ok ? 200 : 503, { 'Cache-Control': 'no-store' });
    }
    const [report, kit] = await Promise.all([reportFor(days), client === undefined ? undefined : kitFor(client)]);
    // A store that cannot be read is the server's problem, not the client's: 503 (the log says why).
    const status = report.store.ok ? 200 : 503;
    if (format === 'html') {
      return c.html(reportPage(report, { ...(options.title ? { title: options.title } : {}), ...(kit ? { kit } : {}) }), status, {
        'Content-Security-Policy': PAGE_CSP,
        'Cache-Control': 'no-store',
      });
    }
    return c.json(report, status, { 'Cache-Control': 'no-store' });
  };
}
