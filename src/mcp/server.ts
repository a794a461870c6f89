/**
 * `createMcpServer({ apps })`: an MCP server whose tools let an agent discover an app's grouped
 * GraphQL schema one operation at a time and run documents against it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../er/errors.js';
import { packageVersion } from '../peers/version.js';
import { logToConsole, maskedError, type ErrorLogger } from '../graphql/masking.js';
import type { McpApp, McpRequest } from './apps.js';
import {
  findOperation,
  fullIntrospection,
  fullSdl,
  listOperations,
  operationIntrospection,
  operationSdl,
  pluralOf,
  type OperationKind,
} from './catalog.js';
import { runDocument } from './graphql.js';
import { operationTools, type McpOperations } from './operations.js';
import { fail, ok, quoted, resultSchema, toCallToolResult, type ToolResult } from './result.js';
import { checkRate, TokenBuckets, type ToolCallRate } from './rate.js';
import { LIST_FORMATS, v5CompatOf, type V5Compat, type V5CompatOptions } from './v5.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpServerOptions {
  apps: readonly McpApp[];
  /** Server name announced to clients. */
  name?: string;
  /** Version announced to clients (default: the installed ergraph's, from its package.json). */
  version?: string;
  /**
   * Also answer v5-shaped calls: `get_query_schema({ name: 'userGetAll', app_name })` (and
   * `get_mutation_schema`) resolve the flat name to `{ entity, method }`, and `list_queries` /
   * `list_mutations` take `format: 'v5'` for v5 entries `{ name, description }`. `listFormat`
   * sets what the list tools answer when no `format` is given (default `'v6'`). The v5 knowledge
   * lives in `ergraph/compat`: `true` or options use it once it is imported (it registers itself);
   * `v5McpCompat(options)` from there passes it explicitly.
   */
  v5Compat?: boolean | V5CompatOptions | V5Compat;
  /**
   * Offer `graphql_mutation`, with which an agent changes data (default false: the server only
   * reads; `list_mutations` / `get_mutation_schema` still describe them).
   */
  mutations?: boolean;
  /**
   * Named operations offered as tools of their own, one per operation, named like it, with its
   * variables as the tool's input: a `.graphql` document (text or path), a list of
   * `{ name?, document }`, or Apollo's persisted query manifest. Validated here; a bad one throws
   * `ConfigError`. Mutations among them are offered only with `mutations: true`.
   */
  operations?: McpOperations;
  /** The app the operations run against; may be left out when there is one app. */
  operationsApp?: string;
  /** Gets every error kept from agents (a tool failing unexpectedly), with the id the agent saw. Default: console.error. */
  onError?: ErrorLogger;
  /**
   * Tool calls per session (one server: a stdio process; `mcpApp` counts per client address):
   * a token bucket, default `{ perSecond: 10, burst: 30 }`. Past it a call answers `rate_limited`
   * (over HTTP: 429 with `Retry-After`). `false` turns it off.
   */
  toolCallRate?: Partial<ToolCallRate> | false;
  /** Largest tool arguments, in characters of their JSON (default 100,000): larger calls answer `arguments_too_large`. */
  maxArgumentChars?: number;
}

/** Default `maxArgumentChars`: documents and variables an agent writes are far smaller. */
export const DEFAULT_MAX_ARGUMENT_CHARS = 100_000;

const RESPONSE_TYPES = ['sdl', 'introspection'] as const;
type ResponseType = (typeof RESPONSE_TYPES)[number];

const appName = z.string().describe('Name of the app, as listed by list_apps');
// Checked by the tool rather than by an enum so a wrong value gets the usual envelope with a hint.
const responseType = z.string().default('sdl').describe("'sdl' (default) or 'introspection'");
const variables = z
  .union([z.record(z.string(), z.unknown()), z.string()])
  .optional()
  .describe('GraphQL variables as a JSON object');
const operationName = z.string().optional().describe('Which operation of the document to run');

const optionsOf = new WeakMap<McpServer, McpServerOptions>();

/** The options a server was created with, so transports can build one server per session. */
export function serverOptions(server: McpServer): McpServerOptions | undefined {
  return optionsOf.get(server);
}

function checkApps(apps: readonly McpApp[]) {
  const names = new Set<string>();
  for (const app of apps) {
    if (!app.name) throw new ConfigError('every MCP app needs a name');
    if (names.has(app.name)) throw new ConfigError(`two MCP apps are named ${app.name}`);
    if (!app.handler?.schema) throw new ConfigError(`MCP app ${app.name} has no handler with a schema`);
    names.add(app.name);
  }
}

export function createMcpServer(options: McpServerOptions): McpServer {
  checkApps(options.apps);
  const compat = v5CompatOf(options.v5Compat);
  const server = new McpServer({ name: options.name ?? 'ergraph', version: options.version ?? packageVersion(import.meta.url) });
  optionsOf.set(server, options);
  const apps = new Map(options.apps.map((a) => [a.name, a]));

  const withApp = (name: string, run: (app: McpApp) => ToolResult | Promise<ToolResult>): ToolResult | Promise<ToolResult> => {
    const app = apps.get(name);
    if (!app) return fail('app_not_found', `no app named ${quoted(name)}`, `available apps: ${[...apps.keys()].join(', ')}`);
    return run(app);
  };
  const checkResponseType = (value: string): ToolResult | undefined =>
    (RESPONSE_TYPES as readonly string[]).includes(value)
      ? undefined
      : fail('invalid_response_type', `response_type must be 'sdl' or 'introspection', not '${quoted(value)}'`, "use 'sdl' or 'introspection'");

  const log = options.onError ?? logToConsole;
  const registered: string[] = [];
  const rate = checkRate(options.toolCallRate as ToolCallRate | false | undefined, 'createMcpServer');
  // One server is one session (stdio: the process): one bucket.
  const buckets = rate ? new TokenBuckets(rate) : undefined;
  const maxArgumentChars = options.maxArgumentChars ?? DEFAULT_MAX_ARGUMENT_CHARS;
  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    description: string,
    inputSchema: Shape,
    run: (args: z.output<z.ZodObject<Shape>>, request: McpRequest, signal: AbortSignal | undefined) => ToolResult | Promise<ToolResult>,
  ) => {
    registered.push(name);
    // The SDK cannot relate a generic Shape to its own inferred argument type, hence the cast below.
    server.registerTool(name, { description, inputSchema, outputSchema: resultSchema }, (async (args: z.output<z.ZodObject<Shape>>, extra: Extra) => {
      if (buckets && !buckets.take('session')) {
        return toCallToolResult(fail('rate_limited', `too many tool calls: at most ${rate && rate.burst} at once, then ${rate && rate.perSecond} a second`, `wait ${buckets.retryAfter('session')} s and call again`));
      }
      // Measured before any tool reads them; the error names the size, never the content.
      const size = JSON.stringify(args ?? {}).length;
      if (size > maxArgumentChars) {
        return toCallToolResult(fail('arguments_too_large', `the arguments are ${size} characters of JSON; this server takes at most ${maxArgumentChars}`, 'send a smaller document or fewer variables'));
      }
      try {
        // The SDK's signal aborts when the client cancels the call (notifications/cancelled).
        return toCallToolResult(await run(args, requestOf(extra), extra?.signal));
      } catch (error) {
        // The text may carry internals (SQL, paths): the agent gets an id, the log the error.
        return toCallToolResult(fail('internal_error', `${name} failed: ${maskedError(error, log).message}`));
      }
    }) as never);
  };

  tool('list_apps', 'List the GraphQL apps this server exposes, with how many queries and mutations each has.', {}, () =>
    ok(
      [...apps.values()].map((a) => ({
        name: a.name,
        description: a.description ?? null,
        queries: listOperations(a.handler.schema, 'query').length,
        mutations: listOperations(a.handler.schema, 'mutation').length,
      })),
    ),
  );

  for (const kind of ['query', 'mutation'] as const) {
    const plural = pluralOf(kind);
    const schemaTool = `get_${kind}_schema` as const;
    tool(
      `list_${plural}`,
      `List the ${plural} of an app, one entry per method: entity, method, name (<Entity>.<method>), description, and deprecationReason on deprecated methods.` +
        (compat ? ` format 'v5' lists the v5 flat names instead: { name, description }.` : ''),
      { app_name: appName, ...(compat ? { format: listFormat(compat) } : {}) },
      (args) =>
        withApp(args.app_name, (app) => {
          if (!compat) return ok(listOperations(app.handler.schema, kind));
          const format = (args as { format?: string }).format ?? compat.listFormat;
          if (format === 'v5') return compat.list(app.handler.schema, kind);
          if (format === 'v6') return ok(listOperations(app.handler.schema, kind));
          return fail('invalid_format', `format must be 'v6' or 'v5', not '${quoted(format)}'`, "use 'v6' or 'v5'");
        }),
    );
    // With compat on, entity and method become optional: a v5 agent sends `name` instead.
    const part = (schema: z.ZodString) => (compat ? schema.optional() : schema);
    tool(
      schemaTool,
      `The schema of one ${kind}: the root field of its entity, its group type trimmed to the method, and every type its arguments and result reach.` +
        (compat ? ` v5 form: pass the flat name (e.g. userGetAll) as name instead of entity and method.` : ''),
      {
        entity: part(z.string().describe(`Entity name, as listed by list_${plural}`)),
        method: part(z.string().describe('Method name inside the entity group')),
        ...(compat ? { name: z.string().optional().describe(`v5 flat name, e.g. ${kind === 'query' ? 'userGetAll' : 'taskCreate'}`) } : {}),
        app_name: appName,
        response_type: responseType,
      },
      (args) =>
        withApp(args.app_name, (app) => {
          const bad = checkResponseType(args.response_type);
          if (bad) return bad;
          const type = args.response_type as ResponseType;
          const { entity, method } = args;
          const name = (args as { name?: string }).name;
          if (entity !== undefined && method !== undefined) return operationSchema(app, kind, entity, method, type);
          if (compat && name !== undefined && entity === undefined && method === undefined) {
            return byV5Name(compat, app, kind, schemaTool, name, type);
          }
          return fail(
            'invalid_arguments',
            `${schemaTool} needs entity and method${compat ? ', or the v5 name alone' : ''}`,
            `list_${plural} shows the entity and method of each ${kind}`,
          );
        }),
    );
  }

  tool(
    'get_full_schema',
    "The app's whole GraphQL schema.",
    { app_name: appName, response_type: responseType },
    ({ app_name, response_type }) =>
      withApp(app_name, (app) =>
        checkResponseType(response_type) ??
        ok({
          response_type,
          schema: response_type === 'sdl' ? fullSdl(app.handler.schema) : fullIntrospection(app.handler.schema),
        }),
      ),
  );

  tool(
    'graphql_query',
    'Run a GraphQL query document, grouped per entity: { User { getAll(limit: 5) { id name } } }. Mutations are refused.',
    { app_name: appName, query: z.string().describe('The query document'), variables, operation_name: operationName },
    ({ app_name, query, variables, operation_name }, request, signal) =>
      withApp(app_name, (app) => runDocument(app, 'query', { document: query, variables, operationName: operation_name, signal }, request, log)),
  );

  if (options.mutations) {
    tool(
      'graphql_mutation',
      'Run a GraphQL mutation document: mutation { Task { create(title: "x") { id } } }. Queries are refused.',
      { app_name: appName, mutation: z.string().describe('The mutation document'), variables, operation_name: operationName },
      ({ app_name, mutation, variables, operation_name }, request, signal) =>
        withApp(app_name, (app) => runDocument(app, 'mutation', { document: mutation, variables, operationName: operation_name, signal }, request, log)),
    );
  }

  if (options.operations !== undefined) {
    const app = operationsAppOf(options);
    for (const op of operationTools(options.operations, app.handler.schema, { reserved: new Set(registered) })) {
      if (op.kind === 'mutation' && !options.mutations) continue; // as graphql_mutation: agents change data only when allowed
      tool(op.name, op.description, op.input, (args, request, signal) =>
        runDocument(app, op.kind, { document: op.document, variables: args, operationName: op.operationName, signal }, request, log),
      );
    }
  }

  return server;
}

function operationsAppOf(options: McpServerOptions): McpApp {
  const { apps, operationsApp } = options;
  if (operationsApp === undefined) {
    if (apps.length === 1) return apps[0]!;
    throw new ConfigError(`MCP operations need operationsApp: the server has ${apps.length} apps (${apps.map((a) => a.name).join(', ')})`);
  }
  const app = apps.find((a) => a.name === operationsApp);
  if (!app) throw new ConfigError(`MCP operationsApp ${operationsApp} is not one of the apps (${apps.map((a) => a.name).join(', ')})`);
  return app;
}

/** The request a tool call came in: HTTP transports report its headers and URL, stdio reports nothing. */
function requestOf(extra: Extra | undefined): McpRequest {
  const info = extra?.requestInfo;
  if (info) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(info.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return { transport: 'http', headers, url: info.url ?? new URL('http://localhost/') };
  }
  return { transport: 'stdio', env: process.env };
}

const listFormat = (compat: V5Compat) =>
  // Checked by the tool rather than by an enum, like response_type, so a wrong value gets the envelope.
  z.string().optional().describe(`'v6' or 'v5' entries (default '${compat.listFormat}'); one of ${LIST_FORMATS.join(', ')}`);

function byV5Name(
  compat: V5Compat,
  app: McpApp,
  kind: OperationKind,
  tool: 'get_query_schema' | 'get_mutation_schema',
  name: string,
  type: ResponseType,
): ToolResult {
  const target = compat.resolve(app.handler.schema, tool, name);
  if ('success' in target) return target;
  const result = operationSchema(app, kind, target.entity, target.method, type);
  // The hint tells the agent the v6 form of the call it just made.
  return result.success ? { ...result, hint: target.hint } : result;
}

function operationSchema(app: McpApp, kind: OperationKind, entity: string, method: string, type: ResponseType): ToolResult {
  const schema = app.handler.schema;
  const found = findOperation(schema, kind, entity, method);
  if (!found.ok) return fail('operation_not_found', found.error, found.hint);
  return ok({
    entity,
    method,
    name: `${entity}.${method}`,
    description: found.methodField.description ?? null,
    ...(found.methodField.deprecationReason != null ? { deprecationReason: found.methodField.deprecationReason } : {}),
    response_type: type,
    schema: type === 'sdl' ? operationSdl(schema, found) : operationIntrospection(schema, kind, found),
  });
}
