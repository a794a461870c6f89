/**
 * `handler.schema` in someone else's executor. Users hand the schema to graphql-js's own
 * `graphql()`/`execute()`, GraphQL Yoga, Apollo Server or Mercurius, which pass the user's
 * `contextValue` (or nothing) to every resolver, where ergraph's resolvers expect their `Run`.
 * Each resolver is wrapped once so that such an operation gets a `Run` of its own, with the
 * given context as the loaders' `_context`.
 *
 * The run is keyed by the coerced-variables object, which graphql-js (and graphql-jit) create
 * afresh for every execution — not by the context object, which its owner may reuse across
 * requests: sharing a run would share DataLoader caches between requests.
 */
import { isObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { isRun, type Run } from './run.js';

export type RunFactory = (context: Record<string, unknown> | undefined) => Run;

export function adoptForeignContexts(schema: GraphQLSchema, makeRun: RunFactory): void {
  const runs = new WeakMap<object, Run>();
  const runOf = (context: unknown, info: GraphQLResolveInfo): Run => {
    let run = runs.get(info.variableValues);
    if (!run) {
      run = makeRun(context !== null && typeof context === 'object' ? (context as Record<string, unknown>) : undefined);
      runs.set(info.variableValues, run);
    }
    return run;
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || (resolve as { adopted?: true }).adopted) continue;
      const adopted = (source: unknown, args: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) =>
        resolve(source, args, isRun(context) ? context : runOf(context, info), info);
      field.resolve = Object.assign(adopted, { adopted: true as const });
    }
  }
}
