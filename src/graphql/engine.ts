/**
 * Running one validated document: pick the operation, coerce the variables, and execute with
 * the compiled executor (compiled.ts) or with graphql-js (the reference the compiled one is
 * tested against; `executor: 'graphql-js'`, or ERGRAPH_EXECUTOR=graphql-js for the default).
 * A document's compiled operations live beside it in the handler's document cache.
 */
import {
  execute,
  GraphQLError,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { BudgetExceeded } from './budget.js';
import { compiledOperation, planFor, selectOperation } from './compile.js';
import type { CompiledOperation, Plan, Unsupported } from './plan.js';
import { executePlan } from './compiled.js';
import type { Run } from './run.js';
import { executeSerially } from './serial.js';
import { abortable, coerceVariables, type Variables } from './versions.js';

export type ExecutorKind = 'compiled' | 'graphql-js';

/** The executor a handler uses when its options name none. */
export function defaultExecutor(): ExecutorKind {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.ERGRAPH_EXECUTOR;
  return env === 'graphql-js' ? 'graphql-js' : 'compiled';
}

/**
 * A parsed, validated document and its operations, compiled on first use. Only operations the
 * document holds are kept: an unknown `operationName` gets a fresh error each time, so a client
 * sending a new name per request adds nothing (issue 27). `onPlan` is told of every plan past the
 * first, for the document cache to charge its entry.
 */
export class PreparedDocument {
  private readonly operations = new Map<string, CompiledOperation>();
  private plans = 0;
  constructor(
    readonly document: DocumentNode,
    private readonly onPlan?: (prepared: PreparedDocument) => void,
  ) {}

  operation(name: string | null | undefined): CompiledOperation | GraphQLError {
    const key = name ?? '';
    let op = this.operations.get(key);
    if (!op) {
      const selected = selectOperation(this.document, name);
      if (selected instanceof GraphQLError) return selected;
      op = compiledOperation(this.document, selected);
      this.operations.set(key, op);
    }
    return op;
  }

  plan(schema: GraphQLSchema, op: CompiledOperation, variables: Variables): Plan | Unsupported {
    const { plan, added } = planFor(schema, this.document, op, variables);
    if (added && ++this.plans > 1) this.onPlan?.(this);
    return plan;
  }
}

export interface RunOptions {
  executor: ExecutorKind;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  rootValue: unknown;
}

export function runDocument(schema: GraphQLSchema, prepared: PreparedDocument, run: Run, options: RunOptions): Promise<ExecutionResult> | ExecutionResult {
  const op = prepared.operation(options.operationName);
  if (op instanceof GraphQLError) return { errors: [op] };
  const { operation } = op.operation;
  const name = op.operation.name?.value;
  // OpenTelemetry's GraphQL conventions: span `query GetUser`, graphql.operation.type / .name.
  run.trace.describe(name ? `${operation} ${name}` : operation, () => ({
    'graphql.operation.type': operation,
    ...(name ? { 'graphql.operation.name': name } : {}),
    'ergraph.executor': options.executor,
  }));
  const coerced = coerceVariables(schema, op.operation.variableDefinitions, options.variables);
  if (coerced.errors) return { errors: coerced.errors };
  const { variables } = coerced;
  if (options.executor === 'compiled') {
    const plan = prepared.plan(schema, op, variables);
    // Not async: an async layer here cost each operation a promise and ticks (issue 31.1).
    if (!('unsupported' in plan)) return executePlan(plan, run, variables, options.rootValue);
  }
  return runOnGraphqlJs(schema, prepared, op.operation, run, options, variables);
}

async function runOnGraphqlJs(
  schema: GraphQLSchema,
  prepared: PreparedDocument,
  operation: OperationDefinitionNode,
  run: Run,
  options: RunOptions,
  variables: Variables,
): Promise<ExecutionResult> {
  try {
    const result = await run.budget.race(Promise.resolve(runGraphqlJs(schema, prepared.document, operation, run, options, variables)));
    // A budget spent inside (loaded values counted by the level scheduler) fails the whole operation.
    return run.budget.exceeded ? { data: null, errors: [run.budget.exceeded] } : result;
  } catch (error) {
    if (error instanceof BudgetExceeded) return { data: null, errors: [error.error] };
    throw error;
  }
}

function runGraphqlJs(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  run: Run,
  options: RunOptions,
  variables: Variables,
): Promise<ExecutionResult> | ExecutionResult {
  if (operation.operation === 'mutation') return executeSerially(schema, document, operation, run, options, variables);
  return execute({
    schema,
    document,
    rootValue: options.rootValue,
    contextValue: run,
    variableValues: options.variables ?? undefined,
    operationName: options.operationName ?? undefined,
    ...abortable(run.budget),
  });
}
