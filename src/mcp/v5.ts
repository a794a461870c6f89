/**
 * Answering v5-shaped MCP calls (`createMcpServer({ apps, v5Compat: true })`) while v5 agents are
 * still around. All v5 knowledge (flat names, the v5 list entry shape) lives in the compat
 * adapter; this module only turns its answers into this server's envelope.
 *
 * How a client asks for v5:
 * - `get_query_schema({ name: 'userGetAll', app_name })`: the v5 call shape itself (a `name` and
 *   no `entity`/`method`) is unambiguous, so it is resolved whenever compat is on.
 * - `list_queries({ app_name, format: 'v5' })`: the v5 and v6 list calls look the same, so the
 *   entry shape is chosen by `format`, whose default is the server's `listFormat` (a server that
 *   only v5 agents talk to sets `listFormat: 'v5'`, since those agents never pass `format`).
 */
import type { GraphQLSchema } from 'graphql';
import { ConfigError } from '../er/errors.js';
import { createV5McpAdapter, type McpToolResult, type V5McpAdapter } from '../../compat/mcp.js';
import type { OperationKind } from './catalog.js';
import { fail, ok, type ErrorType, type ToolResult } from './result.js';

export const LIST_FORMATS = ['v6', 'v5'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export interface V5CompatOptions {
  /** Entry shape `list_queries` / `list_mutations` answer with when the call gives no `format`. Default `'v6'`. */
  listFormat?: ListFormat;
}

export interface V5Compat {
  listFormat: ListFormat;
  /** The v5 entries `{ name, description }` of one app's schema. */
  list(schema: GraphQLSchema, kind: OperationKind): ToolResult;
  /**
   * A `get_*_schema` call given a v5 `name`: either the `{ entity, method }` it stands for (with
   * the hint telling the agent the v6 form), or the envelope explaining why it cannot be resolved.
   */
  resolve(
    schema: GraphQLSchema,
    tool: 'get_query_schema' | 'get_mutation_schema',
    name: string,
  ): { entity: string; method: string; hint: string } | ToolResult;
}

/** `true` and `{}` both turn compat on; `false`/`undefined` leave the server v6 only. */
export function v5CompatOf(option: boolean | V5CompatOptions | undefined): V5Compat | undefined {
  if (!option) return undefined;
  const listFormat = (option === true ? undefined : option.listFormat) ?? 'v6';
  if (!(LIST_FORMATS as readonly string[]).includes(listFormat)) {
    throw new ConfigError(`v5Compat.listFormat must be 'v6' or 'v5', not '${listFormat}'`);
  }

  // The adapter indexes every flat name of a schema; build it once per schema, on first use.
  const adapters = new WeakMap<GraphQLSchema, V5McpAdapter>();
  const adapterOf = (schema: GraphQLSchema) => {
    let adapter = adapters.get(schema);
    if (!adapter) adapters.set(schema, (adapter = createV5McpAdapter(schema)));
    return adapter;
  };

  return {
    listFormat,
    list: (schema, kind) => ok(adapterOf(schema).list(kind)),
    resolve(schema, tool, name) {
      const adapted = adapterOf(schema).adapt(tool, { name });
      if (!adapted) return fail('internal_error', `${tool}: the v5 adapter did not take the name ${name}`);
      if (adapted.kind === 'result') return envelope(adapted.result);
      const { entity, method } = adapted.arguments as { entity: string; method: string };
      return { entity, method, hint: adapted.hint };
    },
  };
}

/** The adapter's error types, in this server's vocabulary (snake case, as every other tool answers). */
const ERROR_TYPES: Record<string, ErrorType> = {
  NOT_FOUND: 'operation_not_found',
  AMBIGUOUS_NAME: 'ambiguous_name',
  INVALID_ARGUMENTS: 'invalid_arguments',
};

function envelope(result: McpToolResult): ToolResult {
  if (result.success) return ok(result.data, result.hint);
  return fail(ERROR_TYPES[result.error_type] ?? 'internal_error', result.error, result.hint);
}
