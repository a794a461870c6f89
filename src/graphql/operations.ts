/**
 * The grouped roots (spec 4.2): `Query.<Entity>: <Entity>Query!` and
 * `Mutation.<Entity>: <Entity>Mutation!`, one field per operation inside each group. Arguments
 * are parsed with zod before the method runs; the method gets `this` = the entity class, the
 * parsed args and the request context.
 */
import { GraphQLError, GraphQLNonNull, GraphQLObjectType, type GraphQLFieldConfig, type GraphQLFieldConfigMap } from 'graphql';
import { z } from 'zod';
import type { EntityInfo } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import type { Operation, OperationKind } from '../er/operations.js';
import { describeField, type FieldInfo } from '../er/schema.js';
import { argumentsFor, toZodInput } from './input.js';
import { cacheableShape, complete } from './args-cache.js';
import { nativeExtensions } from './native.js';
import { groupTypeName, upperFirst, type GroupSuffix } from './names.js';
import { outputTypeFor } from './output.js';
import type { TypeRegistry } from './registry.js';
import { countValues, levelOf, needsResolve, resolveModels, type Run } from './run.js';

/** What one root field of the grouped schema stands for; validation and MCP read it. */
export interface GroupInfo {
  entity: string;
  kind: OperationKind;
  typeName: string;
  methods: string[];
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const suffixOf = (kind: OperationKind): GroupSuffix => (kind === 'query' ? 'Query' : 'Mutation');

/**
 * The value of a group field: it carries no data. Mutation methods, also several inside one
 * group, run one after another with their whole selections: both executors see to that
 * (compiled.ts natively, serial.ts for graphql-js).
 */
const GROUP = Object.freeze({});

/** Extra fields of one entity's group, contributed from outside (federation's batch roots). */
export type GroupFieldsContribution = (
  entity: EntityInfo,
  kind: OperationKind,
  types: TypeRegistry,
) => GraphQLFieldConfigMap<unknown, Run> | undefined;

/** Root fields for every entity with operations of `kind`, plus what each group holds. */
export function groupFields(
  types: TypeRegistry,
  kind: OperationKind,
  contributed: readonly GroupFieldsContribution[] = [],
): { fields: GraphQLFieldConfigMap<unknown, Run>; groups: Map<string, GroupInfo> } {
  const fields: GraphQLFieldConfigMap<unknown, Run> = {};
  const groups = new Map<string, GroupInfo>();
  for (const entity of types.diagram.entityInfos().values()) {
    const operations = kind === 'query' ? entity.queries : entity.mutations;
    const extra: GraphQLFieldConfigMap<unknown, Run> = {};
    for (const contribute of contributed) {
      for (const [name, field] of Object.entries(contribute(entity, kind, types) ?? {})) {
        if (name in extra || operations.some((op) => op.name === name)) {
          throw new ConfigError(`${entity.name}: the ${kind} '${name}' is declared twice (a method and a contributed field)`);
        }
        extra[name] = field;
      }
    }
    if (!operations.length && !Object.keys(extra).length) continue;
    const typeName = groupTypeName(entity.name, suffixOf(kind));
    types.claim(typeName, `the ${kind} group of entity ${entity.name}`);
    const groupType = new GraphQLObjectType<unknown, Run>({
      name: typeName,
      description: `${upperFirst(kind)} methods of ${entity.name}`,
      fields: () => ({
        ...Object.fromEntries(operations.map((op) => [op.name, operationField(types, entity, op)])),
        ...extra,
      }),
    });
    for (const op of operations) checkOperationName(entity, op);
    fields[entity.name] = {
      type: new GraphQLNonNull(groupType),
      description: entity.kls.schema.description,
      extensions: nativeExtensions({ kind: 'group', mutation: kind === 'mutation' }),
      resolve: () => GROUP,
    };
    groups.set(entity.name, {
      entity: entity.name,
      kind,
      typeName,
      methods: [...operations.map((op) => op.name), ...Object.keys(extra)],
    });
  }
  return { fields, groups };
}

function checkOperationName(entity: EntityInfo, op: Operation) {
  const where = `${entity.name}.${op.methodName}`;
  if (op.name.startsWith('__')) throw new ConfigError(`${where}: '${op.name}' is reserved (names starting with __ belong to GraphQL)`);
  if (!NAME.test(op.name)) throw new ConfigError(`${where}: '${op.name}' is not a valid GraphQL field name`);
}

function operationField(types: TypeRegistry, entity: EntityInfo, op: Operation): GraphQLFieldConfig<unknown, Run> {
  const where = `${entity.name}.${op.name}`;
  const returns = describeField(op.returns());
  const argsSchema = z.object(op.args);
  // Parsed arguments by the plan's literal argument object (see args-cache.ts), when the shape allows.
  const kept = cacheableShape(op.args) ? new WeakMap<object, Record<string, unknown>>() : undefined;
  const parseArgs = (rawArgs: Record<string, unknown>, stable: boolean | undefined): Record<string, unknown> => {
    const hit = stable ? kept?.get(rawArgs) : undefined;
    if (hit) return { ...hit };
    const input = toZodInput(op.args, rawArgs);
    const parsed = argsSchema.safeParse(input);
    if (!parsed.success) throw invalidArguments(where, parsed.error);
    if (stable && kept && complete(op.args, input)) kept.set(rawArgs, { ...parsed.data });
    return parsed.data;
  };
  const invoke = async (rawArgs: Record<string, unknown>, run: Run, stable?: boolean) => {
    run.budget.check(); // a spent budget starts no method
    const args = parseArgs(rawArgs, stable);
    const value = adapt(returns, await op.fn.call(entity.kls, args, run.context, run.pool.info), run.fromAttributes);
    if (needsResolve(run, value)) await resolveModels(run, value);
    return value;
  };
  return {
    type: outputTypeFor(types, returns, where),
    description: op.description,
    deprecationReason: op.deprecationReason,
    args: argumentsFor(types, op.args, where, entity.name + upperFirst(op.name)),
    extensions: nativeExtensions({ kind: 'operation', invoke }),
    resolve(_group, rawArgs, run, info) {
      const counted = invoke(rawArgs, run).then((value) => {
        run.budget.count(countValues([value])); // graphql-js mode: the budget sees what methods return
        return value;
      });
      return run.levels.track(levelOf(run, info.path), counted);
    },
  };
}

function invalidArguments(where: string, error: z.ZodError): GraphQLError {
  const detail = error.issues.map((issue) => `${issue.path.join('.') || '(args)'}: ${issue.message}`).join('; ');
  return new GraphQLError(`Invalid arguments for ${where}: ${detail}`, {
    extensions: { code: 'BAD_USER_INPUT', issues: error.issues.map(({ path, message, code }) => ({ path, message, code })) },
  });
}

/** With `enableFromAttributeInTypeAdapter`, read other objects into the declared model. */
function adapt(returns: FieldInfo, value: unknown, fromAttributes: boolean): unknown {
  if (!fromAttributes || !returns.model || value === null || value === undefined) return value;
  const kls = returns.model() as unknown as new (data: unknown) => unknown;
  const one = (item: unknown) => (item !== null && typeof item === 'object' && !(item instanceof kls) ? new kls(item) : item);
  return returns.list && Array.isArray(value) ? value.map(one) : one(value);
}
