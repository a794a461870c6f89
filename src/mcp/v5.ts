/**
 * The extension point through which the v5 compat layer answers v5-shaped MCP calls
 * (`createMcpServer({ apps, v5Compat })`). The v6 engine never loads the compat layer: all v5
 * knowledge (flat names, the v5 list entry shape) lives in `ergraph/compat`, which provides an
 * implementation of `V5Compat` (`v5McpCompat()`) and registers it when it is loaded, so
 * `v5Compat: true` works wherever `ergraph/compat` has been imported.
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
import type { OperationKind } from './catalog.js';
import type { ToolResult } from './result.js';

export const LIST_FORMATS = ['v6', 'v5'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export interface V5CompatOptions {
  /** Entry shape `list_queries` / `list_mutations` answer with when the call gives no `format`. Default `'v6'`. */
  listFormat?: ListFormat;
}

/** What the MCP server asks of a v5 compat implementation. */
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

export type V5CompatFactory = (options: V5CompatOptions) => V5Compat;

let registered: V5CompatFactory | undefined;

/** Called by `ergraph/compat` when it loads: `v5Compat: true` then builds its implementation. */
export function registerV5Compat(factory: V5CompatFactory): void {
  registered = factory;
}

const isV5Compat = (value: object): value is V5Compat => typeof (value as Partial<V5Compat>).resolve === 'function';

/** `true`/options use the registered compat layer; an implementation is used as given; `false`/`undefined` leave the server v6 only. */
export function v5CompatOf(option: boolean | V5CompatOptions | V5Compat | undefined): V5Compat | undefined {
  if (!option) return undefined;
  if (typeof option === 'object' && isV5Compat(option)) return option;
  if (!registered) {
    throw new ConfigError(
      "v5Compat needs the compat layer, which the v6 engine does not load: import { v5McpCompat } from 'ergraph/compat' and pass v5Compat: v5McpCompat()",
    );
  }
  return registered(option === true ? {} : option);
}
