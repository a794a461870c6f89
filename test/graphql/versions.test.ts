/**
 * graphql 16 and 17 (issue 28.1): this suite runs on both (`.ci/run` reruns test/graphql on
 * graphql 17 under Node 22). Variables reach graphql-js's own functions in the installed version's
 * shape, and a spent budget aborts graphql 17's execution through its `abortSignal`.
 */
import { describe, expect, it } from 'vitest';
import { execute, getArgumentValues, GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, versionInfo, type GraphQLResolveInfo } from 'graphql';
import { Budget } from '../../src/graphql/budget.js';
import { abortable, coercedValues, coerceVariables, NO_VARIABLES } from '../../src/graphql/versions.js';

const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    echo: { type: GraphQLInt, args: { n: { type: GraphQLInt } }, resolve: (_, { n }: { n: number }) => n },
    info: {
      type: GraphQLString,
      resolve: (_s, _a, context, info) => (typeof context === 'function' ? context(info) : 'ok'),
    },
  },
});
const schema = new GraphQLSchema({ query: Query });
const operation = (text: string) => parse(text).definitions[0] as import('graphql').OperationDefinitionNode;

describe(`graphql ${versionInfo.major}`, () => {
  it('coerces variables into the shape getArgumentValues reads, and reads plain values back', () => {
    const op = operation('query($n: Int = 3) { echo(n: $n) }');
    const coerced = coerceVariables(schema, op.variableDefinitions, { n: 7 });
    if (coerced.errors) throw coerced.errors[0];
    expect(coercedValues(coerced.variables)).toEqual({ n: 7 });
    const field = op.selectionSet.selections[0] as import('graphql').FieldNode;
    expect(getArgumentValues(Query.getFields().echo!, field, coerced.variables)).toEqual({ n: 7 });
    const defaulted = coerceVariables(schema, op.variableDefinitions, undefined);
    expect(defaulted.errors ? defaulted.errors : coercedValues(defaulted.variables)).toEqual({ n: 3 });
    expect(coercedValues(NO_VARIABLES)).toEqual({});
  });

  it('refuses variables that do not coerce, with graphql-js errors', () => {
    const op = operation('query($n: Int!) { echo(n: $n) }');
    const coerced = coerceVariables(schema, op.variableDefinitions, { n: 'x' });
    expect(coerced.errors?.[0]?.message).toMatch(/\$n/);
  });

  it("a spent budget aborts its signal with the budget's error, also when the signal is asked for afterwards", () => {
    const early = new Budget({ resultValues: 1 });
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    expect(() => early.count(2)).toThrow();
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(early.exceeded);
    const late = new Budget({ resultValues: 1 });
    expect(() => late.count(2)).toThrow();
    expect(late.signal.aborted).toBe(true);
  });

  it("graphql-js's execute gets the budget's signal where the version takes one (17): spending the budget aborts the run; nothing on 16", async () => {
    const budget = new Budget({ resultValues: 1 });
    const observed: (boolean | undefined)[] = [];
    const during = (info: GraphQLResolveInfo & { getAbortSignal?: () => AbortSignal | undefined }) => {
      const signal = info.getAbortSignal?.();
      observed.push(signal?.aborted);
      expect(() => budget.count(2)).toThrow(); // the budget is spent while the resolver runs
      observed.push(signal?.aborted);
      return 'ok';
    };
    try {
      await execute({ schema, document: parse('{ info }'), contextValue: during, ...abortable(budget) });
    } catch {
      // graphql 17 may reject an aborted run; what the resolver saw is the point
    }
    if (versionInfo.major >= 17) expect(observed).toEqual([false, true]);
    else expect([observed, abortable(budget)]).toEqual([[undefined, undefined], {}]);
  });
});
