/**
 * Random ergraph worlds for the differential oracle: entities and plain models with zod fields
 * of every leaf type (built-in scalars, DateTime, BigInt, JSON, an enum), nullable or not, in
 * lists whose items are nullable or not; relationships one-to-one and one-to-many (paginated,
 * sliced from the batch loader or through a page loader), some sharing a loader; query and
 * mutation methods with arguments; and contributed fields with their own resolvers and any
 * wrapping (`[[Int!]]!`), as federation contributes them. One world serves many cases: its
 * loaders, methods and resolvers ask the current case (`state.env`) what to do.
 */
import {
  getNullableType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { z } from 'zod';
import {
  Entity,
  ErDiagram,
  GraphQLBigInt,
  GraphQLDateTime,
  GraphQLHandler,
  GraphQLJSON,
  model,
  MutationConfig,
  QueryConfig,
  ref,
  Relationship,
  type AnyModelClass,
  type Page,
  type PageRequest,
  type Run,
  type SchemaContribution,
} from 'ergraph';
import { objectTypeFor } from '../../../src/graphql/output.js';
import type { Tape } from './random.js';
import { labelOf, thrown, valueOf, type CaseEnv } from './values.js';

/** The case being run: set before each execution (executions never overlap). */
export const state: { env?: CaseEnv } = {};
const env = (): CaseEnv => state.env!;

export const Color = z.enum(['RED', 'GREEN', 'BLUE']).meta({ id: 'Color' });

const LEAVES = ['Int', 'Float', 'String', 'Boolean', 'ID', 'DateTime', 'BigInt', 'JSON', 'Color'] as const;
type Leaf = (typeof LEAVES)[number];
const ZOD: Record<Leaf, () => z.ZodType> = {
  Int: () => z.int(),
  Float: () => z.number(),
  String: () => z.string(),
  Boolean: () => z.boolean(),
  ID: () => z.uuid(),
  DateTime: () => z.date(),
  BigInt: () => z.bigint(),
  JSON: () => z.json(),
  Color: () => Color,
};
const GRAPHQL: Record<Exclude<Leaf, 'Color'>, GraphQLOutputType> = {
  Int: GraphQLInt,
  Float: GraphQLFloat,
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  ID: GraphQLID,
  DateTime: GraphQLDateTime,
  BigInt: GraphQLBigInt,
  JSON: GraphQLJSON,
};

const ENTITY_NAMES = ['User', 'Task', 'HTTPRequest', 'Item2'];
const MODEL_NAMES = ['Address', 'Money'];
// `length`: a property a string or array has too, read where an object is wrong-typed.
const FIELD_NAMES = ['name', 'length', 'score', 'tags', 'createdAt', 'data', 'big', 'color', 'uid', 'flag'];
const REL_NAMES = ['owner', 'items', 'parent', 'children'];
const QUERY_NAMES = ['getAll', 'byId', 'get_by_ID', 'search'];
const MUTATION_NAMES = ['create', 'update_one'];
const EXTRA_NAMES = ['computed', 'extra'];
const ARGS: Record<string, () => z.ZodType> = {
  limit: () => z.int().default(2),
  q: () => z.string().optional(),
  color: () => Color.optional(),
  ids: () => z.array(z.int()),
  n: () => z.int().min(0),
  flag: () => z.boolean().nullable(),
};

export interface World {
  readonly compiled: GraphQLHandler;
  readonly reference: GraphQLHandler;
  readonly schema: GraphQLSchema;
  /** What the world is, for the failure message. */
  readonly summary: string;
}

/** A model field's named type: a leaf, or a model/entity class by name. */
type Named = { leaf: Leaf } | { object: string };

interface Shape {
  named: Named;
  list: boolean;
  itemNullable: boolean;
  nullable: boolean;
}

function shape(tape: Tape, objects: readonly string[]): Shape {
  const named: Named = objects.length && tape.chance(0.25) ? { object: tape.oneOf(objects) } : { leaf: tape.oneOf(LEAVES) };
  return { named, list: tape.chance(0.3), itemNullable: tape.chance(0.3), nullable: tape.chance(0.4) };
}

function zodOf(s: Shape, classes: Map<string, AnyModelClass>): z.ZodType {
  const named = s.named;
  const base: z.ZodType = 'leaf' in named ? ZOD[named.leaf]() : (ref(() => classes.get(named.object)!) as unknown as z.ZodType);
  const item = s.list && s.itemNullable ? base.nullable() : base;
  const whole = s.list ? z.array(item) : item;
  return s.nullable ? whole.nullable() : whole;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const named = <T extends new (...a: any[]) => object>(name: string, cls: T): T => ({ [name]: class extends cls {} })[name] as T;

const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** The GraphQL type of a field of `typeName` in the world's current schema. */
function fieldType(world: { schema?: GraphQLSchema }, typeName: string, field: string): GraphQLOutputType {
  return (world.schema!.getType(typeName) as GraphQLObjectType).getFields()[field]!.type;
}

export function makeWorld(tape: Tape): World {
  const classes = new Map<string, AnyModelClass>();
  const entityNames = ENTITY_NAMES.slice(0, 1 + tape.pick(ENTITY_NAMES.length));
  const modelNames = MODEL_NAMES.slice(0, tape.pick(MODEL_NAMES.length + 1));
  const objects = [...entityNames, ...modelNames];
  const pagination = tape.chance(0.5);
  const lines: string[] = [`pagination: ${pagination}`];
  const holder: { schema?: GraphQLSchema } = {};

  const fieldsOf = (owner: string) => {
    const shapeMap: Record<string, z.ZodType> = {};
    const count = tape.int(1, 4);
    for (let i = 0; i < count; i++) {
      const name = tape.oneOf(FIELD_NAMES);
      if (name in shapeMap) continue;
      const s = shape(tape, objects);
      shapeMap[name] = zodOf(s, classes);
      lines.push(`${owner}.${name}: ${json(s)}`);
    }
    return shapeMap;
  };

  for (const name of modelNames) classes.set(name, named(name, model(fieldsOf(name))));

  const entities: Entity[] = [];
  const loaders: { target: string; list: boolean; fn: (keys: readonly unknown[]) => unknown }[] = [];
  const specs = entityNames.map((name) => {
    const shapeMap: Record<string, z.ZodType> = { id: z.int(), ...fieldsOf(name) };
    const rels: { name: string; target: string; list: boolean; fk: string; paged: boolean; size: number }[] = [];
    const relCount = tape.pick(3);
    for (let i = 0; i < relCount; i++) {
      const relName = tape.oneOf(REL_NAMES);
      if (rels.some((r) => r.name === relName)) continue;
      const list = tape.chance(0.5);
      const fk = tape.chance(0.5) ? 'id' : `ref${i}`;
      if (fk !== 'id') shapeMap[fk] = z.int().nullable();
      rels.push({ name: relName, target: tape.oneOf(entityNames), list, fk, paged: list && tape.chance(0.5), size: tape.int(1, 3) });
    }
    classes.set(name, named(name, model(shapeMap)));
    return { name, rels };
  });

  for (const { name, rels } of specs) {
    const relationships = rels.map((r) => {
      lines.push(`${name}.${r.name} -> ${r.list ? `[${r.target}]` : r.target} by ${r.fk}${r.paged ? ' (page loader)' : ''}`);
      const shared = tape.chance(0.3) ? loaders.find((l) => l.target === r.target && l.list === r.list) : undefined;
      const id = `${name}.${r.name}`;
      const fn = shared?.fn ?? batchLoader(id, holder, r.target, r.list);
      if (!shared) loaders.push({ target: r.target, list: r.list, fn });
      return new Relationship({
        fk: r.fk,
        target: r.list ? () => [classes.get(r.target)!] : () => classes.get(r.target)!,
        name: r.name,
        loader: fn as never,
        defaultPageSize: r.size,
        maxPageSize: r.size + 1,
        ...(r.paged ? { pageLoader: pageLoader(id, holder, r.target) } : {}),
      });
    });
    const operations = (kind: 'query' | 'mutation', names: readonly string[], max: number) => {
      const count = tape.pick(max + 1);
      const made = new Set<string>();
      for (let i = 0; i < count; i++) made.add(tape.oneOf(names));
      return [...made].map((op) => {
        const args: Record<string, z.ZodType> = {};
        const argCount = tape.pick(3);
        for (let i = 0; i < argCount; i++) {
          const arg = tape.oneOf(Object.keys(ARGS));
          args[arg] = ARGS[arg]!();
        }
        const returns = zodOf(shape(tape, objects), classes);
        lines.push(`${name}.${op}(${Object.keys(args).join(', ')}) ${kind}`);
        const Config = kind === 'query' ? QueryConfig : MutationConfig;
        return new Config({ name: op, args, returns, method: method(holder, name, op, kind) });
      });
    };
    // The first entity always has a query: a schema needs a Query type.
    let queries = operations('query', QUERY_NAMES, 2);
    if (!queries.length && name === entityNames[0]) {
      queries = [new QueryConfig({ name: 'getAll', returns: zodOf(shape(tape, objects), classes), method: method(holder, name, 'getAll', 'query') })];
    }
    const mutations = operations('mutation', MUTATION_NAMES, 1);
    entities.push(new Entity({ kls: classes.get(name)!, name, relationships, queries, mutations }));
  }

  const extras = new Map<string, { name: string; named: Named; nonNull: boolean[]; arg: boolean }[]>();
  for (const owner of objects) {
    const list: { name: string; named: Named; nonNull: boolean[]; arg: boolean }[] = [];
    const count = tape.pick(3);
    for (let i = 0; i < count; i++) {
      const name = tape.oneOf(EXTRA_NAMES);
      if (list.some((e) => e.name === name)) continue;
      const depth = tape.pick(3);
      const nonNull = Array.from({ length: depth + 1 }, () => tape.chance(0.5));
      const namedType: Named = tape.chance(0.3) ? { object: tape.oneOf(objects) } : { leaf: tape.oneOf(LEAVES) };
      list.push({ name, named: namedType, nonNull, arg: tape.chance(0.3) });
      lines.push(`${owner}.${name} (resolver): ${json(namedType)} ${json(nonNull)}`);
    }
    if (list.length) extras.set(owner, list);
  }

  const diagram = new ErDiagram({ entities });
  const contribution: SchemaContribution = {
    objectFields: (kls, _entity, types) => {
      const owner = [...classes].find(([, c]) => c === kls)?.[0];
      const list = owner ? extras.get(owner) : undefined;
      if (!owner || !list) return undefined;
      const fields: GraphQLFieldConfigMap<unknown, Run> = {};
      for (const extra of list) {
        const n = extra.named;
        let type: GraphQLOutputType =
          'object' in n ? objectTypeFor(types, classes.get(n.object)!) : n.leaf === 'Color' ? (types.enums.get('Color')?.type ?? GraphQLString) : GRAPHQL[n.leaf];
        for (let level = extra.nonNull.length - 1; level >= 0; level--) {
          if (level < extra.nonNull.length - 1) type = new GraphQLList(type);
          if (extra.nonNull[level]) type = new GraphQLNonNull(getNullableType(type)) as GraphQLOutputType;
        }
        fields[extra.name] = {
          type,
          args: extra.arg ? { k: { type: GraphQLInt } } : {},
          resolve: (parent, args) => resolved(`${owner}.${extra.name}@${labelOf(parent)}(${json(args)})`, holder, owner, extra.name),
        };
      }
      return fields;
    },
  };
  const options = { enablePagination: pagination, onError: () => {}, limits: { timeout: false as const } };
  const compiled = new GraphQLHandler(diagram, { ...options, executor: 'compiled' });
  const reference = new GraphQLHandler(diagram, { ...options, executor: 'graphql-js' });
  compiled.extendSchema([contribution]);
  reference.extendSchema([contribution]);
  holder.schema = compiled.schema;
  return { compiled, reference, schema: compiled.schema, summary: lines.join('\n') };
}

/** A contributed field's resolver: throws, or returns a value (maybe a thenable) of its type. */
function resolved(id: string, world: { schema?: GraphQLSchema }, owner: string, field: string): unknown {
  const e = env();
  if (e.dice.roll(id, 'throws') < e.rate / 2) throw thrown(e, id);
  return valueOf(e, fieldType(world, owner, field), id, 2, 'result');
}

function method(world: { schema?: GraphQLSchema }, entity: string, name: string, kind: 'query' | 'mutation') {
  const group = `${entity}${kind === 'query' ? 'Query' : 'Mutation'}`;
  return (args: Record<string, unknown>) => {
    const e = env();
    const id = `${group}.${name}(${json(args)})`;
    if (kind === 'mutation') e.calls.push(id);
    if (e.dice.roll(id, 'throws') < e.rate / 2) throw thrown(e, id);
    return valueOf(e, fieldType(world, group, name), id, 1, 'result');
  };
}

function batchLoader(id: string, world: { schema?: GraphQLSchema }, target: string, list: boolean) {
  const loader = `loader ${id}`;
  return (keys: readonly unknown[]): unknown => {
    const e = env();
    const mode = e.dice.roll(loader, 'fails') < e.rate / 3 ? e.dice.oneOf(loader, ['throws', 'rejects', 'short', 'notArray'], 'how') : 'ok';
    if (mode === 'throws') throw thrown(e, loader);
    if (mode === 'rejects') return Promise.reject(thrown(e, loader));
    if (mode === 'notArray') return Promise.resolve({ length: 'many' });
    const type: GraphQLOutputType = list ? new GraphQLList(world.schema!.getType(target) as GraphQLObjectType) : (world.schema!.getType(target) as GraphQLObjectType);
    const values = keys.map((key) => valueOf(e, type, `${loader}(${labelOf(key)})`, 1, 'loaded'));
    return Promise.resolve(mode === 'short' ? values.slice(1) : values);
  };
}

function pageLoader(id: string, world: { schema?: GraphQLSchema }, target: string) {
  const loader = `pages ${id}`;
  return async (keys: readonly unknown[], page: PageRequest): Promise<Page[]> => {
    const e = env();
    if (e.dice.roll(loader, 'fails') < e.rate / 3) throw thrown(e, loader);
    const items = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(world.schema!.getType(target) as GraphQLObjectType)));
    return keys.map((key) => {
      const at = `${loader}(${labelOf(key)}, ${page.limit}, ${page.offset}, ${page.withTotal})`;
      if (e.dice.roll(at, 'odd') < e.rate / 2) return e.dice.oneOf(at, [null, 'oops', { items: 5, hasMore: true, total: 1 }], 'odd') as unknown as Page;
      return { items: valueOf(e, items, at, 1, 'settled') as unknown[], hasMore: e.dice.roll(at, 'more') < 0.5, total: page.withTotal ? 7 : null };
    });
  };
}
