/** Running a document for `graphql_query` / `graphql_mutation`, refusing the other operation kind. */
import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { parseDocument, type OperationLimits } from '../graphql/limits.js';
import { maskedError, type ErrorLogger } from '../graphql/masking.js';
import type { McpApp, McpRequest } from './apps.js';
import type { OperationKind } from './catalog.js';
import { fail, ok, type ToolResult } from './result.js';

const toolFor = (kind: OperationKind) => (kind === 'query' ? 'graphql_query' : 'graphql_mutation');

function checkKind(document: DocumentNode, kind: OperationKind, operationName?: string): ToolResult | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const selected = operationName ? operations.filter((o) => o.name?.value === operationName) : operations;
  const wrong = selected.find((o) => o.operation !== kind);
  if (!wrong) return undefined;
  const other: OperationKind | 'subscription' = wrong.operation;
  return fail(
    'wrong_operation_type',
    `${toolFor(kind)} runs ${kind} operations, but the document holds a ${other}${wrong.name ? ` (${wrong.name.value})` : ''}`,
    other === 'subscription' ? 'subscriptions are not served' : `use ${toolFor(other)} for ${other} operations`,
  );
}

export interface RunOptions {
  document: string;
  variables?: Record<string, unknown> | string;
  operationName?: string;
  /** Aborts when the client cancels the call or goes away: the run stops and its SQL is cancelled. */
  signal?: AbortSignal;
}

function readVariables(variables: RunOptions['variables']): Record<string, unknown> | ToolResult | undefined {
  if (typeof variables !== 'string') return variables;
  if (variables.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(variables);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  return fail('invalid_variables', 'variables must be a JSON object', 'pass variables as an object, e.g. {"limit": 5}');
}

const isResult = (value: unknown): value is ToolResult =>
  !!value && typeof value === 'object' && 'success' in value && 'error_type' in value;

export async function runDocument(
  app: McpApp,
  kind: OperationKind,
  options: RunOptions,
  request: McpRequest,
  log: ErrorLogger,
): Promise<ToolResult> {
  let document: DocumentNode;
  try {
    // Within the handler's token limit: this parse only finds the operation kind.
    const limits = (app.handler as { options?: { limits?: OperationLimits } }).options?.limits;
    document = parseDocument(options.document, limits);
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : String(error);
    return fail('graphql_error', message, 'the document does not parse; check its syntax');
  }
  const refused = checkKind(document, kind, options.operationName);
  if (refused) return refused;
  const variables = readVariables(options.variables);
  if (isResult(variables)) return variables;

  let context: Record<string, unknown>;
  try {
    context = (await app.context?.(request)) ?? {};
  } catch (error) {
    // A context function refusing the request (no or a bad credential): no detail to the agent.
    return fail('unauthorized', `the app refused the request's credentials (${maskedError(error, log).message})`, 'check the credentials this client sends');
  }
  const result = await app.handler.execute(options.document, { context, variables, operationName: options.operationName, signal: options.signal });
  if (!result.errors?.length) return ok(result.data);

  const errors = result.errors.map(({ message, path, extensions }) => ({
    message,
    ...(path ? { path: [...path] } : {}),
    ...(extensions && Object.keys(extensions).length ? { extensions } : {}),
  }));
  return fail('graphql_error', errors.map((e) => e.message).join('\n'), hintFor(errors, kind), {
    errors,
    data: result.data ?? null,
  });
}

function hintFor(errors: ReadonlyArray<{ extensions?: Record<string, unknown> }>, kind: OperationKind): string {
  const available = errors.map((e) => e.extensions?.available_methods).find(Array.isArray);
  if (available) return `select one of the methods: ${available.join(', ')}`;
  const list = kind === 'query' ? 'list_queries' : 'list_mutations';
  const schema = kind === 'query' ? 'get_query_schema' : 'get_mutation_schema';
  return `${list} shows what exists; ${schema}(entity, method) shows arguments and fields`;
}
