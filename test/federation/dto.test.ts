import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Annotated, DefineSubset, configResolver, ref, type Resolver } from 'ergraph';
import { FederationError, Paged, PROTOCOL } from 'ergraph/federation';
import { Product, PRODUCTS, productsHandler, reviewRows, reviews, reviewsService, start, usersService, type Running } from './services.js';

class ProductView extends DefineSubset(Product, ['id', 'name'], {
  reviews: Annotated(z.array(ref(() => reviews.ReviewDTO)).default([]), Paged({ limit: 2 })),
  summary: z.string().default(''),
}) {
  postSummary() {
    return `${this.name}: ${this.reviews.map((r) => r.stars).join(' ')}`;
  }
}

let usersRun: Running;
let reviewsRun: Running;
let member: Awaited<ReturnType<typeof reviewsService>>;
let products: ReturnType<typeof productsHandler>;
let ProductResolver: typeof Resolver;

beforeAll(async () => {
  usersRun = await start(usersService().app);
  member = await reviewsService();
  await member.handler.federate({ services: { users: usersRun.address } });
  reviewsRun = await start(member.app);
  products = productsHandler();
  ProductResolver = configResolver('ProductResolver', products.diagram);
});

afterAll(async () => {
  await reviewsRun?.close();
  await usersRun?.close();
  await member?.close();
});

describe('DTO federation', () => {
  it('names federate() when a remote DTO is used before it', async () => {
    // Building a view converts its (empty) DTO list, which needs the materialized class.
    expect(() => new ProductView(PRODUCTS[0]!)).toThrow(FederationError);
    expect(() => new ProductView(PRODUCTS[0]!)).toThrow(/reviews.ReviewDTO is a remote type of service 'reviews': call await handler.federate/);
  });

  it('publishes DTOs with their join key', async () => {
    const body = (await (await fetch(`${reviewsRun.address}/ergraph/dto-introspection`)).json()) as { protocol: string; dtos: { name: string; key: string | null; fields: { name: string }[] }[] };
    expect(body.protocol).toBe(PROTOCOL);
    const dto = body.dtos.find((d) => d.name === 'ReviewDTO')!;
    expect(dto.key).toBe('productId');
    expect(dto.fields.map((f) => f.name)).toEqual(['id', 'productId', 'rating', 'body', 'stars']);
  });

  it('loads Paged DTO fields through one dto-batch per level, top-N per parent, member resolvers run', async () => {
    await products.federate({ services: { reviews: reviewsRun.address } });
    member.statements.length = 0;
    reviewsRun.requests.length = 0;
    const views = await new ProductResolver().resolve(PRODUCTS.map((p) => new ProductView(p)));
    expect(reviewsRun.requests.filter((r) => r === 'POST /ergraph/dto-batch')).toHaveLength(1);
    expect(member.statements).toHaveLength(1);
    expect(member.statements[0]).toMatch(/cross join lateral \(select .* limit \$\d+/i);
    const rows = reviewRows().filter((r) => r.productId === 5);
    // Default profile `recent`: postedAt DESC with nulls first.
    const recent = [...rows].sort((a, b) => (a.postedAt === null ? -1 : b.postedAt === null ? 1 : b.postedAt - a.postedAt));
    const five = views[4]!;
    expect(five.reviews.map((r) => r.id)).toEqual(recent.slice(0, 2).map((r) => r.id));
    expect(five.reviews[0]!.stars).toBe('*'.repeat(recent[0]!.rating));
    expect(five.summary).toBe(`product-5: ${five.reviews.map((r) => r.stars).join(' ')}`);
  });

  it('keeps member values read-only', async () => {
    const [view] = await new ProductResolver().resolve([new ProductView(PRODUCTS[0]!)]);
    const review = view!.reviews[0]!;
    expect(Object.isFrozen(review)).toBe(true);
    expect(() => {
      (review as { rating: number }).rating = 0;
    }).toThrow(TypeError);
  });

  it('answers bad dto-batch requests with 400 and the reason', async () => {
    const post = (body: unknown) =>
      fetch(`${reviewsRun.address}/ergraph/dto-batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const unknown = await post({ protocol: PROTOCOL, dto: 'Nope', keys: [1] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/unknown DTO "Nope" \(published: ReviewDTO\)/);
    const huge = await post({ protocol: PROTOCOL, dto: 'ReviewDTO', keys: [1], limit: 10_000 });
    expect(huge.status).toBe(400);
    const notJson = await fetch(`${reviewsRun.address}/ergraph/dto-batch`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });
});
