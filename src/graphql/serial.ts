/**
 * Serial mutations under graphql-js. graphql-js runs root mutation fields one after another, but
 * the methods inside one group (`mutation { Task { a: markDone(id: 1) { … } b: … } }`) are
 * fields of one object, which it resolves in parallel. So each method runs as a graphql-js
 * execution of its own (its group with that one method), in document order, all on the same
 * run (one loader pool, its caches emptied before each method); the results are merged back
 * into the grouped shape. A method whose
 * failure nulls `data` ends the operation: the methods after it do not run.
 */
import {
  execute,
  getNamedType,
  GraphQLError,
  locatedError,
  isObjectType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { collectFields, fragmentsOf } from './compile.js';
import { nativeOf } from './native.js';
import type { Run } from './run.js';
import { abortable, type Variables } from './versions.js';

type Obj = Record<string, unknown>;

export async function executeSerially(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  run: Run,
  options: { rootValue: unknown; variables?: Record<string, unknown> | null },
  coerced: Variables,
): Promise<ExecutionResult> {
  const rootType = schema.getMutationType();
  if (!rootType) return execute({ schema, document, rootValue: options.rootValue, contextValue: run, variableValues: options.variables, operationName: operation.name?.value, ...abortable(run.budget) });
  const fragments = fragmentsOf(document);
  const fragmentDefinitions = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const one = (selections: readonly FieldNode[]) => {
    run.pool.clearAll(); // each mutation's selection reads what the ones before it wrote
    return execute({
      schema,
      document: {
        kind: Kind.DOCUMENT,
        definitions: [{ ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections } }, ...fragmentDefinitions],
      },
      rootValue: options.rootValue,
      contextValue: run,
      variableValues: options.variables,
      ...abortable(run.budget),
    });
  };

  const data: Obj = {};
  const errors: GraphQLError[] = [];
  const done = (failed: boolean): ExecutionResult => {
    const result: ExecutionResult = { data: failed ? null : data };
    return errors.length ? { ...result, errors } : result;
  };
  // `@skip(if: $v)` with $v null fails where graphql-js collects the fields: the whole operation
  // at the root, the group field inside a group (non-null, so `data` is null either way).
  const collect = (type: GraphQLObjectType, sets: readonly SelectionSetNode[], at?: { nodes: readonly FieldNode[]; key: string }) => {
    try {
      return collectFields(schema, fragments, coerced, type, sets);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      errors.push(at ? locatedError(error, at.nodes, [at.key]) : error);
      return undefined;
    }
  };
  const fields = collect(rootType, [operation.selectionSet]);
  if (!fields) return done(true);
  for (const [key, nodes] of fields) {
    const def = rootType.getFields()[nodes[0]!.name.value];
    const native = def && nativeOf(def);
    const groupType = def && getNamedType(def.type);
    if (native?.kind !== 'group' || !isObjectType(groupType)) {
      const result = await one(nodes);
      // Pushed one by one: a spread passes each error as a call argument, on the stack.
      for (const error of result.errors ?? []) errors.push(error);
      if (!result.data) return done(true);
      data[key] = (result.data as Obj)[key];
      continue;
    }
    const group: Obj = {};
    data[key] = group;
    const sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    const methods = collect(groupType, sets, { nodes, key });
    if (!methods) return done(true);
    for (const [methodKey, methodNodes] of methods) {
      const { alias, name, arguments: args } = nodes[0]!;
      const result = await one([
        { kind: Kind.FIELD, alias, name, arguments: args, directives: [], selectionSet: { kind: Kind.SELECTION_SET, selections: methodNodes } },
      ]);
      // Pushed one by one: a spread passes each error as a call argument, on the stack.
      for (const error of result.errors ?? []) errors.push(error);
      if (!result.data) return done(true);
      group[methodKey] = ((result.data as Obj)[key] as Obj)[methodKey];
    }
  }
  return done(false);
}
