/**
 * Attacks on federation (issue 13.5): a member that hangs must cost one timeout per window, not
 * one per request (a per-member circuit breaker), and dto-batch looks up only declared order
 * profiles — `constructor` or `__proto__` from a client is a 400 naming the profiles, never a
 * TypeError from Object.prototype.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { PROTOCOL } from 'ergraph/federation';
import { DEFAULT_BUDGET } from '../../src/graphql/budget.js';
import { stateOf } from '../../src/federation/state.js';
import { productsHandler, reviewsService, start, usersService, type Running } from '../federation/services.js';

let usersRun: Running;
let reviews: Awaited<ReturnType<typeof reviewsService>>;
let gateRun: Running;
/** While true, the member accepts POST /graphql and never answers (until the suite ends). */
let hang = false;
let graphqlCalls = 0;
const held: (() => void)[] = [];

beforeAll(async () => {
  usersRun = await start(usersService().app);
  reviews = await reviewsService();
  await reviews.handler.federate({ services: { users: usersRun.address } });
  const gate = new Hono();
  gate.use('/graphql', async (c, next) => {
    graphqlCalls++;
    if (hang) return new Promise<Response>((resolve) => held.push(() => resolve(c.text('released', 503))));
    await next();
  });
  gate.route('/', reviews.app);
  gateRun = await start(gate);
}, 60_000);

afterAll(async () => {
  held.splice(0).forEach((release) => release());
  await gateRun?.close();
  await usersRun?.close();
  await reviews?.close();
});

const QUERY = '{ Product { getAll(limit: 3) { id reviews { id } } } }';
type Result = Awaited<ReturnType<ReturnType<typeof productsHandler>['execute']>>;

async function timed(run: () => Promise<Result>): Promise<{ ms: number; result: Result }> {
  const t0 = performance.now();
  const result = await run();
  return { ms: performance.now() - t0, result };
}

describe('a hung member', () => {
  it('costs one timeout per window: fails fast while open, one probe half-open, closes when it answers', async () => {
    const products = productsHandler();
    await products.federate({
      services: { reviews: gateRun.address },
      timeoutMs: 600,
      circuitBreaker: { failures: 2, halfOpenAfterMs: 1200 },
    });
    const healthy = await products.execute(QUERY);
    expect(healthy.errors).toBeNull();

    hang = true;
    graphqlCalls = 0;
    // Two calls wait for the timeout: that is what opens the circuit.
    for (let i = 0; i < 2; i++) {
      const { ms, result } = await timed(() => products.execute(QUERY));
      expect(ms).toBeGreaterThanOrEqual(590);
      expect(result.errors![0]!.message).toMatch(/no answer within 600 ms/);
    }
    // Open: every request fails at once — the member sees none of them, so none waits for it.
    for (let i = 0; i < 5; i++) {
      const result = await products.execute(QUERY);
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_UNAVAILABLE', service: 'reviews' });
      expect(result.errors![0]!.message).toMatch(/kept failing; calls fail fast/);
    }
    expect(graphqlCalls).toBe(2);

    // Half-open while still hung: one probe waits one timeout; requests meanwhile fail fast.
    // (The waits for the half-open window are lower bounds: a slower machine only waits longer.)
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const probe = timed(() => products.execute(QUERY));
    while (graphqlCalls < 3) await new Promise((resolve) => setImmediate(resolve)); // the probe reached the member
    const during = await Promise.all(Array.from({ length: 4 }, () => products.execute(QUERY)));
    for (const result of during) expect(result.errors![0]!.message).toMatch(/being probed; failing fast/);
    const probed = await probe;
    expect(probed.ms).toBeGreaterThanOrEqual(590);
    expect(probed.result.errors![0]!.message).toMatch(/no answer within 600 ms/);
    expect(graphqlCalls).toBe(3);

    // The member recovers: after the next window one probe gets through and closes the circuit.
    hang = false;
    const stillOpen = await products.execute(QUERY);
    expect(stillOpen.errors![0]!.message).toMatch(/kept failing/);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    for (let i = 0; i < 3; i++) {
      const result = await products.execute(QUERY);
      expect(result.errors).toBeNull();
      const list = (result.data!.Product as { getAll: { id: number; reviews: { id: number }[] }[] }).getAll;
      expect(list.map((p) => p.reviews.length)).toEqual([3, 3, 3]);
    }
    expect(graphqlCalls).toBe(6);
  }, 10_000);

  it('can be turned off, and rejects a nonsensical configuration', async () => {
    const products = productsHandler();
    await expect(products.federate({ services: { reviews: gateRun.address }, circuitBreaker: { failures: 0 } })).rejects.toThrow(
      /circuitBreaker\.failures must be a positive integer, got 0/,
    );
    const unguarded = productsHandler();
    await unguarded.federate({ services: { reviews: gateRun.address }, timeoutMs: 200, circuitBreaker: false });
    hang = true;
    try {
      for (let i = 0; i < 3; i++) {
        const { ms, result } = await timed(() => unguarded.execute(QUERY));
        expect(ms).toBeGreaterThanOrEqual(190); // every request pays the timeout
        expect(result.errors![0]!.message).toMatch(/no answer within 200 ms/);
      }
    } finally {
      hang = false;
    }
  }, 10_000);
});

describe('a hung member, with the defaults (issue 27 item 7)', () => {
  it("costs its own fields, not the operation: the member timeout is shorter than the operation's", async () => {
    const products = productsHandler(); // no limits: the operation's budget is the default 10 s
    await products.federate({ services: { reviews: gateRun.address } }); // no timeout, no breaker options
    const member = stateOf(products).mounted!.services.get('reviews')!.member;
    expect(member.timeoutMs).toBe(5_000);
    expect(member.timeoutMs).toBeLessThanOrEqual(DEFAULT_BUDGET.timeout / 2);
    hang = true;
    try {
      // The member never answers until the suite releases it: only its timeout can end the call.
      const result = await products.execute('{ Product { getAll(limit: 2) { id name reviews { id } } } }');
      expect(result.data).toEqual({
        Product: {
          getAll: [
            { id: 1, name: 'product-1', reviews: null },
            { id: 2, name: 'product-2', reviews: null },
          ],
        },
      });
      expect(result.errors).toHaveLength(2);
      for (const error of result.errors!) {
        expect(error.message).toMatch(/no answer within 5000 ms/);
        expect(error.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_UNAVAILABLE', service: 'reviews' });
      }
    } finally {
      hang = false;
    }
  }, 30_000);

  it('stays within half of a shorter operation timeout, and keeps a timeout the app names', async () => {
    const short = new GraphQLHandler(productsHandler().diagram, { serviceName: 'products', limits: { timeout: 3_000 } });
    await short.federate({ services: { reviews: gateRun.address } });
    expect(stateOf(short).mounted!.services.get('reviews')!.member.timeoutMs).toBe(1_500);
    const named = productsHandler();
    await named.federate({ services: { reviews: gateRun.address }, timeoutMs: 700 });
    expect(stateOf(named).mounted!.services.get('reviews')!.member.timeoutMs).toBe(700);
  });
});

describe('dto-batch order profiles', () => {
  const post = (body: unknown) =>
    fetch(`${gateRun.address}/ergraph/dto-batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('answers order %j with 400 naming the declared profiles', async (order) => {
    const response = await post({ protocol: PROTOCOL, dto: 'ReviewDTO', keys: [1, 2], limit: 2, order });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toBe(`Unknown order profile '${order}' of Review (published: recent, best)`);
  });

  it('rejects an order that is not a name, and still serves a declared one', async () => {
    const bad = await post({ protocol: PROTOCOL, dto: 'ReviewDTO', keys: [1], limit: 2, order: { toString: 1 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/order must be the name of an order profile, got \{"toString":1\}/);
    const good = await post({ protocol: PROTOCOL, dto: 'ReviewDTO', keys: [1], limit: 1, order: 'best' });
    expect(good.status).toBe(200);
    const { items } = (await good.json()) as { items: { rating: number; stars: string }[][] };
    expect(items[0]).toHaveLength(1);
    expect(items[0]![0]!.stars).toBe('*'.repeat(items[0]![0]!.rating));
  });
});
