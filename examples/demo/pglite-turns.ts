/**
 * PGlite runs each query synchronously (PostgreSQL compiled to WebAssembly) inside this process,
 * and hands its lock from one queued query to the next in microtasks: the queries of 50 requests
 * run back to back without the event loop turning once. Measured: 200 queued queries took 7 s and
 * a `setTimeout(0)` set beside them ran only after the last. Meanwhile no connection is read and
 * no timer fires, so a server on PGlite under load answers in bursts with a long tail, and the
 * keep-alive timeout of a connection whose next request sits unread fires first and resets it
 * (the load bench's timeouts and ECONNRESETs). Here each query, transaction or exec waits for one
 * turn of the event loop before it starts, one at a time (PGlite runs one at a time anyway).
 */
import type { PGlite } from '@electric-sql/pglite';

const TAKING_TURNS = new Set<PropertyKey>(['query', 'exec', 'transaction']);

export function takingTurns(client: PGlite): PGlite {
  let tail: Promise<unknown> = Promise.resolve();
  const turn = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(run);
    tail = result.catch(() => undefined);
    return result;
  };
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      // PGlite's methods use private fields: they must run with the instance itself as `this`.
      if (!TAKING_TURNS.has(prop)) return value.bind(target);
      return (...args: unknown[]) => turn(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}
