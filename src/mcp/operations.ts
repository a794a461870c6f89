/**
 * Named GraphQL operations as MCP tools (what Apollo's MCP server does with an operation
 * collection): a `.graphql` document or a persisted list becomes one tool per operation, named
 * like the operation, with the operation's variables as its input. Everything is checked here, at
 * server creation; a bad operation is one `ConfigError` naming it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  parse,
  print,
  separateOperations,
  TokenKind,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { z } from 'zod';
import { ConfigError } from '../er/errors.js';
import type { OperationKind } from './catalog.js';
import { variablesShape } from './variables.js';

/** One entry of a persisted list: the document, and which operation of it (or the name of its one anonymous operation). */
export interface PersistedOperation {
  name?: string;
  document: string;
  /** The tool's description; default: the comment above the operation. */
  description?: string;
}

/** Apollo's persisted query list (`generate-persisted-query-manifest`). */
export interface ApolloPersistedQueryManifest {
  format: 'apollo-persisted-query-manifest';
  version?: number;
  operations: ReadonlyArray<{ id: string; name: string; type: 'query' | 'mutation' | 'subscription'; body: string }>;
}

/**
 * Where operations come from: GraphQL document text, the path (or file URL) of a `.graphql` /
 * `.gql` document or of a `.json` persisted list, a list of `{ name?, document }`, or Apollo's
 * persisted query manifest.
 */
export type McpOperations = string | URL | readonly PersistedOperation[] | ApolloPersistedQueryManifest;

/** An operation ready to be a tool. */
export interface OperationTool {
  /** The tool name: the operation's name. */
  name: string;
  kind: OperationKind;
  description: string;
  /** The operation with the fragments it uses, nothing else. */
  document: string;
  /** The name to run it by; undefined for an anonymous operation named by its list entry. */
  operationName: string | undefined;
  input: Record<string, z.ZodType>;
}

const FILE = /\.(graphql|gql|json)$/i;

function readSource(path: string, cwd: string): { text: string; json: boolean; where: string } {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new ConfigError(`MCP operations: no file ${file}`);
  return { text: readFileSync(file, 'utf8'), json: /\.json$/i.test(file), where: file };
}

function entriesOf(source: McpOperations, cwd: string): { entries: PersistedOperation[]; where: string } {
  if (source instanceof URL) return entriesOf(fileURLToPath(source), cwd);
  if (typeof source === 'string') {
    // A document always holds `{`; a path never needs one.
    if (!source.includes('{') && FILE.test(source.trim())) {
      const { text, json, where } = readSource(source.trim(), cwd);
      if (!json) return { entries: [{ document: text }], where };
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new ConfigError(`MCP operations: ${where} is not valid JSON (${(error as Error).message})`);
      }
      return { entries: listEntries(parsed, where), where };
    }
    return { entries: [{ document: source }], where: 'the operations document' };
  }
  return { entries: listEntries(source, 'the operations list'), where: 'the operations list' };
}

function listEntries(value: unknown, where: string): PersistedOperation[] {
  if (value && typeof value === 'object' && !Array.isArray(value) && (value as { format?: unknown }).format === 'apollo-persisted-query-manifest') {
    const manifest = value as ApolloPersistedQueryManifest;
    if (!Array.isArray(manifest.operations)) throw new ConfigError(`MCP operations: ${where} has no operations array`);
    return manifest.operations.map((op, i) => {
      if (!op || typeof op.body !== 'string' || typeof op.name !== 'string') {
        throw new ConfigError(`MCP operations: entry ${i} of ${where} needs a name and a body`);
      }
      if (op.type === 'subscription') throw new ConfigError(`MCP operation ${op.name}: subscriptions are not served`);
      return { name: op.name, document: op.body };
    });
  }
  if (!Array.isArray(value)) {
    throw new ConfigError(`MCP operations: ${where} must be a list of { name?, document } or an Apollo persisted query manifest`);
  }
  return value.map((entry: unknown, i) => {
    const e = entry as PersistedOperation;
    if (!e || typeof e !== 'object' || typeof e.document !== 'string' || (e.name !== undefined && typeof e.name !== 'string')) {
      throw new ConfigError(`MCP operations: entry ${i} of ${where} must be { name?: string, document: string }`);
    }
    return e;
  });
}

/** The `#` comment lines right above an operation, as its description. */
function leadingComment(operation: OperationDefinitionNode): string | undefined {
  const lines: string[] = [];
  for (let token = operation.loc?.startToken.prev; token && token.kind === TokenKind.COMMENT; token = token.prev) {
    lines.unshift((token.value ?? '').trim());
  }
  const text = lines.join('\n').trim();
  return text || undefined;
}

const operationsIn = (document: DocumentNode) =>
  document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);

/**
 * Operations already read, per schema and source: over Streamable HTTP every session builds its
 * server, and a file must not be read, parsed and validated again for each one.
 */
const compiled = new WeakMap<GraphQLSchema, Map<unknown, OperationTool[]>>();

/** Parse, pick, name and validate every operation of `source`; refuse names in `reserved` (the server's own tools). */
export function operationTools(
  source: McpOperations,
  schema: GraphQLSchema,
  options: { reserved?: ReadonlySet<string>; cwd?: string } = {},
): OperationTool[] {
  const cwd = options.cwd ?? process.cwd();
  const key = typeof source === 'string' || source instanceof URL ? `${cwd}\u0000${String(source)}` : source;
  let bySource = compiled.get(schema);
  if (!bySource) compiled.set(schema, (bySource = new Map()));
  let tools = bySource.get(key);
  if (!tools) bySource.set(key, (tools = compile(source, schema, cwd)));
  for (const { name } of tools) {
    if (options.reserved?.has(name)) throw new ConfigError(`MCP operation ${name}: the server already has a tool named ${name}; rename the operation`);
  }
  return tools;
}

function compile(source: McpOperations, schema: GraphQLSchema, cwd: string): OperationTool[] {
  const { entries, where } = entriesOf(source, cwd);
  const tools: OperationTool[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const label = entry.name ?? (entries.length > 1 ? `entry ${index} of ${where}` : where);
    let document: DocumentNode;
    try {
      document = parse(entry.document);
    } catch (error) {
      throw new ConfigError(`MCP operation ${label}: ${(error as Error).message}`);
    }
    let operations = operationsIn(document);
    if (operations.length === 0) throw new ConfigError(`MCP operation ${label}: the document holds no operation`);
    if (entry.name !== undefined && operations.length > 1) {
      operations = operations.filter((o) => o.name?.value === entry.name);
      if (operations.length === 0) throw new ConfigError(`MCP operation ${entry.name}: ${where} has no operation named ${entry.name}`);
    }
    const separated = separateOperations(document);
    for (const operation of operations) {
      const own = operation.name?.value;
      if (own !== undefined && entry.name !== undefined && own !== entry.name) {
        throw new ConfigError(`MCP operation ${entry.name}: the document's operation is named ${own}; the names must agree`);
      }
      const name = own ?? entry.name;
      if (name === undefined) {
        throw new ConfigError(`MCP operations: an anonymous operation in ${label} needs a name (operation name → tool name), e.g. query ListUsers { ... }`);
      }
      if (seen.has(name)) throw new ConfigError(`MCP operation ${name}: two operations have this name; each becomes a tool, so names must be unique`);
      seen.add(name);
      if (operation.operation === 'subscription') throw new ConfigError(`MCP operation ${name}: subscriptions are not served`);
      const ownDocument = separated[own ?? ''] ?? document;
      const errors = validate(schema, ownDocument);
      if (errors.length) {
        throw new ConfigError(`MCP operation ${name} does not validate against the schema: ${errors.map((e) => e.message).join('; ')}`);
      }
      const kind = operation.operation;
      tools.push({
        name,
        kind,
        description: entry.description ?? leadingComment(operation) ?? `The GraphQL ${kind} ${name}.`,
        document: print(ownDocument),
        operationName: own,
        input: variablesShape(schema, operation),
      });
    }
  });
  return tools;
}
