/**
 * `GET <path>/usage`: the retirement report of a compat handler's usage store — JSON for
 * dashboards, the page (charts, verdict on top) for a browser (`Accept: text/html`).
 * `?days=N` sets the window; `?format=json|html` overrides the Accept header.
 */
import type { Context } from 'hono';
import type { CompatHandler } from './handler.js';
import { PAGE_CSP, reportPage } from './usage-page.js';
import { checkDays } from './usage-report.js';

export function usageRoute(compat: Pick<CompatHandler, 'report'>, options: { days?: number; title?: string } = {}) {
  return async (c: Context) => {
    const format = c.req.query('format') ?? ((c.req.header('accept') ?? '').toLowerCase().includes('text/html') ? 'html' : 'json');
    const daysParam = c.req.query('days');
    let days = options.days ?? 30;
    try {
      if (format !== 'html' && format !== 'json') throw new RangeError(`format must be json or html, got ${JSON.stringify(format.slice(0, 20))}`);
      if (daysParam !== undefined) days = checkDays(/^\d{1,4}$/.test(daysParam) ? Number(daysParam) : daysParam.slice(0, 20));
    } catch (error) {
      return c.json({ error: (error as Error).message }, 400);
    }
    const report = await compat.report({ days });
    // A store that cannot be read is the server's problem, not the client's: 503, with the report saying why.
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
