import { describe, expect, it } from 'vitest';
import { buildSchema, graphql, printSchema, printType, validateSchema, getIntrospectionQuery, type GraphQLNamedType } from 'graphql';
import { z } from 'zod';
import {
  ConfigError, DefineSubset, Entity, ErDiagram, GraphQLHandler, model, MutationConfig, QueryConfig, ref, Relationship,
  SchemaBuilder, groupTypeName,
} from 'ergraph';
import { diagram } from './domain.js';

/** One type of a schema, printed; `expected` is whitespace-normalised the same way. */
const typeOf = (sdl: string, name: string) => printType(buildSchema(sdl).getType(name) as GraphQLNamedType);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('schema shape (spec 4.2)', () => {
  const sdl = new SchemaBuilder(diagram).buildSchema();
  const schema = buildSchema(sdl);

  it('has one non-null group field per entity with operations, typed <Entity>Query! / <Entity>Mutation!', () => {
    expect(squash(typeOf(sdl, 'Query'))).toBe('type Query { User: UserQuery! Task: TaskQuery! }');
    expect(sdl).toMatch(/type Mutation \{\n  Task: TaskMutation!\n\}/);
    expect(schema.getQueryType()!.getFields().Comment).toBeUndefined(); // Comment has no operations
    expect(groupTypeName('User', 'Query')).toBe('UserQuery');
  });

  it('names methods verbatim, keeps descriptions, maps args (defaults, optional, enums, lists)', () => {
    const userQuery = schema.getType('UserQuery')!.toString();
    expect(userQuery).toBe('UserQuery');
    expect(sdl).toContain('"""All users"""\n  getAll(limit: Int = 20, offset: Int): [User!]!');
    expect(sdl).toContain('byId(id: Int!): User\n');
    expect(sdl).toContain('whoami(role: Role): String!');
    expect(sdl).toContain('enum Role {\n  ADMIN\n  MEMBER\n}');
    expect(sdl).toContain('byIds(ids: [Int!]!): [Task!]!');
    expect(sdl).toContain('"""Create a task"""\n  create(title: String!, ownerId: Int!): Task!');
    expect(sdl).not.toContain('context');
  });

  it('gives entity types their scalar fields and one field per relationship', () => {
    expect(squash(typeOf(sdl, 'Task'))).toBe(
      'type Task { id: Int! ownerId: Int! reviewerId: Int! title: String! done: Boolean! owner: User reviewer: User comments: [Comment!]! }',
    );
    expect(sdl).toContain('email: String\n'); // nullable field
  });

  it('handler.schema passes validateSchema and prints the same SDL', () => {
    const handler = new GraphQLHandler(diagram);
    expect(validateSchema(handler.schema)).toEqual([]);
    expect(printSchema(handler.schema)).toBe(sdl);
  });
});

describe('types from zod', () => {
  class Address extends model({ city: z.string(), zip: z.string().optional() }) {}
  const Status = z.enum(['OPEN', 'DONE']).meta({ id: 'Status' });
  class Event extends model({
    id: z.int(),
    at: z.date(),
    score: z.number(),
    status: Status,
    tags: z.array(z.string()).default([]),
    notes: z.array(z.string().nullable()),
  }) {}
  class EventView extends DefineSubset(Event, ['id', 'at'], { label: z.string() }) {}
  const entities = [
    new Entity({
      kls: Event,
      queries: [
        new QueryConfig({ name: 'view', method: async () => [], returns: () => [EventView] }),
        new QueryConfig({
          name: 'search',
          method: async () => [],
          args: {
            after: z.date().optional(),
            status: Status.default('OPEN'),
            where: z.object({ city: z.string(), near: z.array(z.number()).optional() }),
            address: ref(() => Address).optional(),
          },
          returns: z.array(ref(() => Event)),
        }),
      ],
      mutations: [new MutationConfig({ name: 'touch', method: async () => true, returns: z.boolean() })],
    }),
  ];
  const sdl = new SchemaBuilder(new ErDiagram({ entities })).buildSchema();

  it('maps int/float/string/boolean/date/enum/lists and non-entity models (subsets) to object types', () => {
    expect(squash(typeOf(sdl, 'Event'))).toBe(
      'type Event { id: Int! at: DateTime! score: Float! status: Status! tags: [String!]! notes: [String]! }',
    );
    expect(squash(typeOf(sdl, 'EventView'))).toBe('type EventView { id: Int! at: DateTime! label: String! }');
    expect(sdl).toContain('scalar DateTime');
    expect(sdl).toContain('view: [EventView!]!');
  });

  it('turns nested objects and models into input types and defaults into default values', () => {
    expect(sdl).toContain('search(after: DateTime, status: Status = OPEN, where: EventSearchWhereInput!, address: AddressInput): [Event!]!');
    expect(squash(typeOf(sdl, 'EventSearchWhereInput'))).toBe('input EventSearchWhereInput { city: String! near: [Float!] }');
    expect(squash(typeOf(sdl, 'AddressInput'))).toBe('input AddressInput { city: String! zip: String }');
  });
});

describe('no query methods', () => {
  class Counter extends model({ n: z.int() }) {}
  const only = new ErDiagram({
    entities: [new Entity({ kls: Counter, mutations: [new MutationConfig({ name: 'bump', method: async () => new Counter({ n: 1 }), returns: () => Counter })] })],
  });

  it('omits the Query type; introspection reports queryType: null and still works', async () => {
    const sdl = new SchemaBuilder(only).buildSchema();
    expect(sdl).not.toContain('type Query');
    const handler = new GraphQLHandler(only);
    // graphql-js would report "Query root type must be provided."; the schema is validated
    // without that one rule at build time and marked valid.
    expect(validateSchema(handler.schema)).toEqual([]);
    expect(handler.schema.getQueryType()).toBeUndefined();
    const result = await handler.execute('{ __schema { queryType { name } mutationType { name } } }');
    expect(result).toEqual({ data: { __schema: { queryType: null, mutationType: { name: 'Mutation' } } }, errors: null });
    const full = await handler.execute(getIntrospectionQuery());
    expect(full.errors).toBeNull();
    expect(await handler.execute('mutation { Counter { bump { n } } }')).toEqual({ data: { Counter: { bump: { n: 1 } } }, errors: null });
  });

  it('answers a query operation with an UNKNOWN_QUERY error', async () => {
    const result = await new GraphQLHandler(only).execute('{ Counter { bump { n } } }');
    expect(result.data).toBeNull();
    expect(result.errors![0]).toMatchObject({ path: ['Counter'], extensions: { code: 'UNKNOWN_QUERY' } });
  });

  it('can be compared with graphql-js on the introspection result', async () => {
    const handler = new GraphQLHandler(only);
    const viaGraphql = await graphql({ schema: handler.schema, source: '{ __type(name: "Counter") { fields { name } } }' });
    expect(viaGraphql).toEqual({ data: { __type: { fields: [{ name: 'n' }] } } });
  });
});

describe('configuration errors at construction', () => {
  const make = (entities: Entity[]) => () => new GraphQLHandler(new ErDiagram({ entities }));
  const q = (name: string, returns: unknown = z.string(), args = {}) =>
    new QueryConfig({ name, method: async () => '', returns: returns as z.ZodType, args });

  it('rejects duplicate methods', () => {
    class A extends model({ id: z.int() }) {}
    expect(make([new Entity({ kls: A, queries: [q('x'), q('x')] })])).toThrow(/A declares the query 'x' twice/);
  });

  it('rejects reserved names', () => {
    class Query extends model({ id: z.int() }) {}
    expect(make([new Entity({ kls: Query, queries: [q('x')] })])).toThrow(ConfigError);
    expect(make([new Entity({ kls: Query, queries: [q('x')] })])).toThrow(/Query uses a reserved GraphQL type name/);
    class Subscription extends model({ id: z.int() }) {}
    expect(make([new Entity({ kls: Subscription })])).toThrow(/reserved/);
    class B extends model({ id: z.int() }) {}
    expect(make([new Entity({ kls: B, queries: [q('__secret')] })])).toThrow(/B.__secret: '__secret' is reserved/);
  });

  it('rejects a group type colliding with an entity', () => {
    class User extends model({ id: z.int() }) {}
    class UserQuery extends model({ id: z.int() }) {}
    expect(make([new Entity({ kls: User, queries: [q('all')] }), new Entity({ kls: UserQuery })])).toThrow(
      /GraphQL type name UserQuery is used twice: by the entity class UserQuery and by the query group of entity User/,
    );
  });

  it('rejects unsupported zod types, naming the entity and field', () => {
    class C extends model({ id: z.int(), blob: z.instanceof(Uint8Array) }) {}
    expect(make([new Entity({ kls: C, queries: [q('all', z.array(ref(() => C)))] })])).toThrow(/C\.blob: zod type 'custom' has no GraphQL equivalent/);
    class D extends model({ id: z.int() }) {}
    expect(make([new Entity({ kls: D, queries: [q('find', z.string(), { filter: z.map(z.string(), z.string()) })] })])).toThrow(/D\.find\(filter\): zod type 'map'/);
  });

  it('rejects unnamed and clashing enums', () => {
    class E extends model({ id: z.int(), kind: z.enum(['A', 'B']) }) {}
    expect(make([new Entity({ kls: E })])).toThrow(/E\.kind: a zod enum needs a GraphQL name; declare it with \.meta\(\{ id: 'EnumName' \}\)/);
    class F extends model({ id: z.int(), kind: z.enum(['A', 'B']).meta({ id: 'Kind' }), other: z.enum(['C']).meta({ id: 'Kind' }) }) {}
    expect(make([new Entity({ kls: F })])).toThrow(/F\.other: enum Kind is declared twice with different values/);
  });

  it('rejects a relationship with only a page loader when pagination is off', () => {
    class P extends model({ id: z.int() }) {}
    class K extends model({ id: z.int(), pId: z.int() }) {}
    const rel = new Relationship({ fk: 'id', target: [K], name: 'kids', pageLoader: async () => [] });
    const entities = [new Entity({ kls: P, relationships: [rel] }), new Entity({ kls: K })];
    expect(make(entities)).toThrow(/P\.kids has only a pageLoader; give it a loader or enable pagination/);
    expect(() => new GraphQLHandler(new ErDiagram({ entities }), { enablePagination: true })).not.toThrow();
  });
});
