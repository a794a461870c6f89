/**
 * The per-request budget (issue 13 item 1, second half): a result that grows too large or an
 * operation that runs too long is stopped — no further level loads, no further mutation runs —
 * and answered with `data: null` and an error naming the limit. On both executors.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, MutationConfig, QueryConfig, ref, Relationship } from 'ergraph';
import { watchedBudgets } from '../../src/graphql/budget.js';

const calls: string[] = [];
let hang = false;

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
            if (hang) await new Promise((r) => setTimeout(r, 2_000));
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
    hang = true;
    try {
      const handler = new GraphQLHandler(diagram, { executor, limits: { timeout: 150 } });
      const started = Date.now();
      const result = await handler.execute(CYCLE);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(result).toEqual({ data: null, errors: [expect.objectContaining({ extensions: { code: 'OPERATION_TIMEOUT', limit: 150 } })] });
      await new Promise((r) => setTimeout(r, 2_200)); // the hung batch returns: nothing follows it
      expect(calls).toEqual(['children(100)']);
    } finally {
      hang = false;
    }
  });

  it('a mutation after the timeout does not run', async () => {
    calls.length = 0;
    hang = true;
    try {
      const handler = new GraphQLHandler(diagram, { executor, limits: { timeout: 150 } });
      const result = await handler.execute('mutation { Node { a: touch(id: 1) { children { id } } b: touch(id: 2) { id } } }');
      expect(result.data).toBeNull();
      expect(result.errors![0]!.extensions).toEqual({ code: 'OPERATION_TIMEOUT', limit: 150 });
      await new Promise((r) => setTimeout(r, 2_200));
      expect(calls).toEqual(['touch(1)', 'children(1)']);
    } finally {
      hang = false;
    }
  });

  it('concurrent operations with different timeouts: each stops at its own deadline, and none is watched once all ended', async () => {
    hang = true;
    try {
      const handler = new GraphQLHandler(diagram, { executor });
      const timed = (timeout: number, query = CYCLE) => {
        const started = Date.now();
        return handler.execute(query, { limits: { timeout } }).then((result) => ({ result, ms: Date.now() - started }));
      };
      // Started longest first: the shared timer must be set again for each earlier deadline.
      const [long, mid, short, fast] = await Promise.all([
        timed(5_000, '{ Node { roots { children { id } } } }'),
        timed(600),
        timed(150),
        handler.execute('{ Node { numbers(n: 3) } }', { limits: { timeout: 100 } }),
      ]);
      expect(fast).toEqual({ data: { Node: { numbers: [0, 1, 2] } }, errors: null });
      expect(short.result.errors![0]!.extensions).toEqual({ code: 'OPERATION_TIMEOUT', limit: 150 });
      expect(short.ms).toBeLessThan(590);
      expect(mid.result.errors![0]!.extensions).toEqual({ code: 'OPERATION_TIMEOUT', limit: 600 });
      expect(mid.ms).toBeGreaterThanOrEqual(590);
      // The 5 s one outlives its hung batch (2 s) and answers.
      expect(long.result.errors).toBeNull();
      expect(long.ms).toBeGreaterThanOrEqual(1_900);
      expect(watchedBudgets()).toBe(0);
    } finally {
      hang = false;
    }
  }, 15_000);

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
