import { describe, expect, it } from 'vitest';
import { buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, validate, parse } from 'graphql';
import { z } from 'zod';
import { ErDiagram, Entity, GraphQLHandler, model, MutationConfig } from 'ergraph';
import { CompatConfigError, createCompatHandler } from 'ergraph/compat';
import { HAND_WRITTEN, INVALID, generateCorpus, type CorpusCase } from './corpus.js';
import { V5_SDL, createDomain, createV5Handler, createV6Handler } from './helpers.js';

/** Run one case against the v5 oracle and the compat layer over v6, each on fresh data. */
async function both(c: CorpusCase) {
  const v5Domain = createDomain();
  const v6Domain = createDomain();
  const v5 = createV5Handler(v5Domain);
  const compat = createCompatHandler(createV6Handler(v6Domain));
  const opts = { variables: c.variables, operationName: c.operationName };
  const expected = await v5.execute(c.query, opts);
  const actual = await compat.execute(c.query, opts);
  return { expected, actual, v5Log: v5Domain.log, v6Log: v6Domain.log };
}

describe('createCompatHandler: the v5 schema', () => {
  it('is the schema v5 generated, field for field', () => {
    const compat = createCompatHandler(createV6Handler());
    expect(printSchema(lexicographicSortSchema(compat.schema))).toBe(printSchema(lexicographicSortSchema(buildSchema(V5_SDL))));
  });

  it('lists root fields in v5 order and answers the full introspection query like v5', async () => {
    const compat = createCompatHandler(createV6Handler());
    const v5 = createV5Handler();
    const query = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });
    const sortTypes = (r: { data: Record<string, unknown> | null }) => {
      const schema = (r.data as { __schema: { types: Array<{ name: string }> } }).__schema;
      return { ...schema, types: [...schema.types].sort((a, b) => a.name.localeCompare(b.name)) };
    };
    const [a, e] = [await compat.execute(query), await v5.execute(query)];
    expect(a.errors).toBeNull();
    expect(sortTypes(a)).toEqual(sortTypes(e));
    expect(Object.keys(compat.schema.getQueryType()!.getFields())).toEqual(
      Object.keys(buildSchema(V5_SDL).getQueryType()!.getFields()),
    );
  });

  it('refuses a v6 schema where two methods share one v5 name, naming both', () => {
    const schema = buildSchema(`
      type Query { User: UserQuery! }
      type UserQuery { get_all: [Int!]! getAll: [Int!]! }`);
    expect(() => createCompatHandler({ schema, execute: async () => ({ data: null, errors: null }) })).toThrow(
      new CompatConfigError(
        'the v6 query methods cannot be served under v5 flat names, several map to one name: userGetAll ← User.get_all, User.getAll',
      ),
    );
  });

  it('serves a v6 schema with mutations only', async () => {
    const schema = buildSchema(`
      type Query { _unused: Int }
      type Mutation { Job: JobMutation! }
      type JobMutation { run_now: Int! }`);
    const compat = createCompatHandler({
      schema,
      execute: async (q) => ({ data: q.includes('run_now') ? { Job: { jobRunNow: 1 } } : null, errors: null }),
    });
    expect(Object.keys(compat.schema.getMutationType()!.getFields())).toEqual(['jobRunNow']);
    expect(await compat.execute('mutation { jobRunNow }')).toEqual({ data: { jobRunNow: 1 }, errors: null });
  });
});

describe('createCompatHandler: returns exactly what v5 returned', () => {
  for (const c of [...HAND_WRITTEN, ...INVALID]) {
    it(c.name, async () => {
      const { expected, actual, v5Log, v6Log } = await both(c);
      expect(actual).toEqual(expected);
      // Root keys in the order v5 wrote them, not grouped by entity.
      expect(JSON.stringify(actual.data)).toBe(JSON.stringify(expected.data));
      expect(v6Log).toEqual(v5Log);
    });
  }

  it('generated documents', async () => {
    const corpus = generateCorpus(150);
    const v5Schema = buildSchema(V5_SDL);
    for (const c of corpus) expect(validate(v5Schema, parse(c.query)), c.query).toEqual([]);
    for (const c of corpus) {
      const { expected, actual } = await both(c);
      expect(actual, c.query).toEqual(expected);
    }
  });

  it('has test cases with errors, with variables and with fragments on Query', () => {
    const all = [...HAND_WRITTEN, ...generateCorpus(150)];
    expect(all.filter((c) => c.query.includes('on Query')).length).toBeGreaterThan(20);
    expect(all.filter((c) => c.query.includes('$')).length).toBeGreaterThan(40);
  });
});

describe('createCompatHandler: execution', () => {
  it('runs one v6 execution per request, with the grouped document cached per text', async () => {
    const v6 = createV6Handler();
    const seen: string[] = [];
    const compat = createCompatHandler({ schema: v6.schema, execute: (q, o) => (seen.push(q), v6.execute(q, o)) });
    const query = '{ a: userById(id: 1) { name } taskById(id: 2) { title } b: userGetAll(limit: 1) { id } }';
    await compat.execute(query);
    await compat.execute(query);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toBe(
      '{\n  User {\n    a: byId(id: 1) {\n      name\n    }\n  }\n  Task {\n    taskById: byId(id: 2) {\n      title\n    }\n  }\n  User {\n    b: getAll(limit: 1) {\n      id\n    }\n  }\n}',
    );
  });

  it('skips the v6 engine for introspection-only requests', async () => {
    const v6 = createV6Handler();
    let calls = 0;
    const compat = createCompatHandler({ schema: v6.schema, execute: (q, o) => (calls++, v6.execute(q, o)) });
    expect(await compat.execute('{ __typename }')).toEqual({ data: { __typename: 'Query' }, errors: null });
    expect(calls).toBe(0);
  });

  it('gives mutation groups their own alias when an entity recurs, to keep document order', async () => {
    const v6 = createV6Handler();
    const seen: string[] = [];
    const compat = createCompatHandler({ schema: v6.schema, execute: (q, o) => (seen.push(q), v6.execute(q, o)) });
    await compat.execute('mutation { a: taskComplete(id: 1) { id } b: userRename(id: 1, name: "x") { id } c: taskComplete(id: 2) { id } }');
    expect(seen[0]).toMatch(/^mutation \{\n  Task \{[^]*\n  User \{[^]*\n  Task_2: Task \{/);
  });

  it('passes the context through to v6 resolvers', async () => {
    const domain = createDomain();
    let received: unknown;
    domain.methods.query.User!.byId = (_args, ctx) => ((received = ctx), null);
    const compat = createCompatHandler(createV6Handler(domain));
    await compat.execute('{ userById(id: 1) { id } }', { context: { user: 'ada' } });
    expect(received).toEqual({ user: 'ada' });
  });

  it('counts use per field and per client', async () => {
    const compat = createCompatHandler(createV6Handler());
    await compat.execute('{ userById(id: 1) { id } a: userById(id: 2) { id } }', { client: 'web' });
    await compat.execute('{ userById(id: 1) { id } taskById(id: 1) { id } }', { client: 'ios' });
    await compat.execute('{ __typename }');
    await compat.execute('mutation { taskComplete(id: 1) { id } }', { client: 'web' });
    const report = await compat.report();
    const field = (c: string) => report.fields.find((f) => f.coordinate === c)!;
    expect(field('Query.userById')).toMatchObject({ replacement: 'User.byId', usage: '{ User { byId } }', count: 2 });
    expect(field('Query.userById').clients.map((c) => [c.client, c.count]).sort()).toEqual([['ios', 1], ['web', 1]]);
    expect(field('Query.taskById')).toMatchObject({ count: 1, clients: [{ client: 'ios', count: 1 }] });
    expect(field('Mutation.taskComplete')).toMatchObject({ replacement: 'Task.complete', count: 1 });
    // Every served flat field is listed, used or not.
    expect(field('Query.userGetAll')).toMatchObject({ count: 0, lastUsed: null });
    expect(report.clients.map((c) => [c.client, c.count])).toEqual([['ios', 2], ['web', 2]]);
  });

  it('names the v6 replacement of every flat field an operation used', async () => {
    const compat = createCompatHandler(createV6Handler());
    const { deprecations } = await compat.executeWithDeprecations(
      'query A { userGetAll { id } } mutation B { ...M } fragment M on Mutation { taskComplete(id: 1) { id } }',
      { operationName: 'B' },
    );
    expect(deprecations).toEqual([
      { field: 'Mutation.taskComplete', replacement: 'Task.complete', entity: 'Task', method: 'complete', usage: 'mutation { Task { complete } }' },
    ]);
  });

  it('evicts documents beyond cacheSize without changing answers', async () => {
    const compat = createCompatHandler(createV6Handler(), { cacheSize: 2 });
    const queries = ['{ userById(id: 1) { id } }', '{ userById(id: 2) { id } }', '{ userById(id: 3) { id } }'];
    for (let round = 0; round < 2; round++) {
      for (const [i, q] of queries.entries()) {
        expect(await compat.execute(q)).toEqual({ data: { userById: { id: i + 1 } }, errors: null });
      }
    }
  });
});



describe('createCompatHandler over a v6 schema with only mutations (spec 4.2 item 5)', () => {
  class Counter extends model({ n: z.int() }) {}
  const diagram = new ErDiagram({
    entities: [
      new Entity({
        kls: Counter,
        mutations: [new MutationConfig({ name: 'bump', method: async () => new Counter({ n: 1 }), returns: () => Counter })],
      }),
    ],
  });
  const setup = () => {
    const v6 = new GraphQLHandler(diagram);
    return { v6, compat: createCompatHandler(v6) };
  };

  it('has no Query type, like v6, and its introspection still works and reports queryType: null', async () => {
    const { v6, compat } = setup();
    expect(compat.schema.getQueryType()).toBeUndefined();
    expect(printSchema(compat.schema)).not.toMatch(/type Query/);
    const roots = '{ __schema { queryType { name } mutationType { name fields { name } } } }';
    expect(await compat.execute(roots)).toEqual({
      data: { __schema: { queryType: null, mutationType: { name: 'Mutation', fields: [{ name: 'counterBump' }] } } },
      errors: null,
    });
    const full = await compat.execute(getIntrospectionQuery());
    expect(full.errors).toBeNull();
    // The whole introspection agrees with v6's except for the root fields, which are flat.
    const v6Full = await v6.execute(getIntrospectionQuery());
    const named = (r: typeof full) => (r.data as { __schema: { types: { name: string }[] } }).__schema.types.map((t) => t.name).sort();
    expect(named(full)).toEqual(named(v6Full).filter((n) => n !== 'CounterMutation'));
  });

  it('answers { __typename } and __type at the root as v6 does, without calling v6', async () => {
    const { v6, compat } = setup();
    let calls = 0;
    const counted = createCompatHandler({ schema: v6.schema, execute: (q, o) => (calls++, v6.execute(q, o)) });
    for (const query of ['{ __typename }', '{ __type(name: "Counter") { name fields { name } } }', 'query Named { t: __typename }']) {
      const expected = await v6.execute(query);
      expect(expected.errors, query).toBeNull();
      expect(await compat.execute(query), query).toEqual(expected);
      expect(await counted.execute(query)).toEqual(expected);
    }
    expect(calls).toBe(0);
  });

  it('still serves the flat mutations, and a flat query name is a validation error on the rootless Query', async () => {
    const { compat } = setup();
    expect(await compat.execute('mutation { counterBump { n } __typename }')).toEqual({
      data: { counterBump: { n: 1 }, __typename: 'Mutation' },
      errors: null,
    });
    expect(await compat.execute('{ counterBump { n } }')).toEqual({
      data: null,
      errors: [{ message: 'Cannot query field "counterBump" on type "Query".', locations: [{ line: 1, column: 3 }] }],
    });
  });
});
