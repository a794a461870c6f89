// Deprecation inside v6 (issue 16.2): @query/@mutation/QueryConfig/MutationConfig, model fields
// (zod `.meta({ deprecated, deprecationReason })`), relationships and arguments reach the SDL and
// introspection, and deprecated things keep working.
import { buildClientSchema, getIntrospectionQuery, graphql, type IntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, describeField, Entity, ErDiagram, GraphQLHandler, model, query, ref, SchemaBuilder } from 'ergraph';
import { Base, calls, externalDiagram } from './deprecated-domain.js';

describe('deprecation in the v6 schema', () => {
  const handler = new GraphQLHandler(Base.getDiagram());
  const sdl = new SchemaBuilder(Base.getDiagram()).buildSchema();

  it('prints @deprecated for methods, model fields, relationships and arguments', () => {
    expect(sdl).toContain('byName(name: String!, exact: Boolean @deprecated(reason: "Always exact now")): User! @deprecated(reason: "Use User.getAll")');
    expect(sdl).toContain('retire(id: Int!): Boolean! @deprecated(reason: "Use Task.archive")');
    expect(sdl).toContain('fullName: String! @deprecated(reason: "Use name")');
    expect(sdl).toContain('legacyCode: String @deprecated'); // `deprecated: true` alone: GraphQL's default reason
    expect(sdl).toContain('todo: [Task!]! @deprecated(reason: "Use tasks")');
    expect(sdl).toMatch(/\n  getAll: \[User!\]!\n/); // nothing else is
    expect(sdl).toMatch(/\n  tasks: \[Task!\]!\n/);
  });

  it('paginated relationships carry it too', () => {
    const paged = new SchemaBuilder(Base.getDiagram(), { enablePagination: true }).buildSchema();
    expect(paged).toContain('): TaskResult! @deprecated(reason: "Use tasks")');
    expect(paged.match(/@deprecated\(reason: "Use tasks"\)/g)).toHaveLength(1); // `tasks` itself is not
  });

  it('introspection reports isDeprecated and the reason', async () => {
    const result = await graphql({ schema: handler.schema, source: getIntrospectionQuery({ inputValueDeprecation: true }) });
    const client = buildClientSchema(result.data as unknown as IntrospectionQuery);
    const byName = (client.getType('UserQuery') as any).getFields().byName;
    expect(byName.deprecationReason).toBe('Use User.getAll');
    expect(byName.args.find((a: any) => a.name === 'exact').deprecationReason).toBe('Always exact now');
    const user = (client.getType('User') as any).getFields();
    expect([user.fullName.deprecationReason, user.legacyCode.deprecationReason, user.todo.deprecationReason, user.name.deprecationReason]).toEqual([
      'Use name', 'No longer supported', 'Use tasks', null,
    ]);
    const types = (result.data as any).__schema.types;
    const fields = types.find((t: any) => t.name === 'User').fields;
    expect(fields.find((f: any) => f.name === 'fullName')).toMatchObject({ isDeprecated: true, deprecationReason: 'Use name' });
  });

  it('deprecated methods and fields still run', async () => {
    const before = calls.byName;
    const res = await handler.execute('{ User { byName(name: "ann", exact: true) { fullName legacyCode todo { title } } } }');
    expect(res).toEqual({ data: { User: { byName: { fullName: 'Ann A.', legacyCode: 'A1', todo: [{ title: 'write' }, { title: 'read' }] } } }, errors: null });
    expect(calls.byName).toBe(before + 1);
    const m = await handler.execute('mutation { User { retire(id: 1) } }');
    expect(m).toEqual({ data: { User: { retire: true } }, errors: null });
  });

  it('QueryConfig and MutationConfig take deprecationReason', () => {
    const external = new SchemaBuilder(externalDiagram()).buildSchema();
    expect(external).toContain('oldest: [Note!]! @deprecated(reason: "Use Note.all")');
    expect(external).toMatch(/\n  all: \[Note!\]!\n/);
    expect(external).toContain('wipe: Boolean! @deprecated(reason: "Never wipe")');
  });

  it('a wrapper outside the metadata keeps it: .meta(...).nullable(), .optional().meta(...)', () => {
    expect(describeField(z.string().meta({ deprecated: true, deprecationReason: 'inner' }).nullable()).deprecationReason).toBe('inner');
    expect(describeField(z.string().optional().meta({ deprecated: true, deprecationReason: 'outer' })).deprecationReason).toBe('outer');
    expect(describeField(z.string().meta({ description: 'just described' })).deprecationReason).toBeUndefined();
  });

  it('refuses what GraphQL cannot say, with one clear error', () => {
    expect(() =>
      query({ returns: z.string(), deprecationReason: '  ' })(async function m() { return ''; }, { kind: 'method', static: true, name: 'm' } as never),
    ).toThrow(/deprecationReason must be a non-empty string/);
    class Thing extends model({ id: z.int() }) {
      @query({ args: { id: z.int().meta({ deprecated: true }) }, returns: z.int() })
      static async get({ id }: { id: number }) { return id; }
    }
    expect(() => new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Thing, name: 'Thing' })] }))).toThrow(ConfigError);
    expect(() => new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Thing, name: 'Thing' })] }))).toThrow(/Required argument .* cannot be deprecated/);
  });

  it('a model read as input keeps working when a required field of it is deprecated', () => {
    class Point extends model({ x: z.int(), y: z.int().meta({ deprecated: true, deprecationReason: 'Use x' }), z: z.int().optional().meta({ deprecated: true }) }) {}
    class Plot extends model({ id: z.int() }) {
      @query({ args: { at: ref(() => Point) }, returns: () => Point })
      static async at({ at }: { at: Point }) { return new Point(at); }
    }
    const sdl2 = new SchemaBuilder(new ErDiagram({ entities: [new Entity({ kls: Plot, name: 'Plot' })] })).buildSchema();
    expect(sdl2).toContain('y: Int! @deprecated(reason: "Use x")'); // output type
    expect(sdl2).toMatch(/input \w+ \{\n  x: Int!\n  y: Int!\n  z: Int @deprecated\n\}/); // input: only the optional one
  });
});
