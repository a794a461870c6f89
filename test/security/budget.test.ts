/**
 * The per-request budget (issue 13 item 1, second half): a result that grows too large or an
 * operation that runs too long is stopped — no further level loads, no further mutation runs —
 * and answered with `data: null` and an error naming the limit. On both executors. Time is
 * vitest's fake clock (the deadline timer and `performance.now()`), and a hung batch waits on a
 * barrier the test lifts: nothing here depends on the machine's speed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, MutationConfig, QueryConfig, ref, Relationship } from 'ergraph';
import { watchedBudgets } from '../../src/graphql/budget.js';

const calls: string[] = [];
/** While set, the children loader waits for it: a batch hung until the test lifts it (`lift`). */
let hung: Promise<void> | undefined;
let lift = () => undefined as void;
function hang(): void {
  hung = new Promise<void>((resolve) => (lift = resolve));
}

/** The deadline timer and the clock it reads are fake; the event loop (setImmediate) is real. */
const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
/** Lets every promise continuation and tick that is ready run: a few turns of the event loop. */
async function turns(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
/** An answer to look at without waiting for it: `value` once it came. */
function watching<T>(promise: Promise<T>): { value?: T } {
  const seen: { value?: T } = {};
  void promise.then((value) => (seen.value = value));
  return seen;
}
afterEach(() => {
  lift();
  hung = undefined;
  vi.useRealTimers();
});

class Node extends model({ id: z.int(), name: z.string() }) {}
const nodes = (parent: number) => Array.from({ length: 100 }, (_, i) => new Node({ id: parent * 100 + i, name: `n${parent * 100 + i}` }));
const diagram = new ErDiagram({
  entities: [
    new Entity({
      kls: Node,
      relationships: [
        // a cycle: every node has 100 children, as comments → author → comments did
        new Relationship({
          fk: 'id',
          target: () => [Node],
          name: 'children',
          loader: async (ids: readonly number[]) => {
            calls.push(`children(${ids.length})`);
            if (hung) await hung;
            return ids.map(nodes);
          },
        }),
      ],
      queries: [
        new QueryConfig({ name: 'roots', returns: z.array(ref(() => Node)), method: async () => nodes(0) }),
        new QueryConfig({ name: 'numbers', args: { n: z.int() }, returns: z.array(z.int()), method: async ({ n }: { n: number }) => Array.from({ length: n }, (_, i) => i) }),
      ],
      mutations: [
        new MutationConfig({
          name: 'touch',
          args: { id: z.int() },
          returns: () => Node,
          method: async ({ id }: { id: number }) => {
            calls.push(`touch(${id})`);
            return new Node({ id, name: 'touched' });
          },
        }),
      ],
    }),
  ],
});

const CYCLE = '{ Node { roots { id name children { id name children { id name children { id name } } } } } }';

describe.each(['compiled', 'graphql-js'] as const)('budget on the %s executor', (executor) => {
  it('a result past resultValues stops before the next level and answers RESULT_TOO_LARGE', async () => {
    calls.length = 0;
    const handler = new GraphQLHandler(diagram, { executor, limits: { resultValues: 5_000 } });
    const before = process.memoryUsage().heapUsed;
    const result = await handler.execute(CYCLE);
    expect(result.data).toBeNull();
    expect(result.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('past 5000 values (limits.resultValues)'), extensions: { code: 'RESULT_TOO_LARGE', limit: 5000 } }),
    ]);
    // 100 roots, their 10,000 children: over the budget, so the 1,000,000 grandchildren are never loaded
    expect(calls).toEqual(['children(100)']);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('an operation past its timeout stops waiting, loads nothing further and answers OPERATION_TIMEOUT', async () => {
    calls.length = 0;
    fakeClock();
    hang();
    const handler = new GraphQLHandler(diagram, { executor, limits: { timeout: 150 } });
    const answer = watching(handler.execute(CYCLE));
    await until(() => calls.length === 1); // the first batch hangs
    vi.advanceTimersByTime(149);
    await turns();
    expect(answer).toEqual({});
    vi.advanceTimersByTime(1);
    await turns();
    expect(answer.value).toEqual({ data: null, errors: [expect.objectContaining({ extensions: { code: 'OPERATION_TIMEOUT', limit: 150 } })] });
    lift(); // the hung batch returns: nothing follows it
    await turns();
    expect(calls).toEqual(['children(100)']);
  });

  it('a mutation after the timeout does not run', async () => {
    calls.length = 0;
    fakeClock();
    hang();
    const handler = new GraphQLHandler(diagram, { executor, limits: { timeout: 150 } });
    const answer = watching(handler.execute('mutation { Node { a: touch(id: 1) { children { id } } b: touch(id: 2) { id } } }'));
    await until(() => calls.length === 2);
    vi.advanceTimersByTime(150);
    await turns();
    expect(answer.value).toMatchObject({ data: null, errors: [{ extensions: { code: 'OPERATION_TIMEOUT', limit: 150 } }] });
    lift();
    await turns();
    expect(calls).toEqual(['touch(1)', 'children(1)']);
  });

  it('concurrent operations with different timeouts: each stops at its own deadline, and none is watched once all ended', async () => {
    calls.length = 0;
    fakeClock();
    hang();
    const handler = new GraphQLHandler(diagram, { executor });
    const t0 = performance.now();
    const answeredAt: Record<string, number> = {};
    const timed = (name: string, timeout: number, query = CYCLE) =>
      handler.execute(query, { limits: { timeout } }).then((result) => ((answeredAt[name] = performance.now() - t0), result));
    // Started longest first: the shared timer must be set again for each earlier deadline.
    const long = watching(timed('long', 5_000, '{ Node { roots { children { id } } } }'));
    const mid = watching(timed('mid', 600));
    const short = watching(timed('short', 150));
    expect(await handler.execute('{ Node { numbers(n: 3) } }', { limits: { timeout: 100 } })).toEqual({ data: { Node: { numbers: [0, 1, 2] } }, errors: null });
    await until(() => calls.length === 3); // each one's first batch hangs
    vi.advanceTimersByTime(150);
    await turns();
    expect(short.value?.errors![0]!.extensions).toEqual({ code: 'OPERATION_TIMEOUT', limit: 150 });
    vi.advanceTimersByTime(449);
    await turns();
    expect(answeredAt).toEqual({ short: 150 });
    vi.advanceTimersByTime(1);
    await turns();
    expect(mid.value?.errors![0]!.extensions).toEqual({ code: 'OPERATION_TIMEOUT', limit: 600 });
    // The 5 s one outlives its hung batch (lifted at 2 s) and answers.
    vi.advanceTimersByTime(1_400);
    lift();
    await turns();
    expect(long.value?.errors).toBeNull();
    expect(answeredAt).toEqual({ short: 150, mid: 600, long: 2_000 });
    expect(watchedBudgets()).toBe(0);
  });

  it('limits per call override the handler, and false turns one off', async () => {
    const handler = new GraphQLHandler(diagram, { executor, limits: { resultValues: 10 } });
    expect((await handler.execute('{ Node { numbers(n: 50) } }')).errors![0]!.extensions!.code).toBe('RESULT_TOO_LARGE');
    expect((await handler.execute('{ Node { numbers(n: 50) } }', { limits: { resultValues: false } })).errors).toBeNull();
  });
});

it('the budget is on by default: a result of more than 1,000,000 values is refused', async () => {
  const handler = new GraphQLHandler(diagram, { executor: 'compiled' });
  const result = await handler.execute('{ Node { numbers(n: 1000001) } }');
  expect(result.data).toBeNull();
  expect(result.errors![0]!.extensions).toEqual({ code: 'RESULT_TOO_LARGE', limit: 1_000_000 });
  expect((await handler.execute('{ Node { numbers(n: 1000) } }')).errors).toBeNull();
});
