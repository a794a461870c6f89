import { describe, expect, it } from 'vitest';
import { compatReport, memoryUsageStore, reportMarkdown, retirementReport, type UsageRow } from 'ergraph/compat';
import { trendOf } from '../../compat/usage-report.js';

const DAY = 86_400_000;
const NOW = new Date('2026-06-30T15:00:00Z');
const daysAgo = (n: number) => NOW.getTime() - n * DAY;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const use = (coordinate: string, client: string, ago: number, count = 1): UsageRow => ({
  coordinate,
  client,
  day: dayOf(daysAgo(ago)),
  count,
  firstSeen: daysAgo(ago),
  lastSeen: daysAgo(ago),
});

async function storeWith(rows: UsageRow[], trackedDaysAgo = 90) {
  const store = memoryUsageStore();
  await store.track([
    { coordinate: 'Query.userGetAll', replacement: 'User.getAll', usage: '{ User { getAll } }', since: daysAgo(trackedDaysAgo) },
    { coordinate: 'Query.userById', replacement: 'User.byId', usage: '{ User { byId } }', since: daysAgo(trackedDaysAgo) },
    { coordinate: 'Mutation.taskCreate', replacement: 'Task.create', usage: 'mutation { Task { create } }', since: daysAgo(trackedDaysAgo) },
  ]);
  await store.add(rows);
  return store;
}

describe('retirementReport', () => {
  it('gives a verdict per field and overall, naming the clients still calling', async () => {
    const store = await storeWith([
      use('Query.userGetAll', 'web', 2, 40),
      use('Query.userGetAll', 'ios', 20, 3),
      use('Query.userById', 'batch', 45, 9), // before the window
    ]);
    const report = await retirementReport(store, { now: NOW, days: 30 });
    expect(report.window).toMatchObject({ from: '2026-06-01', to: '2026-06-30' });
    expect(report.window.days).toHaveLength(30);
    expect(report.fields.map((f) => f.coordinate)).toEqual(['Query.userGetAll', 'Mutation.taskCreate', 'Query.userById']);
    const [getAll, create, byId] = report.fields;
    expect(getAll).toMatchObject({
      coordinate: 'Query.userGetAll',
      replacement: 'User.getAll',
      usage: '{ User { getAll } }',
      count: 43,
      lastClient: 'web',
      clients: [
        { client: 'web', count: 40 },
        { client: 'ios', count: 3 },
      ],
      verdict: { status: 'in-use', message: 'still used by web (40), ios (3)', clients: ['web', 'ios'] },
    });
    expect(getAll!.daily[27]).toBe(40);
    expect(byId).toMatchObject({
      count: 0,
      lastUsed: new Date(daysAgo(45)).toISOString(),
      verdict: { status: 'retire', message: 'safe to retire: no use for 30 days (last used 2026-05-16 by batch)' },
    });
    expect(create!.verdict).toMatchObject({ status: 'retire', message: 'safe to retire: no use for 30 days (never used)' });
    expect(report.verdict).toEqual({
      status: 'in-use',
      message: 'not yet: 1 of 3 fields used in the last 30 days, by web (40), ios (3)',
      clients: ['web', 'ios'],
    });
    expect(report.clients.map((c) => [c.client, c.count, c.fields])).toEqual([
      ['web', 40, ['Query.userGetAll']],
      ['ios', 3, ['Query.userGetAll']],
      ['batch', 0, []],
    ]);
  });

  it('says "safe to retire" only after watching for the whole window', async () => {
    const retire = await retirementReport(await storeWith([use('Query.userById', 'web', 31)]), { now: NOW, days: 30 });
    expect(retire.verdict).toEqual({ status: 'retire', message: 'safe to retire: no use of any of the 3 fields for 30 days', clients: [] });

    const young = await retirementReport(await storeWith([], 3), { now: NOW, days: 30 });
    expect(young.verdict.status).toBe('wait');
    expect(young.fields[0]!.verdict.message).toBe('no use since tracking began 3 days ago: a 30-day verdict on 2026-07-27');

    const empty = await retirementReport(memoryUsageStore(), { now: NOW });
    expect(empty.verdict).toMatchObject({ status: 'unknown', message: expect.stringMatching(/tracks no fields yet/) });
  });

  it('names the top 50 clients by default, overall and per field, and counts the rest', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => use('Query.userGetAll', `client-${String(i).padStart(3, '0')}`, 1, 200 - i));
    const report = await retirementReport(await storeWith(rows), { now: NOW });
    expect(report.clients.map((c) => c.client)).toEqual(rows.slice(0, 50).map((r) => r.client));
    const rest = rows.slice(50).reduce((n, r) => n + r.count, 0);
    expect(report.otherClients).toEqual({ clients: 70, count: rest });
    const field = report.fields.find((f) => f.coordinate === 'Query.userGetAll')!;
    expect(field.clients).toHaveLength(50);
    expect(field.moreClients).toBe(70);
    expect(field.count).toBe(rows.reduce((n, r) => n + r.count, 0));
    expect(report.verdict.clients).toHaveLength(50);
    expect(report.verdict.message).toMatch(/client-004 \(196\), 115 more$/);
    expect(reportMarkdown(report)).toContain('| 70 more clients | ' + rest + ' |');
    expect((await retirementReport(await storeWith(rows), { now: NOW, topClients: 3 })).clients).toHaveLength(3);
  });

  it('rejects a window that is not a whole number of days from 1 to 3660', async () => {
    for (const days of [0, -1, 1.5, 5000, Number.NaN]) {
      await expect(retirementReport(memoryUsageStore(), { days })).rejects.toThrow(/days must be a whole number from 1 to 3660/);
    }
  });

  it('classifies trends from the last days against the days before', () => {
    expect(trendOf([0, 0, 0, 0])).toBe('none');
    expect(trendOf([0, 0, 1, 1])).toBe('new');
    expect(trendOf([5, 5, 0, 0])).toBe('stopped');
    expect(trendOf([1, 1, 5, 5])).toBe('rising');
    expect(trendOf([5, 5, 1, 1])).toBe('falling');
    expect(trendOf([5, 5, 5, 6])).toBe('steady');
  });
});

describe('reportMarkdown and compatReport', () => {
  it('renders the verdict on top and escapes client names', async () => {
    const store = await storeWith([use('Query.userGetAll', 'evil | <b>bold</b> `x`', 1, 2)]);
    const { text, report } = await compatReport({ database: store, days: 30, format: 'md', now: NOW });
    expect(report.verdict.status).toBe('in-use');
    const lines = text.split('\n');
    expect(lines[0]).toBe('# v5 retirement report');
    expect(lines[2]).toBe('**⛔ not yet: 1 of 3 fields used in the last 30 days, by evil \\| \\<b\\>bold\\</b\\> \\`x\\` (2)**');
    expect(text).toContain('| `Query.userGetAll` | `User.getAll` `{ User { getAll } }` | 2 | new |');
    expect(text).toContain('| `Query.userById` | `User.byId` `{ User { byId } }` | 0 | — | never | — | ✅ safe to retire: no use for 30 days (never used) |');
    // Every table row has the same number of cells: the name's pipe did not open a column.
    const rows = lines.filter((l) => l.startsWith('| `Query.userGetAll`'));
    expect(rows[0]!.split(/(?<!\\)\|/).length).toBe(9);
  });

  it('renders JSON, and refuses unknown formats', async () => {
    const store = await storeWith([]);
    const { text } = await compatReport({ database: store, format: 'json', now: NOW });
    expect(JSON.parse(text)).toMatchObject({ days: 30, verdict: { status: 'retire' } });
    await expect(compatReport({ database: store, format: 'csv' as 'md' })).rejects.toThrow(/format must be md or json/);
  });

  it('reports the store problem in Markdown too', async () => {
    const text = reportMarkdown(await retirementReport({ ...memoryUsageStore(), description: 'x', read: () => Promise.reject(new Error('boom')) }, { now: NOW }));
    expect(text).toContain('**❔ no verdict: the usage store cannot be read**');
    expect(text).toContain('store: x ·');
    expect(text).toContain('> The usage store could not be read: boom');
  });
});
