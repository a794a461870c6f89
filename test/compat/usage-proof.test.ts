/**
 * The retirement verdict uses the proof (issue 46.4): with an operation catalog, a field still used
 * in the window is ready to retire when every client that used it has a v6 form whose shadow runs
 * answered the same, or stopped using it; otherwise the report names the clients holding it back
 * and why. Without a catalog the verdict is on counts alone, as before.
 */
import { describe, expect, it } from 'vitest';
import { memoryUsageStore, reportMarkdown, reportPage, retirementReport, type OperationRow, type UsageRow } from 'ergraph/compat';

const DAY = 86_400_000;
const NOW = new Date('2026-06-30T15:00:00Z');
const daysAgo = (n: number) => NOW.getTime() - n * DAY;
const use = (coordinate: string, client: string, ago: number, count = 1): UsageRow => {
  const at = daysAgo(ago);
  return { coordinate, client, day: new Date(at).toISOString().slice(0, 10), count, firstSeen: at, lastSeen: at };
};
const ran = (same: number, differs = 0, path: string | null = null) => ({ same, differs, path, lastRunAt: daysAgo(1), lastDiffersAt: differs > 0 ? daysAgo(1) : null });

function op(client: string, name: string, fields: string[], extra: Partial<OperationRow> = {}): OperationRow {
  return {
    client,
    operationId: `${client}-${name}`.padEnd(64, '.'),
    operationName: name,
    kind: 'query',
    text: `query ${name} { x }`,
    fields,
    persistedId: null,
    v6PersistedId: null,
    v6: { text: `query ${name} { X { x } }`, moves: [{ from: ['x'], to: ['X', 'x'] }] },
    count: 1,
    firstSeen: daysAgo(25),
    lastSeen: daysAgo(1),
    shadow: ran(0),
    ...extra,
  };
}

const TRACKED = ['Query.userGetAll', 'Query.userById', 'Query.taskById', 'Mutation.taskCreate'].map((coordinate) => ({
  coordinate,
  replacement: coordinate.replace(/^\w+\./, 'X.'),
  since: daysAgo(90),
}));

async function storeWith(rows: UsageRow[], operations: OperationRow[] = []) {
  const store = memoryUsageStore();
  await store.track(TRACKED);
  await store.add(rows, undefined, operations);
  return store;
}

const USES = [
  use('Query.userGetAll', 'web', 1, 40),
  use('Query.userGetAll', 'ios', 20, 3), // stopped: nothing in the last 7 days
  use('Query.userById', 'web', 2, 5),
  use('Query.userById', 'partner', 3, 2),
  use('Query.taskById', 'web', 1, 4),
  use('Mutation.taskCreate', 'ops', 1, 9),
];

describe('retirement verdict with the proof of shadow runs', () => {
  it('calls a used field ready when every client has a v6 form that answers the same, or stopped', async () => {
    const store = await storeWith(USES, [op('web', 'Board', ['Query.userGetAll', 'Query.taskById'], { shadow: ran(3) })]);
    const report = await retirementReport(store, { now: NOW });
    expect(report.catalog).toEqual({ operations: 1 });
    const getAll = report.fields.find((f) => f.coordinate === 'Query.userGetAll')!;
    expect(getAll.verdict).toEqual({
      status: 'ready',
      message: 'ready to retire: every client that used it in the last 30 days has a v6 form that answers the same (web: 3 runs) or stopped using it (ios)',
      clients: ['web', 'ios'],
    });
    expect(getAll.proof).toEqual({
      clients: [
        { client: 'ios', status: 'stopped', operations: 0, runs: 0 },
        { client: 'web', status: 'same', operations: 1, runs: 3 },
      ],
      more: 0,
      holding: 0,
    });
    expect(report.fields.find((f) => f.coordinate === 'Query.taskById')!.verdict.status).toBe('ready');
  });

  it('names the clients that hold a field back, and why', async () => {
    const store = await storeWith(USES, [
      op('web', 'Board', ['Query.userGetAll', 'Query.taskById'], { shadow: ran(3) }),
      op('web', 'Profile', ['Query.userById'], { shadow: ran(5, 1, 'data.userById.email') }),
      op('ops', 'Add', ['Mutation.taskCreate'], { kind: 'mutation' }),
    ]);
    const report = await retirementReport(store, { now: NOW });
    const field = (c: string) => report.fields.find((f) => f.coordinate === c)!;
    expect(field('Query.userById').verdict).toMatchObject({ status: 'in-use', message: 'still used by web (5), partner (2)' });
    expect(field('Query.userById').proof!.clients).toEqual([
      { client: 'partner', status: 'holds', reason: 'no operation of it that uses this field is in the catalog (evicted, or sent before the catalog was kept)', operations: 0, runs: 0 },
      { client: 'web', status: 'holds', reason: 'query Profile: its v6 form answered differently at data.userById.email (1 of 6 runs)', operations: 1, runs: 6 },
    ]);
    expect(field('Mutation.taskCreate').proof!.clients[0]!.reason).toBe(
      'mutation Add: a mutation: never shadowed (prove it with ergraph-migrate verify --mutations on a test target)',
    );
    // Overall: held back, and what is ready already is said.
    expect(report.verdict).toEqual({ status: 'in-use', message: 'not yet: 2 of 4 fields held back, by ops, partner, web; 2 more used fields are ready', clients: ['ops', 'partner', 'web'] });

    const text = reportMarkdown(report);
    expect(text).toContain('## What holds fields back\n\n| field | client | why |\n|---|---|---|\n| `Mutation.taskCreate` | ops | mutation Add: a mutation: never shadowed');
    expect(text).toContain('| `Query.userById` | partner | no operation of it that uses this field is in the catalog (evicted, or sent before the catalog was kept) |');
    expect(text).toContain('| `Query.userById` | web | query Profile: its v6 form answered differently at data.userById.email (1 of 6 runs) |');
    expect(text).toContain('| `Query.userGetAll` | `X.userGetAll` | 43 |');
    expect(text).toMatch(/☑️ ready to retire: every client that used it in the last 30 days has a v6 form that answers the same \(web: 3 runs\) or stopped using it \(ios\) \|/);
    const page = reportPage({ ...report, store: { ok: true } });
    expect(page).toContain('<table id="held-back">');
    expect(page).toContain('<tr><td><code>Query.userById</code></td><td><a href="?client=web#kit">web</a></td><td>query Profile: its v6 form answered differently at data.userById.email (1 of 6 runs)</td></tr>');
  });

  it('holds a field back for an operation not run yet, or without a v6 form', async () => {
    const store = await storeWith([use('Query.userById', 'web', 1, 2)], [
      op('web', 'A', ['Query.userById'], { shadow: ran(2) }),
      op('web', 'B', ['Query.userById']),
      op('web', 'C', ['Query.userById'], { v6: { problem: 'give this field another alias' } }),
    ]);
    const field = (await retirementReport(store, { now: NOW })).fields.find((f) => f.coordinate === 'Query.userById')!;
    expect(field.verdict.status).toBe('in-use');
    expect(field.proof!.clients[0]!.reason).toBe('query B: no shadow run of its v6 form yet (and 1 more operation)');
  });

  it('is ready overall when every used field is ready and the rest had no use for the window', async () => {
    const store = await storeWith([use('Query.userGetAll', 'web', 1, 4)], [op('web', 'Board', ['Query.userGetAll'], { shadow: ran(1) })]);
    const report = await retirementReport(store, { now: NOW });
    expect(report.verdict).toMatchObject({
      status: 'ready',
      message: 'ready to retire: 1 of 4 fields are still used, but every client using them has a v6 form proven the same on its traffic, or stopped; the rest have had no use for 30 days',
    });
    expect(reportPage({ ...report, store: { ok: true } })).toContain('<h1>Ready to retire</h1>');
  });

  it('keeps the verdict on counts alone where no catalog exists (a store without one, or an empty one)', async () => {
    const { readOperations: _none, ...plain } = await storeWith(USES);
    for (const store of [plain, await storeWith(USES)]) {
      const report = await retirementReport(store, { now: NOW });
      expect(report.catalog).toBeNull();
      const getAll = report.fields.find((f) => f.coordinate === 'Query.userGetAll')!;
      expect(getAll).toMatchObject({ proof: null, verdict: { status: 'in-use', message: 'still used by web (40), ios (3)' } });
      expect(report.verdict.message).toBe('not yet: 4 of 4 fields used in the last 30 days, by web (49), ops (9), ios (3), partner (2)');
      expect(reportMarkdown(report)).not.toContain('What holds fields back');
    }
  });
});
