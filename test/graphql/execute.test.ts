import { GraphQLError, GraphQLInt, GraphQLNonNull } from 'graphql';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Context, DefineSubset, Entity, ErDiagram, GraphQLHandler, Loader, model, MutationConfig, QueryConfig, ref,
} from 'ergraph';
import { calls, diagram, Task, TASKS, User, usersById } from './domain.js';

const handler = new GraphQLHandler(diagram);
beforeEach(() => {
  calls.length = 0;
});

describe('execute', () => {
  it('nests results as data[Entity][method] and returns errors: null', async () => {
    const result = await handler.execute('{ User { getAll(limit: 2) { id name email } } }');
    expect(result).toEqual({
      data: { User: { getAll: [{ id: 1, name: 'user1', email: 'u1@x.io' }, { id: 2, name: 'user2', email: null }] } },
      errors: null,
    });
  });

  it('applies defaults, variables and operationName; passes this = entity class and the context', async () => {
    const doc = `query A($role: Role) { User { whoami(role: $role) } } query B { User { getAll { id } } }`;
    const a = await handler.execute(doc, { operationName: 'A', variables: { role: 'ADMIN' }, context: { user: 'ada' } });
    expect(a).toEqual({ data: { User: { whoami: 'User:ada:ADMIN' } }, errors: null });
    const b = await handler.execute(doc, { operationName: 'B' });
    expect((b.data!.User as { getAll: unknown[] }).getAll).toHaveLength(20); // limit default 20
    expect((await handler.execute('{ User { whoami } }')).data).toEqual({ User: { whoami: 'User:anonymous:-' } });
  });

  it('parses args with zod before the method runs: bad args are a GraphQL error with the issues, at the field', async () => {
    const result = await handler.execute('{ User { ok: byId(id: 1) { id } bad: search(q: "u") { id } } }');
    expect(result.data).toEqual({ User: { ok: { id: 1 }, bad: null } });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({
      path: ['User', 'bad'],
      locations: [{ line: 1, column: 33 }],
      extensions: { code: 'BAD_USER_INPUT', issues: [{ path: ['q'], code: 'too_small' }] },
    });
    expect(result.errors![0]!.message).toMatch(/^Invalid arguments for User.search: q: /);
    // a non-null method field that fails nulls its group, and the non-null group nulls data
    const nonNull = await handler.execute('{ User { getAll(offset: -1) { id } } }');
    expect(nonNull.data).toBeNull();
    expect(nonNull.errors![0]).toMatchObject({ path: ['User', 'getAll'], extensions: { code: 'BAD_USER_INPUT' } });
    // null for an argument with a default means the default
    expect(((await handler.execute('{ User { getAll(limit: null) { id } } }')).data!.User as { getAll: unknown[] }).getAll).toHaveLength(20);
  });

  it('reports a method that throws at its path and keeps the rest of the data', async () => {
    const logged: Array<[unknown, string]> = [];
    const quiet = new GraphQLHandler(diagram, { onError: (error, id) => logged.push([error, id]) });
    const result = await quiet.execute('{ User { broken { id } byId(id: 3) { name } } }');
    expect(result.data).toEqual({ User: { broken: null, byId: { name: 'user3' } } });
    // The method's text goes to the server's log under an id; the client gets only the id (issue 13.4).
    const [[error, id]] = logged as [[Error, string]];
    expect(error.message).toBe('database is down');
    expect(result.errors).toEqual([
      {
        message: `Internal server error (error id ${id})`,
        locations: [{ line: 1, column: 10 }],
        path: ['User', 'broken'],
        extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: id },
      },
    ]);
  });

  it('reports syntax errors with locations and data: null', async () => {
    const result = await handler.execute('{ User { getAll { id }');
    expect(result.data).toBeNull();
    expect(result.errors![0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error/), locations: [{ line: 1, column: 23 }] });
  });

  it('supports aliases, fragments, inline fragments, @skip/@include and __typename', async () => {
    const doc = `query($skip: Boolean!) {
      __typename
      User { __typename first: byId(id: 1) { ...U } second: byId(id: 2) { ... on User { name @skip(if: $skip) id } } }
    }
    fragment U on User { id name @include(if: $skip) }`;
    const result = await handler.execute(doc, { variables: { skip: true } });
    expect(result).toEqual({
      data: { __typename: 'Query', User: { __typename: 'UserQuery', first: { id: 1, name: 'user1' }, second: { id: 2 } } },
      errors: null,
    });
  });
});

describe('errors of the grouped shape (spec 7)', () => {
  it('a bare group → BARE_GROUP_FIELD listing the available methods', async () => {
    const result = await handler.execute('{ User }');
    expect(result.data).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({
      path: ['User'],
      locations: [{ line: 1, column: 3 }],
      extensions: { code: 'BARE_GROUP_FIELD', available_methods: ['getAll', 'byId', 'whoami', 'search', 'broken'] },
    });
    expect(result.errors![0]!.message).toContain('getAll, byId, whoami, search, broken');
    const mutation = await handler.execute('mutation { Task }');
    expect(mutation.errors![0]).toMatchObject({ path: ['Task'], extensions: { code: 'BARE_GROUP_FIELD', available_methods: ['create'] } });
  });

  it('an unknown group → path [E], an unknown method → path [E, m], with UNKNOWN_QUERY / UNKNOWN_MUTATION', async () => {
    const group = await handler.execute('{ Nope { x } }');
    expect(group.errors).toEqual([
      expect.objectContaining({ path: ['Nope'], extensions: expect.objectContaining({ code: 'UNKNOWN_QUERY' }) }),
    ]);
    const method = await handler.execute('{ User { nope { id } } }');
    expect(method.errors).toEqual([
      expect.objectContaining({
        path: ['User', 'nope'],
        extensions: { code: 'UNKNOWN_QUERY', available_methods: ['getAll', 'byId', 'whoami', 'search', 'broken'] },
      }),
    ]);
    const inFragment = await handler.execute('mutation { Task { ...M } } fragment M on TaskMutation { remove { id } }');
    expect(inFragment.errors).toEqual([
      expect.objectContaining({ path: ['Task', 'remove'], extensions: { code: 'UNKNOWN_MUTATION', available_methods: ['create'] } }),
    ]);
    expect((await handler.execute('mutation { User { x } }')).errors![0]).toMatchObject({ path: ['User'], extensions: { code: 'UNKNOWN_MUTATION' } });
  });

  it('keeps the other validation errors of graphql-js', async () => {
    const result = await handler.execute('{ User { getAll { id nope } } }');
    expect(result.errors!.map((e) => e.message)).toEqual(['Cannot query field "nope" on type "User". Did you mean "name"?']);
  });
});

describe('mutations', () => {
  it('run one after another in document order, also several inside one group', async () => {
    const order: string[] = [];
    class Counter extends model({ n: z.int(), label: z.string() }) {}
    let value = 0;
    const step = (name: string, delay: number) =>
      new MutationConfig({
        name,
        args: { by: z.int() },
        returns: () => Counter,
        method: async ({ by }: { by: number }) => {
          order.push(`start ${name}`);
          await new Promise((r) => setTimeout(r, delay));
          value += by;
          order.push(`end ${name}`);
          return new Counter({ n: value, label: name });
        },
      });
    class Other extends model({ id: z.int() }) {}
    const h = new GraphQLHandler(
      new ErDiagram({
        entities: [
          new Entity({ kls: Counter, mutations: [step('slow', 20), step('fast', 1)] }),
          new Entity({ kls: Other, mutations: [new MutationConfig({ name: 'ping', returns: z.int(), method: async () => (order.push('ping'), value) })] }),
        ],
      }),
    );
    const result = await h.execute('mutation { Counter { a: slow(by: 1) { n } b: fast(by: 10) { n } c: slow(by: 100) { n label } } Other { ping } }');
    expect(result).toEqual({
      data: { Counter: { a: { n: 1 }, b: { n: 11 }, c: { n: 111, label: 'slow' } }, Other: { ping: 111 } },
      errors: null,
    });
    expect(order).toEqual(['start slow', 'end slow', 'start fast', 'end fast', 'start slow', 'end slow', 'ping']);
  });

  it('a failure that nulls data stops the methods after it (nothing runs that the response does not show)', async () => {
    const before = TASKS.length;
    const result = await handler.execute('mutation { Task { bad: create(title: "", ownerId: 1) { id } good: create(title: "x", ownerId: 2) { title owner { name } } } }');
    expect(result.data).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({ path: ['Task', 'bad'], extensions: { code: 'BAD_USER_INPUT' } });
    expect(TASKS.length).toBe(before); // `good` never ran
  });

  // A contribution's `mutationFields` are root fields outside any group: the same order and stop, on both executors.
  it.each(['compiled', 'graphql-js'] as const)('root fields a contribution adds outside the groups run in order too, and one that nulls data stops the rest (%s)', async (executor) => {
    const ran: string[] = [];
    const h = new GraphQLHandler(diagram, { executor });
    h.extendSchema([
      {
        mutationFields: () => ({
          note: {
            type: GraphQLInt,
            args: { n: { type: GraphQLInt } },
            resolve: async (_source: unknown, { n }: { n: number }) => {
              ran.push(`start ${n}`);
              await Promise.resolve();
              ran.push(`end ${n}`);
              return n;
            },
          },
          refuse: {
            type: new GraphQLNonNull(GraphQLInt),
            resolve: () => {
              ran.push('refuse');
              throw new GraphQLError('refused');
            },
          },
        }),
      },
    ]);
    expect(await h.execute('mutation { a: note(n: 1) b: note(n: 2) }')).toEqual({ data: { a: 1, b: 2 }, errors: null });
    expect(ran.splice(0)).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    const stopped = await h.execute('mutation { a: note(n: 1) refuse b: note(n: 2) }');
    expect(stopped).toMatchObject({ data: null, errors: [{ message: 'refused', path: ['refuse'] }] });
    expect(ran).toEqual(['start 1', 'end 1', 'refuse']); // `b` never ran
  });
});

describe('results', () => {
  class Plain extends model({ id: z.int(), label: z.string().default('none') }) {}
  const source = { id: 7, get label() { return 'from a getter'; } };
  const make = (enableFromAttributeInTypeAdapter: boolean) =>
    new GraphQLHandler(
      new ErDiagram({
        entities: [
          new Entity({
            kls: Plain,
            queries: [
              new QueryConfig({ name: 'one', returns: () => Plain, method: async () => source }),
              new QueryConfig({ name: 'bare', returns: () => ref(() => Plain).nullable(), method: async () => ({ id: 8 }) }),
              new QueryConfig({ name: 'kind', returns: z.string(), method: async function (this: unknown) { return (this as Function).name; } }),
            ],
          }),
        ],
      }),
      { enableFromAttributeInTypeAdapter },
    );

  it('enableFromAttributeInTypeAdapter converts other objects into the declared model', async () => {
    const h = make(true);
    expect(await h.execute('{ Plain { one { id label } kind } }')).toEqual({ data: { Plain: { one: { id: 7, label: 'from a getter' }, kind: 'Plain' } }, errors: null });
    // converted: the model's default fills the label the plain object lacks
    expect(await h.execute('{ Plain { bare { id label } } }')).toEqual({ data: { Plain: { bare: { id: 8, label: 'none' } } }, errors: null });
  });

  it('without it, results are used as returned', async () => {
    const h = make(false);
    expect((await h.execute('{ Plain { one { id label } } }')).data).toEqual({ Plain: { one: { id: 7, label: 'from a getter' } } });
    const bare = await h.execute('{ Plain { bare { id label } } }');
    expect(bare.data).toEqual({ Plain: { bare: null } });
    expect(bare.errors).toEqual([expect.objectContaining({ message: 'Cannot return null for non-nullable field Plain.label.', path: ['Plain', 'bare', 'label'] })]);
  });

  it('resolves response models (resolveX / postX / AutoLoad) with the same loader pool', async () => {
    class UserCard extends DefineSubset(User, ['id', 'name'], {
      greeting: z.string().default(''),
      reviewer: z.string().default(''),
    }) {
      resolveReviewer(loader = Loader(usersById)) {
        return loader.load(((this.id as number) % 300) + 1).then((u) => u?.name ?? '');
      }
      postGreeting(ctx = Context<{ lang: string }>()) {
        return `${ctx.lang}:${this.name}`;
      }
    }
    class TaskCard extends DefineSubset(Task, ['id', 'title'], { owner: ref(() => UserCard).nullable() }) {}
    const cards = new GraphQLHandler(
      new ErDiagram({
        entities: [
          ...diagram.entities,
          new Entity({
            kls: class Board extends model({ id: z.int() }) {},
            queries: [
              new QueryConfig({
                name: 'cards',
                returns: () => [TaskCard],
                method: async () => TASKS.slice(0, 4).map((t) => new TaskCard(new Task(t))),
              }),
            ],
          }),
        ],
      }),
    );
    const result = await cards.execute('{ Board { cards { title owner { name greeting reviewer } } } }', { context: { lang: 'en' } });
    expect(result.errors).toBeNull();
    expect((result.data!.Board as { cards: unknown[] }).cards[3]).toEqual({ title: 't2.0', owner: { name: 'user2', greeting: 'en:user2', reviewer: 'user3' } });
    // owner (1,2) then reviewer (2,3): the second call only asks for the key not cached by the first
    expect(calls).toEqual(['usersById(2)', 'usersById(1)']);
  });
});
