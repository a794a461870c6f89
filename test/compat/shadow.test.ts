/**
 * Shadow runs (issue 46.2): off by default; for a sample of v5 queries, after the answer is sent,
 * the v6 form v5-to-v6 writes runs with the same variables and context, and the verdict goes into
 * the catalog. Never a mutation; never before the response is complete (checked by order, over
 * real HTTP: the response has finished when the run starts); bounded by concurrency and a time
 * budget per minute (each default built with no options, on a fake clock); a failure never
 * reaches the client.
 */
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compatApp,
  CompatConfigError,
  createCompatHandler,
  createUsageRecorder,
  memoryUsageStore,
  type CompatHandlerOptions,
  type V6Handler,
} from 'ergraph/compat';
import { createDomain, createV6Handler } from './helpers.js';

type Call = { query: string; variables?: Record<string, unknown>; context?: Record<string, unknown>; signal?: AbortSignal };

/** The test domain's v6 handler, each call recorded; `onCall` may act on one (the first is compat's own run). */
function recording(onCall: (call: Call, n: number) => void | Promise<void> = () => undefined, domain = createDomain()) {
  const inner = createV6Handler(domain);
  const calls: Call[] = [];
  const handler: V6Handler = {
    schema: inner.schema,
    async execute(query, opts = {}) {
      const call = { query, variables: opts.variables, context: opts.context, signal: opts.signal };
      calls.push(call);
      await onCall(call, calls.length);
      return inner.execute(query, opts);
    },
  };
  return { handler, calls, domain };
}

function setup(shadow: CompatHandlerOptions['shadow'], onCall?: Parameters<typeof recording>[0], domain?: ReturnType<typeof createDomain>) {
  const { handler, calls } = recording(onCall, domain);
  const store = memoryUsageStore();
  const usage = createUsageRecorder(store, { flushIntervalMs: 60_000 });
  const compat = createCompatHandler(handler, { usage, shadow });
  const catalog = async () => {
    await compat.shadow.idle();
    await usage.flush();
    return store.readOperations!();
  };
  return { compat, calls, usage, catalog };
}

const BOARD = 'query Board($n: Int) { people: userGetAll(limit: $n) { id name } taskById(id: 2) { title } }';
/** A run that can be held: `responded` settles when the test says the answer is sent. */
function held() {
  let send!: () => void;
  const sent = new Promise<void>((resolve) => (send = resolve));
  return { responded: () => sent, send };
}

describe('shadow runs', () => {
  it('are off by default: one v6 run per request, nothing sampled', async () => {
    const { compat, calls, catalog } = setup(undefined);
    await compat.execute(BOARD, { variables: { n: 2 }, client: 'web' });
    expect(compat.shadow.status()).toMatchObject({ enabled: false, same: 0, running: 0 });
    expect(calls).toHaveLength(1);
    expect((await catalog())[0]!.shadow).toMatchObject({ same: 0, differs: 0, lastRunAt: null });
  });

  it('sample 1 % by default (random below 0.01 runs, at 0.01 it does not)', async () => {
    for (const [random, runs] of [[0.0099, 2], [0.01, 1]] as const) {
      const { compat, calls } = setup({ random: () => random });
      expect(compat.shadow.status().sample).toBe(0.01);
      await compat.execute(BOARD, { variables: { n: 2 } });
      await compat.shadow.idle();
      expect(calls).toHaveLength(runs);
    }
  });

  it("run the query's v6 form (as v5-to-v6 writes it) with the same variables and context, and record: same", async () => {
    const { compat, calls, catalog } = setup({ sample: 1 });
    const context = { tenant: 't1' };
    const response = await compat.execute(BOARD, { variables: { n: 2 }, client: 'web', context });
    expect(response.errors).toBeNull();
    const [row] = await catalog();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({
      query: 'query Board($n: Int) { User { people: getAll(limit: $n) { id name } } Task { taskById: byId(id: 2) { title } } }',
      variables: { n: 2 },
      context: { tenant: 't1', client: 'web' },
    });
    expect(row!.shadow).toMatchObject({ same: 1, differs: 0, path: null });
    expect(row!.shadow.lastRunAt).toBeGreaterThan(0);
    expect(compat.shadow.status()).toMatchObject({ same: 1, differs: 0, failed: 0, running: 0 });
  });

  it('record the first differing path, never a value, when the v6 answer differs', async () => {
    // The v6 run sees other data than the v5 one did (a write landed in between).
    const domain = createDomain();
    const { compat, catalog } = setup(
      { sample: 1 },
      (_call, n) => {
        if (n === 2) domain.users[1]!.name = 'Bianca';
      },
      domain,
    );
    await compat.execute(BOARD, { variables: { n: 2 }, client: 'web' });
    const [row] = await catalog();
    expect(row!.shadow).toMatchObject({ same: 0, differs: 1, path: 'data.people[1].name' });
    expect(JSON.stringify(row)).not.toContain('Bianca');
  });

  it('never run a mutation (nor a query that only introspects)', async () => {
    const domain = createDomain();
    const { compat, calls } = setup({ sample: 1 }, undefined, domain);
    await compat.execute('mutation { taskComplete(id: 1) { id } }', { client: 'web' });
    await compat.execute('{ __typename }', { client: 'web' });
    await compat.shadow.idle();
    expect(calls).toHaveLength(1);
    expect(domain.log).toEqual(['Task.complete 1']);
    expect(compat.shadow.status()).toMatchObject({ same: 0, differs: 0, dropped: { busy: 0, budget: 0 } });
  });

  it('start only once the answer has been sent (the request says when)', async () => {
    const { compat, calls } = setup({ sample: 1 });
    const { responded, send } = held();
    const response = await compat.execute(BOARD, { variables: { n: 2 }, responded });
    expect(response.data).toMatchObject({ people: [{ name: 'Ada' }, { name: 'Brian' }] });
    // The answer is in hand, the event loop turns: still not sent, so no run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(1);
    expect(compat.shadow.status().running).toBe(1);
    send();
    await compat.shadow.idle();
    expect(calls).toHaveLength(2);
  });

  it('never reach the client when they fail', async () => {
    const errors: unknown[] = [];
    const { compat } = setup({ sample: 1, onError: (e) => errors.push(e) }, (_call, n) => {
      if (n === 2) throw new Error('v6 handler down');
    });
    const response = await compat.execute(BOARD, { variables: { n: 2 } });
    expect(response).toMatchObject({ errors: null, data: { taskById: { title: 'Port engine' } } });
    await compat.shadow.idle();
    expect(compat.shadow.status()).toMatchObject({ failed: 1, same: 0, lastError: { message: 'v6 handler down' } });
    expect(errors).toHaveLength(1);
  });

  it('are bounded: 2 under way by default, a sample beyond is dropped', async () => {
    const { compat, calls } = setup({ sample: 1 });
    const runs = [held(), held(), held()];
    for (const run of runs) await compat.execute(BOARD, { variables: { n: 1 }, responded: run.responded });
    expect(compat.shadow.status()).toMatchObject({ running: 2, dropped: { busy: 1, budget: 0 } });
    for (const run of runs) run.send();
    await compat.shadow.idle();
    expect(calls).toHaveLength(3 + 2);
  });

  it('are bounded: 1000 ms of runs a minute by default, samples dropped until the minute is over', async () => {
    let clock = 0;
    // Each shadow run takes 600 ms on the fake clock.
    const { compat, calls } = setup({ sample: 1, now: () => clock }, (_call, n) => {
      if (n % 2 === 0) clock += 600;
    });
    const send = async () => {
      await compat.execute(BOARD, { variables: { n: 1 } });
      await compat.shadow.idle();
    };
    await send();
    await send();
    expect(compat.shadow.status()).toMatchObject({ same: 2, dropped: { budget: 0 } });
    await send();
    expect(compat.shadow.status()).toMatchObject({ same: 2, dropped: { budget: 1 } });
    expect(calls).toHaveLength(5);
    clock += 60_000;
    await send();
    expect(compat.shadow.status()).toMatchObject({ same: 3, dropped: { budget: 1 } });
  });

  it('abort a run that would pass the budget, and record no verdict for it', async () => {
    const { compat, catalog } = setup({ sample: 1, budgetMs: 20 }, async (call, n) => {
      if (n === 2) await new Promise((resolve) => call.signal!.addEventListener('abort', resolve));
    });
    await compat.execute(BOARD, { variables: { n: 1 } });
    expect((await catalog())[0]!.shadow).toMatchObject({ same: 0, differs: 0 });
    expect(compat.shadow.status()).toMatchObject({ timedOut: 1, failed: 0 });
  });

  it('need a store that keeps the catalog', () => {
    const { readOperations: _none, ...plain } = memoryUsageStore();
    expect(() => createCompatHandler(createV6Handler(), { usage: createUsageRecorder(plain), shadow: { sample: 1 } })).toThrow(CompatConfigError);
  });
});

describe('shadow runs over HTTP (compatApp on @hono/node-server)', () => {
  const servers: ServerType[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  it('start after the HTTP response has finished', async () => {
    const seen: Array<{ query: string; finished: boolean }> = [];
    const { handler } = recording((call) => {
      seen.push({ query: call.query, finished: (call.context!.outgoing as ServerResponse).writableFinished });
    });
    const compat = createCompatHandler(handler, { shadow: { sample: 1 } });
    const app = compatApp(compat, { context: (c) => ({ outgoing: (c.env as { outgoing: ServerResponse }).outgoing }) });
    const url = await new Promise<string>((resolve) => {
      servers.push(serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}/graphql`)));
    });
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: BOARD, variables: { n: 2 } }) });
    expect((await res.json()).data.people).toHaveLength(2);
    await compat.shadow.idle();
    // compat's own v6 run happens before the response exists; the shadow run after it has finished.
    expect(seen.map((s) => s.finished)).toEqual([false, true]);
    expect(compat.shadow.status().same).toBe(1);
    await compat.usage.close();
  });
});
