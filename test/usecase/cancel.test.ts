/**
 * Cancellation on use-case routes (issue 28.4): the request's signal, which aborts when the client
 * goes away, reaches the service method (third argument, as under GraphQL) and the loaders of a
 * `Resolver` the method makes without passing any signal; no batch starts after it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildObject, Loader, model, query, Resolver, type LoaderInfo } from 'ergraph';
import { createUseCaseRouter, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';
import { loaderGate } from '../support/loader-gate.js';

const gate = loaderGate();
const { seen } = gate;

/** Owners by id; while the gate is shut, it waits there. */
async function ownersById(ids: readonly number[], info: LoaderInfo) {
  await gate.enter(info);
  return buildObject(
    ids.map((id) => new Owner({ id, name: `o${id}` })),
    ids,
    (o) => o.id,
  );
}
const petsByOwner = async (ids: readonly number[], info: LoaderInfo) => {
  await gate.enter(info);
  return ids.map(() => []);
};

class Pet extends model({ id: z.int(), name: z.string() }) {}
class Owner extends model({ id: z.int(), name: z.string(), pets: z.array(z.unknown()).default([]) }) {
  resolvePets(loader = Loader(petsByOwner)) {
    return loader.load(this.id);
  }
}
class Task extends model({ id: z.int(), ownerId: z.int(), owner: z.unknown().optional() }) {
  resolveOwner(loader = Loader(ownersById)) {
    return loader.load(this.ownerId);
  }
}
void Pet;

let methodInfo: LoaderInfo | undefined;
class TaskService extends UseCaseService {
  @query({ args: {}, returns: z.array(z.string()) })
  static async tasks(_args: object, _context?: object, info?: LoaderInfo) {
    methodInfo = info;
    // No signal passed: the route's request signal reaches the loaders all the same.
    const tasks = await new Resolver().resolve([new Task({ id: 1, ownerId: 1 }), new Task({ id: 2, ownerId: 2 })]);
    const owners = await new Resolver().resolve(tasks.map((t) => t.owner as Owner));
    return owners.map((o) => `${o.name}: ${o.pets.length} pets`);
  }
}

const logged: unknown[] = [];
const app = createUseCaseRouter(new UseCaseAppConfig({ name: 'tasks', services: [TaskService], onError: (error) => logged.push(error) }));
const call = (signal?: AbortSignal) =>
  app.request('/api/task_service/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal });

describe('use-case routes: the request signal', () => {
  it('reaches the method and the loaders of its Resolver, unaborted while the request goes on', async () => {
    gate.reset();
    const response = await call();
    expect(await response.json()).toEqual(['o1: 0 pets', 'o2: 0 pets']);
    expect(methodInfo!.signal).toBeInstanceOf(AbortSignal);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.signal.aborted).toBe(false);
  });

  it('aborts the signal the loader holds when the client goes away, and no batch starts after it', async () => {
    gate.reset();
    const { reached, open } = gate.shut();
    const controller = new AbortController();
    const answer = call(controller.signal);
    await reached;
    const { signal } = seen[0]!;
    controller.abort('client gone');
    expect(signal.aborted).toBe(true);
    expect(methodInfo!.signal.aborted).toBe(true);
    open(); // the loader ignored its signal and finishes late
    logged.length = 0;
    const response = await answer;
    // Nothing failed: the client went away. Not logged as an error with an id, and no 500.
    expect(response.status).toBe(499);
    expect(logged).toEqual([]);
    // The owners' pets (the method's next resolve) were never loaded.
    expect(seen).toHaveLength(1);
  });
});
