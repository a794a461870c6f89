/**
 * The compiled executor answers exactly as graphql-js does (data, error messages, paths and
 * locations), on documents chosen for the corners: null propagation through lists, errors in
 * leaves, @skip/@include switching with variables on one cached document, merged fields,
 * introspection (run on graphql-js), bad variables and operation names.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parse, versionInfo } from 'graphql';
import { Entity, ErDiagram, GraphQLHandler, model, QueryConfig, ref, Relationship } from 'ergraph';
import { PreparedDocument } from '../../src/graphql/engine.js';
import type { CompiledOperation } from '../../src/graphql/plan.js';
import { coerceVariables } from '../../src/graphql/versions.js';
import { calls, diagram } from './domain.js';

class Item extends model({ id: z.int(), label: z.string() }) {}
class Box extends model({ id: z.int(), name: z.string().nullable() }) {}
const boxes = [1, 2, 3].map((id) => new Box({ id, name: id === 2 ? null : `box${id}` }));
const corners = new ErDiagram({
  entities: [
    new Entity({
      kls: Box,
      relationships: [
        new Relationship({
          fk: 'id',
          target: () => [Item],
          name: 'items',
          // box 3's second item has no label: a null in a non-null leaf inside [Item!]!
          loader: async (ids: readonly number[]) =>
            ids.map((id) => [1, 2].map((n) => Object.assign(new Item({ id: id * 10 + n, label: 'x' }), id === 3 && n === 2 ? { label: null } : {}))),
        }),
        new Relationship({ fk: 'id', target: () => Item, name: 'broken', loader: async (ids: readonly number[]) => ids.map((id) => (id === 1 ? new Error('item store offline') : null)) }),
      ],
      queries: [
        new QueryConfig({ name: 'all', returns: z.array(ref(() => Box)), method: async () => boxes }),
        new QueryConfig({ name: 'maybe', returns: z.array(ref(() => Box)).nullable(), method: async () => boxes }),
        new QueryConfig({ name: 'names', returns: z.array(z.string()), method: async () => ['a', null as unknown as string, 'c'] }),
      ],
    }),
    new Entity({ kls: Item }),
  ],
});

// Objects the executor builds in generated code unless a value needs more (builders.ts): rows
// with a method, a promise, a value the scalar refuses, a null in a non-null leaf.
class Odd extends model({ id: z.int(), label: z.string(), note: z.string().nullable() }) {}
const oddRows: unknown[] = [
  { id: 1, label: 'plain', note: null },
  { id: 2, label: () => 'from a method', note: 'n' },
  { id: 3, label: Promise.resolve('from a promise'), note: null },
  { id: 'three', label: 'bad id', note: null },
  { id: 5, label: null, note: null },
  { id: 6, label: 'last', note: 'n' },
];
const odd = new ErDiagram({
  entities: [
    new Entity({
      kls: Odd,
      queries: [
        new QueryConfig({ name: 'rows', returns: z.array(ref(() => Odd).nullable()), method: async () => oddRows as Odd[] }),
        new QueryConfig({ name: 'one', args: { at: z.int() }, returns: ref(() => Odd).nullable(), method: async ({ at }: { at: number }) => oddRows[at] as Odd }),
      ],
    }),
  ],
});

// Rows whose builder leaves a field (a nested object) that fails at once: a null in its non-null
// leaf must null the row (a nullable item) or the whole list (a non-null one), after the rows
// before it were built (the list's builder runs over the rows first; compiled-values.ts `rest`).
class Inner extends model({ x: z.string() }) {}
class Nest extends model({ id: z.int(), inner: ref(() => Inner) }) {}
const nestRows: unknown[] = [1, 2, 3].map((id) => ({ id, inner: { x: id === 2 ? null : `x${id}` } }));
const nested = new ErDiagram({
  entities: [
    new Entity({ kls: Inner }),
    new Entity({
      kls: Nest,
      queries: [
        new QueryConfig({ name: 'rows', returns: z.array(ref(() => Nest).nullable()), method: async () => nestRows as Nest[] }),
        new QueryConfig({ name: 'strict', returns: z.array(ref(() => Nest)).nullable(), method: async () => nestRows as Nest[] }),
      ],
    }),
  ],
});

const pair = (d: ErDiagram) => [new GraphQLHandler(d, { executor: 'compiled' }), new GraphQLHandler(d, { executor: 'graphql-js' })] as const;

async function agree(handlers: readonly [GraphQLHandler, GraphQLHandler], query: string, variables?: Record<string, unknown>, operationName?: string) {
  const [compiled, reference] = handlers;
  const a = await compiled.execute(query, { variables, operationName });
  const b = await reference.execute(query, { variables, operationName });
  // Masked errors carry a fresh id each; everything else must be equal.
  const sameIds = (r: unknown) => JSON.parse(JSON.stringify(r).replace(/\b[0-9a-f]{8}\b/g, 'ID'));
  expect(sameIds(a)).toEqual(sameIds(b));
  return a;
}

describe('compiled executor agrees with graphql-js', () => {
  const c = pair(corners);
  const d = pair(diagram);

  it('null in a non-null leaf inside a non-null list nulls the nearest nullable ancestor', async () => {
    const result = await agree(c, '{ Box { all { id items { id label } } } }');
    expect(result.data).toBeNull(); // all: [Box!]! has nowhere to stop but data
    expect(result.errors).toHaveLength(1);
    // Once data is null the compiled executor stops: graphql-js also reports errors of sibling
    // fields it kept running (here `maybe`'s), the compiled one never runs them.
    const both = await c[0].execute('{ Box { all { items { label } } maybe { items { label } } } }');
    expect(both).toMatchObject({ data: null, errors: [{ path: ['Box', 'all', 2, 'items', 1, 'label'] }] });
    const nullable = await agree(c, '{ Box { maybe { id items { label } } } }');
    expect(nullable.data).toEqual({ Box: { maybe: null } });
    expect(nullable.errors).toEqual([
      { message: 'Cannot return null for non-nullable field Item.label.', locations: [{ line: 1, column: 28 }], path: ['Box', 'maybe', 2, 'items', 1, 'label'] },
    ]);
  });

  it('a loader error nulls its field; a nullable leaf stays null without error; lists of leaves', async () => {
    const result = await agree(c, '{ Box { all { id name broken { id } } } }');
    expect(result.data).toEqual({ Box: { all: [{ id: 1, name: 'box1', broken: null }, { id: 2, name: null, broken: null }, { id: 3, name: 'box3', broken: null }] } });
    // A loader's own failure reaches the client masked (its text goes to the server's log).
    expect(result.errors).toMatchObject([{ message: expect.stringMatching(/^Internal server error \(error id /), path: ['Box', 'all', 0, 'broken'] }]);
    const names = await agree(c, '{ Box { names } }');
    expect(names.errors).toMatchObject([{ message: 'Cannot return null for non-nullable field BoxQuery.names.', path: ['Box', 'names', 1] }]);
  });

  it('@skip/@include on variables: one cached document, a plan per combination', async () => {
    const query = `query($a: Boolean!, $b: Boolean = false) { User { byId(id: 4) { id
      name @include(if: $a) ...F @skip(if: $b) tasks @include(if: $b) { id } } } }
      fragment F on User { email tasks { title } }`;
    for (const [a, b] of [[true, false], [false, true], [true, true], [false, false], [true, false]] as const) {
      const result = await agree(d, query, { a, b });
      expect(Object.keys((result.data!.User as { byId: object }).byId).sort()).toEqual(
        ['id', ...(a ? ['name'] : []), ...(b ? ['tasks'] : ['email', 'tasks'])].sort(),
      );
    }
  });

  it('keeps at most 16 plans per operation, dropping the oldest (docs/graphql.md)', () => {
    // Five condition variables: 32 combinations. The 17th drops the first, which compiles anew.
    const names = ['a', 'b', 'c', 'd', 'e'];
    const document = parse(`query(${names.map((n) => `$${n}: Boolean!`).join(', ')}) { User { ${names.map((n) => `${n}: byId(id: 1) @include(if: $${n}) { id }`).join(' ')} } }`);
    let charged = 0;
    const prepared = new PreparedDocument(document, () => charged++);
    const op = prepared.operation(undefined) as CompiledOperation;
    const schema = new GraphQLHandler(diagram).schema;
    const plan = (combination: number) => {
      const coerced = coerceVariables(schema, op.operation.variableDefinitions, Object.fromEntries(names.map((n, bit) => [n, ((combination >> bit) & 1) === 1])));
      if (coerced.errors) throw coerced.errors[0];
      return prepared.plan(schema, op, coerced.variables);
    };
    const first = plan(0);
    for (let i = 1; i < 16; i++) plan(i);
    expect([op.plans.size, charged]).toEqual([16, 15]); // the document charged for each plan past its first
    expect(plan(0)).toBe(first);
    const sixteenth = plan(15);
    plan(16);
    expect([op.plans.size, charged]).toEqual([16, 15]); // one in, one out: nothing more to charge
    expect(plan(15)).toBe(sixteenth);
    expect(plan(0)).not.toBe(first); // the oldest went
    expect(op.plans.size).toBe(16);
  });

  it('merged fields, aliases, __typename at every level, and sub-selections merged across fragments', async () => {
    calls.length = 0;
    const result = await agree(
      d,
      `{ __typename User { __typename x: byId(id: 2) { __typename id tasks { id } ...T } byId(id: 3) { id } } }
       fragment T on User { tasks { title owner { __typename name } } }`,
    );
    expect((result.data!.User as any).x.tasks[0]).toEqual({ id: 20, title: 't2.0', owner: { __typename: 'User', name: 'user2' } });
  });

  it('introspection, bad variables, unknown operations and several operations', async () => {
    const intro = await agree(d, '{ __schema { queryType { name } } User { byId(id: 1) { name } } }');
    expect(intro.data).toEqual({ __schema: { queryType: { name: 'Query' } }, User: { byId: { name: 'user1' } } });
    const bad = await agree(d, 'query($n: Int!) { User { getAll(limit: $n) { id } } }', { n: 'many' });
    expect(bad.data).toBeNull();
    // graphql 16 and 17 word the coercion error differently; both name the variable and the value.
    expect(bad.errors![0]!.message).toMatch(versionInfo.major >= 17 ? /^Variable "\$n" has invalid value: .*"many"/ : /^Variable "\$n" got invalid value "many"/);
    await agree(d, 'query A { User { byId(id: 1) { id } } } query B { User { byId(id: 2) { id } } }');
    await agree(d, 'query A { User { byId(id: 1) { id } } }', undefined, 'C');
    const b = await agree(d, 'query A { User { byId(id: 1) { id } } } query B { User { byId(id: 2) { id } } }', undefined, 'B');
    expect(b.data).toEqual({ User: { byId: { id: 2 } } });
  });

  it('objects built in generated code fall back to field-by-field completion where a value needs it', async () => {
    const o = pair(odd);
    const all = await agree(o, '{ Odd { rows { __typename id label note } } }');
    expect(all.data).toEqual({
      Odd: {
        rows: [
          { __typename: 'Odd', id: 1, label: 'plain', note: null },
          { __typename: 'Odd', id: 2, label: 'from a method', note: 'n' },
          { __typename: 'Odd', id: 3, label: 'from a promise', note: null },
          null,
          null,
          { __typename: 'Odd', id: 6, label: 'last', note: 'n' },
        ],
      },
    });
    expect(all.errors!.map((e) => [e.message, e.path])).toEqual([
      ['Int cannot represent non-integer value: "three"', ['Odd', 'rows', 3, 'id']],
      ['Cannot return null for non-nullable field Odd.label.', ['Odd', 'rows', 4, 'label']],
    ]);
    for (const at of [0, 1, 2, 3, 4]) await agree(o, `{ Odd { one(at: ${at}) { id label } } }`);
    const keys = await agree(o, '{ Odd { one(at: 0) { b: label a: id __typename } } }');
    expect(Object.keys((keys.data!.Odd as { one: object }).one)).toEqual(['b', 'a', '__typename']);
    // Where code may not be generated (zod's jitless, a CSP), the same answers field by field.
    z.config({ jitless: true });
    try {
      const jitless = await new GraphQLHandler(odd, { executor: 'compiled' }).execute('{ Odd { rows { __typename id label note } } }');
      expect(jitless).toEqual(all);
    } finally {
      z.config({ jitless: false });
    }
  });

  it('a row whose left-over field fails at once is nulled, or its whole non-null list', async () => {
    const n = pair(nested);
    const rows = await agree(n, '{ Nest { rows { id inner { x } } } }');
    expect(rows.data).toEqual({ Nest: { rows: [{ id: 1, inner: { x: 'x1' } }, null, { id: 3, inner: { x: 'x3' } }] } });
    expect(rows.errors!.map((e) => e.path)).toEqual([['Nest', 'rows', 1, 'inner', 'x']]);
    const strict = await agree(n, '{ Nest { strict { id inner { x } } } }');
    expect(strict.data).toEqual({ Nest: { strict: null } });
    expect(strict.errors!.map((e) => e.path)).toEqual([['Nest', 'strict', 1, 'inner', 'x']]);
  });

  it('argument errors from variables, method errors and zod errors', async () => {
    const result = await agree(d, 'query($q: String!) { User { search(q: $q) { id } broken { id } } }', { q: 'x' });
    expect(result.data).toEqual({ User: { search: null, broken: null } });
    expect(result.errors!.map((e) => e.path)).toEqual([['User', 'search'], ['User', 'broken']]);
  });
});
