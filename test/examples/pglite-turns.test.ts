/**
 * The demo's PGlite lets the event loop turn between queries: a callback queued for the next turn
 * of the loop (where I/O is read and due timers fire) beside a queue of queries runs before the
 * queue has drained (on PGlite alone it runs only after the last one, so a server on it stops
 * reading connections and firing timers for as long as its queue lasts). Turns, not time: the
 * outcome is the same on a fast machine and a slow one.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { takingTurns } from '../../examples/demo/pglite-turns.js';

let client: PGlite;
beforeAll(async () => {
  client = new PGlite();
  await client.waitReady;
});
afterAll(async () => client.close());

it('lets the event loop turn between queued queries, answers each, and keeps transactions whole', async () => {
  const db = drizzle({ client: takingTurns(client) });
  let done = 0;
  let doneWhenTurned = -1;
  const queries = Array.from({ length: 20 }, (_, i) => db.execute(sql`select ${i}::int as n`).then((r) => (done++, r.rows[0])));
  setImmediate(() => (doneWhenTurned = done));
  const rows = await Promise.all(queries);
  expect(rows).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
  expect(doneWhenTurned).toBeGreaterThanOrEqual(0);
  expect(doneWhenTurned).toBeLessThan(20);

  await db.execute(sql`create table turns (n int)`);
  await expect(
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into turns values (1)`);
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  await db.transaction(async (tx) => tx.execute(sql`insert into turns values (2)`));
  expect((await db.execute(sql`select n from turns`)).rows).toEqual([{ n: 2 }]);
});
