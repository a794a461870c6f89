/**
 * Cancellation as loaders and methods see it: the run's `AbortSignal` reaches batch functions
 * (`(keys, { signal, context })`), page loaders (fourth argument), DataLoader subclasses (a
 * declared `_signal` field) and query methods (third argument); once the caller's signal aborts
 * or the budget is spent, it aborts, and no further batch starts.
 */
import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseEntity, buildList, buildObject, GraphQLHandler, model, query, Relationship, type LoaderInfo } from 'ergraph';
import { LoaderPool } from '../../src/resolver/pool.js';

const Base = baseEntity();

const seen: { keys: readonly number[]; info: LoaderInfo }[] = [];
let gate: { release(): void; reached: Promise<void> } | undefined;
/** Owners by id; with a gate set, it waits there (and tells it reached it) until released. */
async function ownersById(ids: readonly number[], info: LoaderInfo) {
  seen.push({ keys: ids, info });
  if (gate) {
    const g = gate;
    await new Promise<void>((resolve) => {
      g.release = resolve;
      (g as { arrive?: () => void }).arrive?.();
    });
  }
  return buildObject(
    ids.map((id) => new Owner({ id, name: `o${id}` })),
    ids,
    (o) => o.id,
  );
}
const petsByOwner = async (ids: readonly number[]) => buildList([1, 2].map((id) => new Pet({ id, ownerId: id, name: `p${id}` })), ids, (p) => p.ownerId);

@Base.entity
class Owner extends model({ id: z.int(), name: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'id', target: () => [Pet], name: 'pets', loader: petsByOwner })];
}

let methodInfo: LoaderInfo | undefined;
@Base.entity
class Pet extends model({ id: z.int(), ownerId: z.int(), name: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'ownerId', target: Owner, name: 'owner', loader: ownersById })];
  @query({ returns: () => [Pet] })
  static async all(_args: object, _context?: Record<string, unknown>, info?: LoaderInfo) {
    methodInfo = info;
    return [1, 2].map((id) => new Pet({ id, ownerId: id, name: `p${id}` }));
  }
}

const QUERY = '{ Pet { all { name owner { name pets { name } } } } }';

function newGate() {
  let arrive!: () => void;
  const reached = new Promise<void>((r) => (arrive = r));
  gate = { release: () => undefined, reached };
  (gate as { arrive?: () => void }).arrive = arrive;
  return gate;
}

describe('the run signal loaders and methods see', () => {
  const handler = new GraphQLHandler(Base.getDiagram());

  it('hands batch functions and methods a signal and the context, unaborted while the run goes on', async () => {
    seen.length = 0;
    const context = { user: 'u' };
    const result = await handler.execute(QUERY, { context });
    expect(result.errors).toBeNull();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.info.context).toBe(context);
    expect(seen[0]!.info.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]!.info.signal.aborted).toBe(false);
    expect(methodInfo!.signal).toBeInstanceOf(AbortSignal);
  });

  it('aborts the signal a loader holds when the caller aborts, and starts no batch after it', async () => {
    seen.length = 0;
    const g = newGate();
    const controller = new AbortController();
    const answer = handler.execute(QUERY, { signal: controller.signal });
    await g.reached;
    const { signal } = seen[0]!.info;
    controller.abort('client gone');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('client gone');
    const result = await answer;
    expect(result).toMatchObject({ data: null, errors: [{ message: 'The operation was cancelled: client gone', extensions: { code: 'OPERATION_CANCELLED' } }] });
    gate = undefined;
    g.release(); // the loader ignored the signal and finishes late: its values are dropped
    // pets (the next level) never loaded: only the owners batch ran
    expect(seen).toHaveLength(1);
  });

  it('aborts the signal when the budget runs out', async () => {
    seen.length = 0;
    const g = newGate();
    // The loader waits at the gate until released, so the run can only end by its deadline.
    const timed = new GraphQLHandler(Base.getDiagram(), { limits: { timeout: 1000 } });
    const result = await timed.execute(QUERY);
    expect(result.errors).toMatchObject([{ extensions: { code: 'OPERATION_TIMEOUT' } }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.info.signal.aborted).toBe(true);
    gate = undefined;
    g.release();
  });

  it('gives page loaders the info as fourth argument and class loaders a declared _signal', async () => {
    const controller = new AbortController();
    const pool = new LoaderPool({ signal: controller.signal, context: { c: 1 } });
    let pageInfo: LoaderInfo | undefined;
    const pages = pool.page(
      async (keys: readonly number[], _page, _context, info) => {
        pageInfo = info;
        return keys.map(() => ({ items: [], hasMore: false, total: null }));
      },
      { limit: 1, offset: 0, withTotal: false },
    );
    await pages.load(1);
    expect(pageInfo!.context).toEqual({ c: 1 });
    class Loader extends DataLoader<number, number> {
      _signal: AbortSignal | undefined = undefined;
      constructor() {
        super(async (keys) => keys.map((k) => k * 2));
      }
    }
    const loader = pool.get<number, number>(Loader) as Loader;
    expect(await loader.load(2)).toBe(4);
    expect(loader._signal!.aborted).toBe(false);
    controller.abort();
    expect(loader._signal!.aborted).toBe(true);
    // After the abort no batch starts, for function, page and class loaders alike.
    await expect(loader.load(3)).rejects.toThrow(/cancelled/);
    await expect(pool.page(async () => [], { limit: 2, offset: 0, withTotal: false }).load(1)).rejects.toThrow(/cancelled/);
    await expect(pool.loadAll(pool.get(async (keys: readonly number[]) => keys), [1])).resolves.toMatchObject([{ message: expect.stringMatching(/cancelled/) }]);
  });
});
