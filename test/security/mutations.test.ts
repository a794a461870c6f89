/**
 * Serial mutations (issue 13 item 8), attacked through both endpoints over HTTP: `/graphql`
 * (grouped, several methods in one group) and the v5 compat endpoint (flat fields, which compat
 * merges into one group). GraphQL runs root mutations one after another, each with its whole
 * selection, and stops at the first failure that nulls `data`; nothing may run that the
 * response does not show.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, MutationConfig, QueryConfig, ref, Relationship } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import { compatApp, createCompatHandler } from 'ergraph/compat';

/** An in-memory bank: every write is recorded, so a test can tell what ran. */
const balances = new Map<number, number>();
let ledger: { id: number; accountId: number; amount: number }[] = [];
const writes: string[] = [];

class Entry extends model({ id: z.int(), accountId: z.int(), amount: z.int() }) {}
class Account extends model({ id: z.int(), balance: z.int() }) {}

const account = (id: number) => new Account({ id, balance: balances.get(id) ?? 0 });
function post(id: number, amount: number) {
  writes.push(`${id}:${amount}`);
  balances.set(id, (balances.get(id) ?? 0) + amount);
  ledger.push({ id: ledger.length + 1, accountId: id, amount });
  return account(id);
}

const money = { id: z.int(), amount: z.int() };
const diagram = new ErDiagram({
  entities: [
    new Entity({
      kls: Account,
      relationships: [
        // Reads the ledger when it loads: a selection shows what was written before it ran.
        new Relationship({
          fk: 'id',
          target: () => [Entry],
          name: 'entries',
          loader: async (ids: readonly number[]) => {
            if (ids.includes(13)) throw new Error('audit log offline');
            return ids.map((id) => ledger.filter((e) => e.accountId === id).map((e) => new Entry(e)));
          },
        }),
      ],
      queries: [new QueryConfig({ name: 'get', args: { id: z.int() }, returns: () => Account, method: async ({ id }: { id: number }) => account(id) })],
      mutations: [
        new MutationConfig({
          name: 'deposit',
          args: money,
          returns: () => Account,
          method: async ({ id, amount }: { id: number; amount: number }) => {
            await turns(3); // a slow write: a racing one would overtake it
            return post(id, amount);
          },
        }),
        new MutationConfig({
          name: 'withdraw',
          args: money,
          returns: () => Account,
          method: async ({ id, amount }: { id: number; amount: number }) => {
            if ((balances.get(id) ?? 0) < amount) throw new GraphQLError(`insufficient funds on account ${id}`);
            return post(id, -amount);
          },
        }),
        new MutationConfig({
          name: 'tryWithdraw',
          args: money,
          returns: () => ref(() => Account).nullable(),
          method: async ({ id, amount }: { id: number; amount: number }) => {
            if ((balances.get(id) ?? 0) < amount) throw new GraphQLError(`insufficient funds on account ${id}`);
            return post(id, -amount);
          },
        }),
      ],
    }),
    new Entity({ kls: Entry }),
  ],
});

const handler = new GraphQLHandler(diagram);
const v6 = graphqlApp(handler);
const v5 = compatApp(createCompatHandler(handler));

async function send(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }, query: string) {
  const res = await app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await res.json()) as { data: Record<string, any> | null; errors: { message: string; path?: (string | number)[] }[] | null };
}

/** Turns of the event loop: a deposit takes 3 before it writes (no timers anywhere here). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}
/**
 * Enough turns for any method still running after the response to have written: a method started
 * after it, in the background, would write within its 3 turns (counted, not timed).
 */
const settled = () => turns(30);

beforeEach(() => {
  balances.clear();
  balances.set(1, 100);
  balances.set(13, 100);
  ledger = [];
  writes.length = 0;
});

const endpoints = [
  {
    name: '/graphql (one group)',
    send: (q: string) => send(v6, `mutation { Account { ${q} } }`),
    pick: (data: Record<string, any>) => data.Account,
    path: (key: string) => ['Account', key],
    op: (name: string) => name,
  },
  {
    name: 'compat /graphql (flat fields)',
    send: (q: string) => send(v5, `mutation { ${q} }`),
    pick: (data: Record<string, any>) => data,
    path: (key: string) => [key],
    op: (name: string) => `account${name[0]!.toUpperCase()}${name.slice(1)}`,
  },
] as const;

describe.each(endpoints)('serial mutations through $name', ({ send, pick, path, op }) => {
  it('each method and its whole selection complete before the next starts', async () => {
    const result = await send(
      `a: ${op('deposit')}(id: 1, amount: 10) { balance entries { amount } } ` +
        `b: ${op('deposit')}(id: 1, amount: 5) { balance entries { amount } } ` +
        `c: ${op('withdraw')}(id: 1, amount: 7) { balance entries { amount } }`,
    );
    expect(result.errors).toBeNull();
    // a's selection saw a's write only, although b (slow: 3 turns) and c wrote afterwards
    expect(pick(result.data!)).toEqual({
      a: { balance: 110, entries: [{ amount: 10 }] },
      b: { balance: 115, entries: [{ amount: 10 }, { amount: 5 }] },
      c: { balance: 108, entries: [{ amount: 10 }, { amount: 5 }, { amount: -7 }] },
    });
    expect(writes).toEqual(['1:10', '1:5', '1:-7']);
  });

  it('a failure that nulls data stops every method after it', async () => {
    const result = await send(
      `a: ${op('deposit')}(id: 1, amount: 10) { balance } ` +
        `b: ${op('withdraw')}(id: 1, amount: 1000) { balance } ` +
        `c: ${op('deposit')}(id: 1, amount: 5) { balance }`,
    );
    expect(result.data).toBeNull();
    expect(result.errors!.map((e) => e.message)).toEqual(['insufficient funds on account 1']);
    // c is not in the response, so it must not run, not even after the response went out
    await settled();
    expect(writes).toEqual(['1:10']);
    expect(balances.get(1)).toBe(110);
  });

  it('a failure deep in a selection that nulls data stops the methods after it too', async () => {
    const result = await send(
      `a: ${op('deposit')}(id: 13, amount: 1) { balance entries { amount } } ` + `b: ${op('deposit')}(id: 1, amount: 5) { balance }`,
    );
    expect(result.data).toBeNull();
    // An unexpected loader failure reaches the client masked, with an id for the server's log.
    expect(result.errors!.map((e) => e.message)).toEqual([expect.stringMatching(/^Internal server error \(error id [0-9a-f]{8}\)$/)]);
    await settled();
    expect(writes).toEqual(['13:1']);
  });

  it('a failure that nulls only its own field lets the next method run, which sees the state as it is', async () => {
    const result = await send(
      `a: ${op('tryWithdraw')}(id: 1, amount: 1000) { balance } ` +
        `b: ${op('deposit')}(id: 1, amount: 5) { balance entries { amount } }`,
    );
    expect(pick(result.data!)).toEqual({ a: null, b: { balance: 105, entries: [{ amount: 5 }] } });
    expect(result.errors!.map((e) => [e.message, e.path])).toEqual([['insufficient funds on account 1', path('a')]]);
    expect(writes).toEqual(['1:5']);
  });
});

describe('serial mutations across groups (/graphql)', () => {
  it('groups of different entities, and a group repeated, keep document order and stop at the first null of data', async () => {
    const result = await send(
      v6,
      'mutation { Account { a: deposit(id: 1, amount: 1) { balance } } again: Account { b: withdraw(id: 1, amount: 500) { balance } } last: Account { c: deposit(id: 1, amount: 2) { balance } } }',
    );
    expect(result.data).toBeNull();
    await settled();
    expect(writes).toEqual(['1:1']);
  });

  it('a query after a mutation in another request reads the written state (nothing cached across requests)', async () => {
    await send(v6, 'mutation { Account { deposit(id: 1, amount: 3) { entries { amount } } } }');
    const read = await send(v6, '{ Account { get(id: 1) { balance entries { amount } } } }');
    expect(read.data).toEqual({ Account: { get: { balance: 103, entries: [{ amount: 3 }] } } });
  });
});
