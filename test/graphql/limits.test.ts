/**
 * Operation limits (issue 13.1), per handler: what each counts, that they are configurable and
 * can be turned off, and that the cost estimate follows page sizes, variables and fragments —
 * in time linear in the document, even for fragments that would expand exponentially.
 */
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GraphQLHandler, DEFAULT_LIMITS } from 'ergraph';
import { calls, diagram } from './domain.js';

const paged = new GraphQLHandler(diagram, { enablePagination: true });
const codes = (r: { errors: readonly { extensions?: Record<string, unknown> }[] | null }) => (r.errors ?? []).map((e) => e.extensions?.code);

/** `levels` rounds of tasks(limit: n) → owner, on the paginated handler. */
const cyclic = (levels: number, n: number | string = 100) => {
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `tasks(limit: ${n}) { items { owner { ${inner} } } }`;
  return `{ User { getAll(limit: 100) { ${inner} } } }`;
};

describe('cost: fields resolved, lists multiplied by their page sizes', () => {
  it('refuses before any loader runs, naming what it found', async () => {
    const before = calls.length;
    const result = await paged.execute(cyclic(2));
    expect(codes(result)).toEqual(['COST_LIMIT_EXCEEDED']);
    // inner tasks page: 1 + (items 1 + 100 × (owner 1 + id 1)) = 202; outer item: owner 1 + 202;
    // outer page: 1 + (1 + 100 × 203) = 20_302; getAll: 1 + 100 × 20_302; the group: + 1
    expect(result.errors![0].extensions).toMatchObject({ limit: 'cost', max: DEFAULT_LIMITS.cost, found: 2_030_202 });
    expect(calls.length).toBe(before);
  });

  it("uses a relationship's default page size when no limit is given and caps a limit at maxPageSize", async () => {
    const omitted = await paged.execute('{ User { getAll(limit: 300) { tasks { items { owner { tasks { items { id } } } } } } } }');
    // defaultPageSize 20 at both levels: inner page 1 + (1 + 20 × 1) = 22; outer page
    // 1 + (1 + 20 × (1 + 22)) = 462; getAll 1 + 300 × 462; the group + 1
    expect(omitted.errors![0].extensions!.found).toBe(138_602);
    const capped = await paged.execute(cyclic(2, 1_000_000));
    expect(capped.errors![0].extensions!.found).toBe(2_030_202); // as with 100, the max page size
  });

  it('reads sizes from variables (and their defaults), per request', async () => {
    const query = 'query($n: Int = 100) { User { getAll(limit: 100) { tasks(limit: $n) { items { owner { tasks(limit: $n) { items { id } } } } } } } }';
    expect(codes(await paged.execute(query))).toEqual(['COST_LIMIT_EXCEEDED']);
    expect(codes(await paged.execute(query, { variables: { n: 100 } }))).toEqual(['COST_LIMIT_EXCEEDED']);
    const small = await paged.execute(query, { variables: { n: 2 } });
    expect(small.errors).toBeNull();
  });

  it('a root method multiplies by its limit argument', async () => {
    const h = new GraphQLHandler(diagram, { enablePagination: true, limits: { cost: 1000 } });
    expect((await h.execute('{ User { getAll(limit: 300) { id name email } } }')).errors).toBeNull(); // 1 + 1 + 300 × 3
    expect((await h.execute('{ User { getAll(limit: 400) { id name email } } }')).errors![0].extensions).toMatchObject({ found: 1202 });
  });

  it('fragments spread twice per level are costed without an exponential walk', async () => {
    const levels = 25;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i === levels - 1 ? `fragment F${i} on User { id }` : `fragment F${i} on User { ...F${i + 1} a${i}: name ...F${i + 1} }`,
    ).join('\n');
    // Each read of a fragment's selections is counted (validation's and the estimate's): a walk of
    // every spread would read F24's 2^24 times; past levels² reads the getter throws, so such a
    // walk fails at once instead of running for minutes.
    const document = parse(`{ User { getAll(limit: 1) { ...F0 } } } ${fragments}`);
    let reads = 0;
    for (const def of document.definitions) {
      if (def.kind !== Kind.FRAGMENT_DEFINITION) continue;
      const selections = def.selectionSet;
      Object.defineProperty(def, 'selectionSet', {
        enumerable: true,
        get: () => {
          if (++reads > levels * levels) throw new Error(`fragment selections read ${reads} times: the walk is not linear`);
          return selections;
        },
      });
    }
    const result = await new GraphQLHandler(diagram, { limits: { depth: false, aliases: false, tokens: false, complexity: false } }).execute(document);
    // 2^24 spreads of F24 each resolving id: the estimate sees it without walking it
    expect(result.errors).toMatchObject([{ extensions: { code: 'COST_LIMIT_EXCEEDED', found: 2 ** 25 + 1 } }]);
  });
});

describe('configurable per handler', () => {
  it('each limit can be set or turned off', async () => {
    const deep = '{ Task { byIds(ids: [1]) { owner { tasks { owner { tasks { owner { id } } } } } } } }';
    expect(codes(await new GraphQLHandler(diagram, { limits: { depth: 4 } }).execute(deep))).toEqual(['DEPTH_LIMIT_EXCEEDED']);
    expect((await new GraphQLHandler(diagram, { limits: { depth: false } }).execute(deep)).errors).toBeNull();

    const aliased = '{ User { a: byId(id: 1) { id } b: byId(id: 2) { id } c: byId(id: 3) { id } } }';
    expect(codes(await new GraphQLHandler(diagram, { limits: { aliases: 2 } }).execute(aliased))).toEqual(['ALIAS_LIMIT_EXCEEDED']);
    expect((await paged.execute(aliased)).errors).toBeNull();

    const tokens = new GraphQLHandler(diagram, { limits: { tokens: 10 } });
    expect(codes(await tokens.execute('{ User { byId(id: 1) { id name email } } }'))).toEqual(['TOKEN_LIMIT_EXCEEDED']);

    expect((await new GraphQLHandler(diagram, { enablePagination: true, limits: { cost: false } }).prepare(cyclic(2)))).toHaveProperty('document');
  });

  it('a per-call override keeps the keys it leaves out (the compat layer turns off only what it checked)', async () => {
    const h = new GraphQLHandler(diagram, { enablePagination: true, limits: { depth: 3 } });
    const deep = '{ User { getAll(limit: 1) { tasks { items { id } } } } }';
    expect(codes(await h.execute(deep))).toEqual(['DEPTH_LIMIT_EXCEEDED']);
    expect((await h.execute(deep, { limits: { depth: false } })).errors).toBeNull();
    expect(codes(await h.execute(cyclic(2), { limits: { depth: false } }))).toEqual(['COST_LIMIT_EXCEEDED']);
  });
});
