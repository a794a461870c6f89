/**
 * The retirement report page as a team lead sees it: headless Chromium loads `<path>/usage` from a
 * real server, with no network beyond loopback. The verdict is on top, both charts are drawn from
 * the stored data, and a client name made of HTML stays text.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler, createUsageRecorder, memoryUsageStore, type UsageRow } from 'ergraph/compat';
import { requireChromium, withPage } from '../support/chromium.js';
import { createV6Handler } from './helpers.js';

const DAY = 86_400_000;
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;

const hasChromium = requireChromium();

describe.runIf(hasChromium)('retirement report page in Chromium', () => {
  let server: ReturnType<typeof serve>;
  let base: string;

  beforeAll(async () => {
    const store = memoryUsageStore();
    const now = Date.now();
    const rows: UsageRow[] = [];
    const day = (ago: number) => new Date(now - ago * DAY).toISOString().slice(0, 10);
    for (let ago = 0; ago < 30; ago++) {
      rows.push({ coordinate: 'Query.userGetAll', client: 'web', day: day(ago), count: 40 - ago, firstSeen: now - ago * DAY, lastSeen: now - ago * DAY });
      if (ago % 3 === 0) rows.push({ coordinate: 'Query.userById', client: 'ios', day: day(ago), count: 5, firstSeen: now - ago * DAY, lastSeen: now - ago * DAY });
    }
    rows.push({ coordinate: 'Query.taskById', client: HOSTILE, day: day(2), count: 7, firstSeen: now - 2 * DAY, lastSeen: now - 2 * DAY });
    await store.add(rows);
    const compat = createCompatHandler(createV6Handler(), { usage: createUsageRecorder(store) });
    const app = compatApp(compat, { path: '/graphql/v5' });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('shows the verdict on top, daily charts per field and per client, and keeps HTML in client names as text', async () => {
    const json = await (await fetch(`${base}/graphql/v5/usage`)).json();
    const result = await withPage(`${base}/graphql/v5/usage`, 'compat-usage-report', async (page, problems) => {
      const first = await page.evaluate(() => document.body.firstElementChild?.id);
      const verdict = await page.locator('#verdict').innerText();
      const status = await page.locator('#verdict').getAttribute('data-status');
      const fieldBars = await page.locator('#chart-fields rect.bar').evaluateAll((rects) =>
        rects.map((r) => ({ series: r.getAttribute('data-series'), day: r.getAttribute('data-day'), value: Number(r.getAttribute('data-value')), height: Number(r.getAttribute('height')) })),
      );
      const clientLegend = await page.locator('#chart-clients + .legend li').allInnerTexts();
      const box = await page.locator('#chart-fields').boundingBox();
      const injected = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
        images: document.images.length,
        scripts: document.scripts.length,
      }));
      const hostileCell = await page.locator('#clients td', { hasText: '<img' }).first().innerText();
      return { first, verdict, status, fieldBars, clientLegend, box, injected, hostileCell, problems: [...problems] };
    });

    expect(result.problems).toEqual([]);
    expect(result.first).toBe('verdict');
    expect(result.status).toBe('in-use');
    expect(result.verdict).toContain('Not yet');
    expect(result.verdict).toContain(json.verdict.message.replace('not yet: ', ''));

    // One bar segment per field and day with use, each carrying the stored count.
    const bar = (series: string, day: string) => result.fieldBars.find((b) => b.series === series && b.day === day);
    const today = json.window.to;
    expect(bar('Query.userGetAll', today)?.value).toBe(40);
    expect(result.fieldBars.filter((b) => b.series === 'Query.userGetAll')).toHaveLength(30);
    expect(result.fieldBars.filter((b) => b.series === 'Query.userById')).toHaveLength(10);
    expect(result.fieldBars.reduce((n, b) => n + b.value, 0)).toBe(json.fields.reduce((n: number, f: { count: number }) => n + f.count, 0));
    expect(result.fieldBars.every((b) => b.height > 0)).toBe(true);
    expect(result.box!.width).toBeGreaterThan(600);

    expect(result.clientLegend.map((l) => l.replace(/\s+\d+$/, ''))).toEqual(['web', 'ios', HOSTILE]);
    expect(result.hostileCell).toBe(HOSTILE);
    expect(result.injected).toEqual({ pwned: null, images: 0, scripts: 0 });
  });

  it('serves the page with a CSP that allows no script, and JSON to everyone else', async () => {
    const page = await fetch(`${base}/graphql/v5/usage?days=7`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
    const json = await (await fetch(`${base}/graphql/v5/usage?days=7`)).json();
    expect(json.window.days).toHaveLength(7);
    expect((await fetch(`${base}/graphql/v5/usage?days=0`)).status).toBe(400);
    expect(await (await fetch(`${base}/graphql/v5/usage?days=abc`)).json()).toEqual({ error: 'days must be a whole number from 1 to 366, got "abc"' });
  });
});
