import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL } from 'ergraph/federation';
import { productsHandler, reviewRows, reviewsService, startChain, USERS, type Running } from './services.js';

let usersRun: Running;
let reviewsRun: Running;
let reviews: Awaited<ReturnType<typeof reviewsService>>;
let products: ReturnType<typeof productsHandler>;

let chain: Awaited<ReturnType<typeof startChain>>;

beforeAll(async () => {
  chain = await startChain();
  ({ usersRun, reviewsRun, reviews, products } = chain);
});

afterAll(async () => {
  await chain?.close();
});

const rows = reviewRows();

describe('member', () => {
  it('serves by_<key>_in in the entity group, reading only the selected columns', async () => {
    reviews.statements.length = 0;
    const result = await reviews.handler.execute('{ Review { by_productId_in(values: [2, 1, 999]) { id productId } } }');
    expect(result.errors).toBeNull();
    expect(reviews.statements).toHaveLength(1);
    expect(reviews.statements[0]).toMatch(/^select "(id|product_id)", "(id|product_id)" from "reviews"/);
    const got = (result.data!.Review as { by_productId_in: { id: number; productId: number }[] }).by_productId_in;
    expect(got.map((r) => r.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('pages per key in one SQL statement, in input order, total_count only when selected', async () => {
    reviews.statements.length = 0;
    const result = await reviews.handler.execute(
      '{ Review { page_by_productId_in(productId_list: [3, 1, 999], limit: 2) { productId items { id postedAt } pagination { has_more } } } }',
    );
    expect(result.errors).toBeNull();
    expect(reviews.statements).toHaveLength(1);
    expect(reviews.statements[0]).toMatch(/cross join lateral \(select .* limit \$\d+/i);
    expect(reviews.statements[0]).not.toMatch(/count\(/i);
    // only the selected fields (and the key) are read: neither body nor rating
    expect(reviews.statements[0]).not.toMatch(/"body"|"rating"/);
    const pages = (result.data!.Review as { page_by_productId_in: { productId: number; items: { id: number; postedAt: number | null }[]; pagination: { has_more: boolean } }[] })
      .page_by_productId_in;
    expect(pages.map((p) => p.productId)).toEqual([3, 1, 999]);
    // Default profile `recent`: postedAt DESC, nulls first (PostgreSQL's placement for DESC).
    expect(pages[0]!.items.map((r) => r.id)).toEqual([8, 9]);
    expect(pages[0]!.pagination.has_more).toBe(true);
    expect(pages[2]).toEqual({ productId: 999, items: [], pagination: { has_more: false } });
  });

  it('direction flips the profile into the strict reverse (nulls placement too)', async () => {
    const query = (direction: string) =>
      `{ Review { page_by_productId_in(productId_list: [1], direction: ${direction}, limit: 10) { items { id } pagination { total_count } } } }`;
    const desc = await reviews.handler.execute(query('DESC'));
    const asc = await reviews.handler.execute(query('ASC'));
    const ids = (r: typeof desc) => (r.data!.Review as { page_by_productId_in: { items: { id: number }[] }[] }).page_by_productId_in[0]!.items.map((i) => i.id);
    expect(ids(desc)).toEqual([2, 3, 1]);
    expect(ids(asc)).toEqual([1, 3, 2]);
    expect((asc.data!.Review as { page_by_productId_in: { pagination: { total_count: number } }[] }).page_by_productId_in[0]!.pagination.total_count).toBe(3);
  });

  it('publishes its ER graph with keys, order profiles and what it mounted', async () => {
    const body = (await (await fetch(`${reviewsRun.address}/ergraph/er-introspection`)).json()) as {
      protocol: string;
      service: string;
      entities: { name: string; service: string; keys: { field: string; root: string; pageRoot: string | null }[]; fields: { name: string; type: string }[]; orders: unknown; relationships: { name: string; service: string | null }[] }[];
    };
    expect(body.protocol).toBe(PROTOCOL);
    expect(body.service).toBe('reviews');
    const review = body.entities.find((e) => e.name === 'Review')!;
    expect(review.keys).toEqual([
      { field: 'productId', type: 'Int', root: 'by_productId_in', pageRoot: 'page_by_productId_in' },
      { field: 'userId', type: 'Int', root: 'by_userId_in', pageRoot: 'page_by_userId_in' },
    ]);
    expect(review.fields).toContainEqual({ name: 'postedAt', type: 'Int' });
    expect(review.orders).toEqual({
      default: 'recent',
      enum: 'ReviewOrder',
      profiles: [
        { name: 'recent', column: 'postedAt', direction: 'DESC', nulls: 'FIRST' },
        { name: 'best', column: 'rating', direction: 'DESC', nulls: 'FIRST' },
      ],
    });
    expect(review.relationships).toContainEqual({ name: 'author', target: 'User', list: false, paginated: false, service: 'users' });
    expect(body.entities.find((e) => e.name === 'User')?.service).toBe('users');
  });
});

describe('mounter', () => {
  it('serves remote fields with one member request per level for 200 parents', async () => {
    reviewsRun.requests.length = 0;
    usersRun.requests.length = 0;
    const result = await products.execute('{ Product { getAll { id name reviews { id rating by: author { name } } } } }');
    expect(result.errors).toBeNull();
    const list = (result.data!.Product as { getAll: { id: number; reviews: { id: number; rating: number; by: { name: string } }[] }[] }).getAll;
    expect(list).toHaveLength(200);
    const expected = rows.filter((r) => r.productId === 7).map((r) => r.id);
    expect(list[6]!.reviews.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected);
    const someReview = list[6]!.reviews[0]!;
    const row = rows.find((r) => r.id === someReview.id)!;
    expect(someReview.by.name).toBe(USERS.find((u) => u.id === row.userId)!.name);
    // One request to reviews for the level; reviews asks users once for its own level.
    expect(reviewsRun.requests.filter((r) => r === 'POST /graphql')).toHaveLength(1);
    expect(usersRun.requests.filter((r) => r === 'POST /graphql')).toHaveLength(1);
  });

  it('pages remote lists per parent with order, direction and partial pagination', async () => {
    reviewsRun.requests.length = 0;
    const result = await products.execute(
      `query($n: Int) { Product { getAll(limit: 3) { id
          first: reviewPage(limit: $n, order: best) { items { id rating } pagination { more: has_more total_count } }
          rev: reviewPage(limit: 1, direction: ASC) { items { id } }
      } } }`,
      { variables: { n: 2 } },
    );
    expect(result.errors).toBeNull();
    const list = (result.data!.Product as { getAll: { id: number; first: { items: { id: number; rating: number }[]; pagination: { more: boolean; total_count: number } }; rev: { items: { id: number }[] } }[] }).getAll;
    const best = rows.filter((r) => r.productId === 1).sort((a, b) => b.rating - a.rating || b.id - a.id);
    expect(list[0]!.first.items.map((i) => i.id)).toEqual(best.slice(0, 2).map((r) => r.id));
    expect(list[0]!.first.pagination).toEqual({ more: true, total_count: 3 });
    expect(list[0]!.rev.items.map((i) => i.id)).toEqual([1]);
    // Both remote fields of the level travel in one request.
    expect(reviewsRun.requests.filter((r) => r === 'POST /graphql')).toHaveLength(1);
  });

  it('exposes remote types under bare names in one flat schema', () => {
    const review = products.schema.getType('Review');
    expect(review).toBeDefined();
    expect(products.schema.getType('User')).toBeDefined();
    expect(products.schema.getType('reviews_Review')).toBeUndefined();
  });

  it('rejects bad page arguments at the mounter with a clear error', async () => {
    const result = await products.execute('{ Product { getAll(limit: 1) { id reviewPage(limit: -1) { items { id } } } } }');
    expect(result.errors?.[0]?.message).toMatch(/limit must be a non-negative integer/);
    expect(result.data).not.toBeNull();
  });
});
