/**
 * v5-shaped MCP calls answered over a v6 schema, for the MCP server (`src/mcp/`) to call while v5
 * agents are still around. Pure: it reads the schema and the call, and says either "call the v6
 * tool with these arguments" or "answer with this result". It never runs a tool itself.
 *
 * v5 → v6:
 * - `get_query_schema({ name: 'userGetAll' })` → `get_query_schema({ entity: 'User', method: 'getAll' })`
 *   (likewise `get_mutation_schema`); other arguments (`app_name`, `response_type`) pass through.
 * - `list_queries` / `list_mutations` → v5 entries `{ name: 'userGetAll', description }`.
 */
import type { GraphQLSchema } from 'graphql';
import { ConfigError } from '../src/er/errors.js';
import { fail, ok, type ErrorType, type ToolResult } from '../src/mcp/result.js';
import { LIST_FORMATS, type V5Compat, type V5CompatOptions } from '../src/mcp/v5.js';
import { buildFlatIndex, groupsOf, type FlatIndex, type OperationKind } from './flat-index.js';
import { v5FieldName } from './naming.js';

/** The MCP tool result shape of the specification (2.9, DESIGN 7). */
export type McpToolResult =
  | { success: true; data: unknown; hint?: string }
  | { success: false; error: string; error_type: string; hint?: string };

export interface V5ListEntry {
  /** The v5 flat name, e.g. `userGetAll`. */
  name: string;
  description: string | null;
}

export type V5McpAdaptation =
  /** Call the v6 tool `tool` with `arguments`; `hint` tells the agent the v6 form. */
  | { kind: 'call'; tool: 'get_query_schema' | 'get_mutation_schema'; arguments: Record<string, unknown>; hint: string }
  /** Answer with `result` without calling anything. */
  | { kind: 'result'; result: McpToolResult };

const SCHEMA_TOOLS = { get_query_schema: 'query', get_mutation_schema: 'mutation' } as const;
const LIST_TOOLS = { list_queries: 'query', list_mutations: 'mutation' } as const;

export interface V5McpAdapter {
  /**
   * Adapt one call made by a v5 agent. Returns null when the call is not v5-shaped (e.g.
   * `get_query_schema` already given `entity`/`method`, or a tool that did not change): the
   * server then handles it as usual.
   */
  adapt(tool: string, args: Record<string, unknown>): V5McpAdaptation | null;
  /** The v5 `list_queries` / `list_mutations` entries. */
  list(kind: OperationKind): V5ListEntry[];
  /** Resolve a v5 flat name, or explain why it cannot be. */
  resolve(kind: OperationKind, name: string): { entity: string; method: string } | Extract<McpToolResult, { success: false }>;
}

export function createV5McpAdapter(schema: GraphQLSchema): V5McpAdapter {
  const index: FlatIndex = buildFlatIndex(schema);

  const list = (kind: OperationKind): V5ListEntry[] =>
    groupsOf(schema, kind).flatMap(({ entity, groupType }) =>
      Object.values(groupType.getFields()).map((f) => ({ name: v5FieldName(entity, f.name), description: f.description ?? null })),
    );

  const resolve: V5McpAdapter['resolve'] = (kind, name) => {
    const targets = index[kind].get(name) ?? [];
    const lister = kind === 'query' ? 'list_queries' : 'list_mutations';
    if (targets.length === 1) return { entity: targets[0]!.entity, method: targets[0]!.method };
    if (targets.length === 0) {
      return {
        success: false,
        error: `no ${kind} is named "${name}" in v5 terms`,
        error_type: 'NOT_FOUND',
        hint: `${lister} lists the available ${kind === 'query' ? 'queries' : 'mutations'}`,
      };
    }
    const candidates = targets.map((t) => `{ entity: '${t.entity}', method: '${t.method}' }`).join(' or ');
    return {
      success: false,
      error: `"${name}" names several v6 ${kind === 'query' ? 'queries' : 'mutations'}`,
      error_type: 'AMBIGUOUS_NAME',
      hint: `call with ${candidates}`,
    };
  };

  return {
    list,
    resolve,
    adapt(tool, args) {
      if (Object.hasOwn(LIST_TOOLS, tool)) {
        const kind = LIST_TOOLS[tool as keyof typeof LIST_TOOLS];
        return { kind: 'result', result: { success: true, data: list(kind) } };
      }
      if (!Object.hasOwn(SCHEMA_TOOLS, tool)) return null;
      const schemaTool = tool as keyof typeof SCHEMA_TOOLS;
      if ('entity' in args || 'method' in args) return null;
      const { name, ...rest } = args;
      if (typeof name !== 'string') {
        return {
          kind: 'result',
          result: { success: false, error: `${tool} needs entity and method (or the v5 name)`, error_type: 'INVALID_ARGUMENTS' },
        };
      }
      const resolved = resolve(SCHEMA_TOOLS[schemaTool], name);
      if ('success' in resolved) return { kind: 'result', result: resolved };
      return {
        kind: 'call',
        tool: schemaTool,
        arguments: { ...rest, entity: resolved.entity, method: resolved.method },
        hint: `${tool}({ name }) is the v5 form; call ${tool}({ entity: '${resolved.entity}', method: '${resolved.method}' })`,
      };
    },
  };
}

/**
 * The v5 side of `createMcpServer({ apps, v5Compat })`: v5-shaped calls answered in the server's
 * own envelope. `ergraph/compat` registers this factory when it loads (so `v5Compat: true`
 * works); pass `v5Compat: v5McpCompat(options)` to make the dependency explicit.
 */
export function v5McpCompat(options: V5CompatOptions = {}): V5Compat {
  const listFormat = options.listFormat ?? 'v6';
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

/** The adapter's error types, in the MCP server's vocabulary (snake case, as every other tool answers). */
const ERROR_TYPES: Record<string, ErrorType> = {
  NOT_FOUND: 'operation_not_found',
  AMBIGUOUS_NAME: 'ambiguous_name',
  INVALID_ARGUMENTS: 'invalid_arguments',
};

function envelope(result: McpToolResult): ToolResult {
  if (result.success) return ok(result.data, result.hint);
  return fail(ERROR_TYPES[result.error_type] ?? 'internal_error', result.error, result.hint);
}
