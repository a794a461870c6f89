import { Hono } from 'hono';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Entity, ErDiagram, GraphQLHandler, QueryConfig, model } from 'ergraph';
import { FederationError, RemoteRelationship, RemoteService } from 'ergraph/federation';
import { productsHandler, reviewsService, start, usersService, type Running } from './services.js';

let usersRun: Running;
let reviewsRun: Running;
let reviews: Awaited<ReturnType<typeof reviewsService>>;

beforeAll(async () => {
  usersRun = await start(usersService().app);
  reviews = await reviewsService();
  await reviews.handler.federate({ services: { users: usersRun.address } });
  reviewsRun = await start(reviews.app);
});

afterAll(async () => {
  await reviewsRun?.close();
  await usersRun?.close();
  await reviews?.close();
});

/** A mounter with one remote relationship shaped by `rel`. */
function mounter(rel: (r: RemoteService) => RemoteRelationship, shape: z.ZodRawShape = { id: z.int() }) {
  const remote = new RemoteService('reviews');
  class Thing extends model(shape) {}
  const entity = new Entity({
    kls: Thing,
    relationships: [rel(remote)] as never,
    queries: [new QueryConfig({ name: 'all', returns: () => [Thing], method: async () => [new Thing({ id: 1, code: 'x' })] })],
  });
  return new GraphQLHandler(new ErDiagram({ entities: [entity] }), { serviceName: 'things' });
}

describe('mount-time validation', () => {
  const cases: [string, () => GraphQLHandler, Record<string, string> | null, RegExp][] = [
    [
      'unknown service',
      () => mounter((r) => new RemoteRelationship({ fk: 'id', target: [r.Review], name: 'reviews', joinRemote: 'productId' })),
      {},
      /service 'reviews' is not in federate\(\{ services \}\)/,
    ],
    [
      'unknown type',
      () => mounter((r) => new RemoteRelationship({ fk: 'id', target: [r.Nope], name: 'reviews', joinRemote: 'productId' })),
      null,
      /service 'reviews' has no entity Nope \(has: Review, User\)/,
    ],
    [
      'non-scalar or unknown join key',
      () => mounter((r) => new RemoteRelationship({ fk: 'id', target: [r.Review], name: 'reviews', joinRemote: 'author' })),
      null,
      /joinRemote 'author' is not a field of reviews.Review/,
    ],
    [
      'missing batch root',
      () => mounter((r) => new RemoteRelationship({ fk: 'id', target: [r.Review], name: 'reviews', joinRemote: 'rating' })),
      null,
      /has no batch root by_rating_in/,
    ],
    [
      'join-key type mismatch',
      () =>
        mounter(
          (r) => new RemoteRelationship({ fk: 'code', target: [r.Review], name: 'reviews', joinRemote: 'productId' }),
          { id: z.int(), code: z.string() },
        ),
      null,
      /fk Thing.code is String but reviews.Review.productId is Int/,
    ],
    [
      'a type owned elsewhere',
      () => mounter((r) => new RemoteRelationship({ fk: 'id', target: r.User, name: 'user', joinRemote: 'id' })),
      null,
      /User is owned by service 'users' \(reached through 'reviews'\)/,
    ],
  ];
  for (const [name, make, services, message] of cases) {
    it(`rejects ${name}`, async () => {
      const handler = make();
      const error = await handler.federate({ services: services ?? { reviews: reviewsRun.address } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FederationError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('rejects one bare name exposed by two services', async () => {
    // A second service that also owns an entity named Review.
    const other = new GraphQLHandler(
      new ErDiagram({ entities: [new Entity({ kls: class Review extends model({ id: z.int() }) { static __federation_keys__ = ['id']; } })] }),
      { serviceName: 'other' },
    );
    const { buildFederableApp } = await import('ergraph/federation');
    const run = await start(buildFederableApp(other, { keyLoaders: { Review: async () => [] } }));
    try {
      const handler = productsHandler();
      const error = await handler.federate({ services: { reviews: reviewsRun.address, other: run.address } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FederationError);
      expect((error as Error).message).toMatch(/Type Review is exposed by two services: 'reviews'.*'other'/);
    } finally {
      await run.close();
    }
  });

  it('names the service and address of a member that is down', async () => {
    const handler = productsHandler();
    const error = await handler.federate({ services: { reviews: 'http://127.0.0.1:9' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FederationError);
    expect((error as Error).message).toMatch(/Cannot mount service 'reviews' at http:\/\/127.0.0.1:9/);
  });

  it('federates once', async () => {
    const handler = productsHandler();
    await handler.federate({ services: { reviews: reviewsRun.address } });
    await expect(handler.federate({ services: { reviews: reviewsRun.address } })).rejects.toThrow(/already federated/);
  });
});

describe('query-time faults', () => {
  it('a member that went down fails only its field, naming the member', async () => {
    const run = await start(reviews.app);
    const handler = productsHandler();
    await handler.federate({ services: { reviews: run.address } });
    await run.close();
    const result = await handler.execute('{ Product { getAll(limit: 2) { id name reviews { id } } } }');
    const products = (result.data!.Product as { getAll: { id: number; reviews: unknown }[] }).getAll;
    expect(products.map((p) => p.id)).toEqual([1, 2]);
    expect(products[0]!.reviews).toBeNull();
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_UNAVAILABLE', service: 'reviews' });
    expect(result.errors![0]!.message).toMatch(/Member service 'reviews' \(http:\/\/127\.0\.0\.1:\d+\) is unavailable/);
  });

  it('a slow member times out', async () => {
    let slow = false;
    // A slow member: it answers only once the test has its result (a barrier, not a race of timers).
    const held: (() => void)[] = [];
    const run = await start(reviews.app, async () => {
      if (slow) await new Promise<void>((r) => held.push(r));
    });
    try {
      const handler = productsHandler();
      await handler.federate({ services: { reviews: run.address }, timeoutMs: 300 });
      slow = true;
      const result = await handler.execute('{ Product { getAll(limit: 1) { id reviews { id } } } }');
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_UNAVAILABLE', service: 'reviews' });
      expect(result.errors![0]!.message).toMatch(/no answer within 300 ms/);
      expect((result.data!.Product as { getAll: { id: number }[] }).getAll[0]!.id).toBe(1);
    } finally {
      for (const release of held) release();
      await run.close();
    }
  });

  it('a member answering garbage gives a bad-response error', async () => {
    let garbage = false;
    const app = new Hono();
    app.post('/graphql', async (c) => (garbage ? c.text('<html>oops</html>') : reviews.app.fetch(c.req.raw)));
    app.all('*', (c) => reviews.app.fetch(c.req.raw));
    const run = await start(app);
    try {
      const handler = productsHandler();
      await handler.federate({ services: { reviews: run.address } });
      garbage = true;
      const result = await handler.execute('{ Product { getAll(limit: 1) { id reviews { id } } } }');
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_BAD_RESPONSE', service: 'reviews' });
      expect((result.data!.Product as { getAll: { id: number; reviews: unknown }[] }).getAll[0]).toEqual({ id: 1, reviews: null });
    } finally {
      await run.close();
    }
  });
});

describe('a member answering without end', () => {
  it('is read up to maxResponseBytes, 16 MiB when federate() is given none, then its fields are null with a bad-response error', async () => {
    let endless = false;
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(32);
    const app = new Hono();
    // Pulled: the member sends only as fast as the mounter reads, and stops when it cancels.
    const stream = () => new ReadableStream<Uint8Array>({ pull: (controller) => void ((sent += chunk.byteLength), controller.enqueue(chunk)) });
    app.post('/graphql', async (c) => (endless ? new Response(stream(), { headers: { 'content-type': 'application/json' } }) : reviews.app.fetch(c.req.raw)));
    app.all('*', (c) => reviews.app.fetch(c.req.raw));
    const run = await start(app);
    try {
      const handler = productsHandler();
      // A long member timeout, so that the bound and not the clock ends the read on a busy machine.
      await handler.federate({ services: { reviews: run.address }, timeoutMs: 120_000 });
      endless = true;
      const result = await handler.execute('{ Product { getAll(limit: 1) { id reviews { id } } } }');
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_BAD_RESPONSE', service: 'reviews' });
      expect(result.errors![0]!.message).toContain('more than the 16777216 bytes allowed');
      expect((result.data!.Product as { getAll: { id: number; reviews: unknown }[] }).getAll[0]).toEqual({ id: 1, reviews: null });
      // Read up to the bound and no further than the stream's buffering past it.
      expect(sent).toBeGreaterThan(16 * 1024 * 1024);
      expect(sent).toBeLessThan(24 * 1024 * 1024);
      await expect(productsHandler().federate({ services: { reviews: run.address }, maxResponseBytes: 0 })).rejects.toThrow('federate(): maxResponseBytes must be a positive integer, got 0');
    } finally {
      await run.close();
    }
  });
});

describe('a member that redirects', () => {
  it('is not followed: federate() rejects naming the target, and at query time its fields are null with a bad-response error', async () => {
    // The target is the real member: a followed redirect would succeed, and it would see the calls.
    let redirecting = true;
    const app = new Hono();
    app.all('*', (c) => {
      const path = new URL(c.req.url).pathname;
      return redirecting ? c.redirect(`${reviewsRun.address}${path}`, 307) : reviews.app.fetch(c.req.raw);
    });
    const run = await start(app);
    const seen = reviewsRun.requests.length;
    try {
      const refused = productsHandler().federate({ services: { reviews: run.address } });
      await expect(refused).rejects.toThrow(FederationError);
      await expect(refused).rejects.toThrow(`answered HTTP 307, a redirect to ${reviewsRun.address}/`);
      redirecting = false;
      const handler = productsHandler();
      await handler.federate({ services: { reviews: run.address } });
      redirecting = true;
      const result = await handler.execute('{ Product { getAll(limit: 1) { id reviews { id } } } }');
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_BAD_RESPONSE', service: 'reviews', status: 307 });
      expect(result.errors![0]!.message).toContain(`/graphql answered HTTP 307, a redirect to ${reviewsRun.address}/graphql`);
      expect((result.data!.Product as { getAll: { id: number; reviews: unknown }[] }).getAll[0]).toEqual({ id: 1, reviews: null });
      expect(reviewsRun.requests.slice(seen)).toEqual([]);
    } finally {
      await run.close();
    }
  });
});

describe('errors deeper in the graph', () => {
  it('a member whose own member is down reports FEDERATION_MEMBER_ERROR carrying the downstream error', async () => {
    const deadUsers = await start(usersService().app);
    const member = await reviewsService();
    await member.handler.federate({ services: { users: deadUsers.address } });
    await deadUsers.close();
    const run = await start(member.app);
    try {
      const handler = productsHandler();
      await handler.federate({ services: { reviews: run.address } });
      const result = await handler.execute('{ Product { getAll(limit: 1) { id reviews { id author { name } } } } }');
      expect(result.errors![0]!.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_ERROR', service: 'reviews' });
      const downstream = (result.errors![0]!.extensions as { memberErrors: { extensions: Record<string, unknown> }[] }).memberErrors[0]!;
      expect(downstream.extensions).toMatchObject({ code: 'FEDERATION_MEMBER_UNAVAILABLE', service: 'users' });
      expect((result.data!.Product as { getAll: { id: number }[] }).getAll[0]!.id).toBe(1);
    } finally {
      await run.close();
      await member.close();
    }
  });
});

describe('member startup', () => {
  it('rejects multi-column order profiles', async () => {
    const { BatchPageConfig, PageOrder, OrderTerm, buildFederableApp } = await import('ergraph/federation');
    class Thing extends model({ id: z.int(), a: z.int(), b: z.int() }) {
      static __federation_keys__ = ['id'];
      static __pagination_orders__ = new BatchPageConfig({
        defaultOrder: 'two',
        orders: { two: new PageOrder([new OrderTerm('a'), new OrderTerm('b')]) },
      });
    }
    const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Thing })] }), { serviceName: 'things' });
    expect(() => buildFederableApp(handler, { keyLoaders: { Thing: async () => [] } })).toThrow(/profile 'two' has 2 columns/);
  });
});
