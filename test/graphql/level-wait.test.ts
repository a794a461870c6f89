/**
 * The graphql-js mode's level wait (levels.ts): a level's loads go out only once nothing
 * shallower is running, so a relationship reached from two branches that finish at different
 * times is still one loader call. The test decides the order of completion itself: the two
 * branch loaders answer when it resolves their deferred promises, not after timers, so with the
 * wait removed the first branch's comments go out alone, every time.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, QueryConfig, ref, Relationship } from 'ergraph';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

class Person extends model({ id: z.int() }) {}
class Ticket extends model({ id: z.int(), ownerId: z.int(), reviewerId: z.int() }) {}
class Note extends model({ id: z.int(), ticketId: z.int() }) {}

const TICKETS = [new Ticket({ id: 10, ownerId: 1, reviewerId: 2 }), new Ticket({ id: 20, ownerId: 2, reviewerId: 1 })];

function world() {
  const owned = deferred<void>();
  const reviewed = deferred<void>();
  const noteCalls: number[][] = [];
  const asked: string[] = [];
  const diagram = new ErDiagram({
    entities: [
      new Entity({
        kls: Person,
        relationships: [
          new Relationship({
            fk: 'id',
            target: () => [Ticket],
            name: 'owned',
            loader: async (ids: readonly number[]) => {
              asked.push('owned');
              await owned.promise;
              return ids.map((id) => TICKETS.filter((t) => t.ownerId === id));
            },
          }),
          new Relationship({
            fk: 'id',
            target: () => [Ticket],
            name: 'reviewed',
            loader: async (ids: readonly number[]) => {
              asked.push('reviewed');
              await reviewed.promise;
              return ids.map((id) => TICKETS.filter((t) => t.reviewerId === id));
            },
          }),
        ],
        queries: [new QueryConfig({ name: 'one', returns: ref(() => Person), method: () => new Person({ id: 1 }) })],
      }),
      new Entity({
        kls: Ticket,
        relationships: [
          new Relationship({
            fk: 'id',
            target: () => [Note],
            name: 'notes',
            loader: async (ids: readonly number[]) => {
              noteCalls.push([...ids].sort());
              return ids.map((id) => [new Note({ id: id * 10, ticketId: id })]);
            },
          }),
        ],
      }),
      new Entity({ kls: Note }),
    ],
  });
  return { diagram, owned, reviewed, noteCalls, asked };
}

/** Event-loop turns, not time: the scheduler looks from setImmediate once the microtasks drained. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const QUERY = '{ Person { one { owned { notes { id } } reviewed { notes { id } } } } }';

describe.each(['graphql-js', 'compiled'] as const)('the %s executor', (executor) => {
  it('sends a level of a relationship reached from two branches in one call, whichever branch finishes first', async () => {
    for (const first of ['owned', 'reviewed'] as const) {
      const w = world();
      const pending = new GraphQLHandler(w.diagram, { executor }).execute(QUERY);
      // Both branch loads are out (their level was dispatched) before either answers.
      while (w.asked.length < 2) await turns(1);
      w[first].resolve();
      // The first branch's tickets arrive and their `notes` are asked for; the other branch is
      // still loading, so that level must wait. Many turns give a missing wait every chance.
      await turns(20);
      expect(w.noteCalls).toEqual([]);
      w[first === 'owned' ? 'reviewed' : 'owned'].resolve();
      const result = await pending;
      expect(result.errors).toBeNull();
      expect(w.noteCalls).toEqual([[10, 20]]);
    }
  });
});
