/**
 * `--schema <sdl file | introspection.json | url>`: the v6 schema the v5-to-v6 transform resolves
 * flat names against. Every failure names the source and what was wrong with it.
 */
import { readFile } from 'node:fs/promises';
import { boundedText } from '../../src/schema/bounded-text.js';
import { redirectTarget } from '../../src/schema/redirect.js';
import {
  GraphQLError,
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';

export class SchemaLoadError extends Error {
  constructor(readonly source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'SchemaLoadError';
  }
}

function fromIntrospection(json: unknown, source: string): GraphQLSchema {
  const body = json as { data?: unknown; errors?: Array<{ message?: string }>; __schema?: unknown } | null;
  // Accept both the HTTP response `{ data: { __schema } }` and a bare `{ __schema }` dump.
  const result = (body && typeof body === 'object' && 'data' in body ? body.data : body) as IntrospectionQuery | null;
  if (!result || typeof result !== 'object' || !('__schema' in result)) {
    const errors = body?.errors?.map((e) => e.message).join('; ');
    throw new SchemaLoadError(source, errors ? `introspection failed: ${errors}` : 'not an introspection result (no __schema)');
  }
  try {
    return buildClientSchema(result);
  } catch (error) {
    throw new SchemaLoadError(source, `invalid introspection result: ${(error as Error).message}`);
  }
}

function fromSdl(text: string, source: string): GraphQLSchema {
  try {
    return buildSchema(text);
  } catch (error) {
    const where = error instanceof GraphQLError && error.locations?.[0] ? ` (line ${error.locations[0].line}, column ${error.locations[0].column})` : '';
    throw new SchemaLoadError(source, `invalid SDL${where}: ${(error as Error).message}`);
  }
}

export interface LoadOptions {
  /** For a URL: how long to wait for the whole answer (default 10,000 ms). */
  timeoutMs?: number;
  /** For a URL: the largest answer read (default 20 MB). */
  maxBytes?: number;
}

async function fromUrl(url: string, { timeoutMs = 10_000, maxBytes = 20 * 1024 * 1024 }: LoadOptions): Promise<GraphQLSchema> {
  let response: Response;
  let text: string | undefined;
  try {
    // Bounded as `ergraph schema` bounds it: a server that never answers, or answers without end, must not hang the run.
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
      signal: AbortSignal.timeout(timeoutMs),
      // A redirect would send the introspection (and whatever the URL carries) to a host the user did not name, as `verify` refuses to.
      redirect: 'manual',
    });
    if (response.status >= 300 && response.status < 400) throw new SchemaLoadError(url, `introspection answered HTTP ${response.status}, a redirect to ${redirectTarget(response.headers.get('location'), url)}: the schema is read from the address given and nowhere else; give the address the server means`);
    if (!response.ok) throw new SchemaLoadError(url, `introspection answered HTTP ${response.status}`);
    text = await boundedText(response.body, maxBytes);
  } catch (error) {
    if (error instanceof SchemaLoadError) throw error;
    const e = error as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new SchemaLoadError(url, `no introspection answer within ${timeoutMs} ms`);
    throw new SchemaLoadError(url, `cannot reach the server: ${e.message}`);
  }
  if (text === undefined) throw new SchemaLoadError(url, `the answer is more than the ${maxBytes} bytes allowed`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SchemaLoadError(url, 'introspection did not answer JSON');
  }
  return fromIntrospection(json, url);
}

/** Load the v6 schema from an SDL file, an introspection JSON file, or a GraphQL endpoint URL. */
export async function loadSchema(source: string, options: LoadOptions = {}): Promise<GraphQLSchema> {
  if (/^https?:\/\//i.test(source)) return fromUrl(source, options);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new SchemaLoadError(source, `cannot read the file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (source.toLowerCase().endsWith('.json') || /^\s*\{/.test(text)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SchemaLoadError(source, `invalid JSON: ${(error as Error).message}`);
    }
    return fromIntrospection(json, source);
  }
  return fromSdl(text, source);
}
