/**
 * A GraphQL schema from wherever a team keeps one: an SDL file, an introspection JSON file (the
 * `{ data: { __schema } }` a server answers, or just `{ __schema }`), or a live endpoint's URL
 * (an introspection query over HTTP, bounded in time and size). Errors name the source.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { boundedText } from './bounded-text.js';
import { redirectTarget } from './redirect.js';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  GraphQLError,
  GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';

export class SchemaSourceError extends Error {
  override name = 'SchemaSourceError';
}

export interface LoadSchemaOptions {
  /** Relative file paths resolve from here (default `process.cwd()`). */
  cwd?: string;
  /** For a URL: how long to wait for the whole answer (default 10 000 ms). */
  timeoutMs?: number;
  /** For a URL: the largest answer read (default 20 MB). */
  maxBytes?: number;
  /** For a URL: extra request headers (e.g. authorization). */
  headers?: Record<string, string>;
}

function fromIntrospection(json: unknown, source: string): GraphQLSchema {
  const data = (json as { data?: unknown })?.data ?? json;
  if (!data || typeof data !== 'object' || !('__schema' in data)) {
    const errors = (json as { errors?: Array<{ message?: string }> })?.errors;
    const why = errors?.length ? `: ${errors.map((e) => e.message).join('; ')}` : '';
    throw new SchemaSourceError(`${source} is not an introspection result (no __schema)${why}`);
  }
  try {
    return buildClientSchema(data as IntrospectionQuery);
  } catch (error) {
    throw new SchemaSourceError(`${source}: invalid introspection result: ${(error as Error).message}`);
  }
}

function fromSdl(text: string, source: string): GraphQLSchema {
  try {
    return buildSchema(text);
  } catch (error) {
    if (error instanceof GraphQLError && error.locations?.[0]) {
      const { line, column } = error.locations[0];
      throw new SchemaSourceError(`${source}:${line}:${column}: ${error.message.split('\n')[0]}`);
    }
    throw new SchemaSourceError(`${source}: ${(error as Error).message}`);
  }
}

/** The body as text, refusing more than `maxBytes`. */
async function responseText(response: Response, maxBytes: number, source: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) throw new SchemaSourceError(`${source}: the answer is ${declared} bytes, more than the ${maxBytes} allowed`);
  const text = await boundedText(response.body, maxBytes);
  if (text === undefined) throw new SchemaSourceError(`${source}: the answer is more than the ${maxBytes} bytes allowed`);
  return text;
}

async function fromUrl(url: string, options: LoadSchemaOptions): Promise<GraphQLSchema> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) }),
      signal: AbortSignal.timeout(timeoutMs),
      // A redirect would carry the introspection and the given headers (a token, often) to a host nobody named.
      redirect: 'manual',
    });
    status = response.status;
    if (status >= 300 && status < 400) {
      const target = redirectTarget(response.headers.get('location'), url);
      throw new SchemaSourceError(`${url}: introspection answered HTTP ${status}, a redirect to ${target}: the schema is read from the address given and nowhere else; give the address the server means`);
    }
    text = await responseText(response, options.maxBytes ?? 20 * 1024 * 1024, url);
  } catch (error) {
    if (error instanceof SchemaSourceError) throw error;
    const e = error as Error & { cause?: Error };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new SchemaSourceError(`${url}: no introspection answer within ${timeoutMs} ms`);
    throw new SchemaSourceError(`${url}: cannot introspect: ${e.cause?.message ?? e.message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SchemaSourceError(`${url}: HTTP ${status}, not a JSON answer: ${JSON.stringify(text.slice(0, 120))}`);
  }
  return fromIntrospection(json, `${url} (HTTP ${status})`);
}

/** `source`: a `http(s)://` URL, a `.json` introspection file, an SDL file, or a schema already built. */
export async function loadSchema(source: string | GraphQLSchema, options: LoadSchemaOptions = {}): Promise<GraphQLSchema> {
  if (source instanceof GraphQLSchema) return source;
  if (/^https?:\/\//i.test(source)) return fromUrl(source, options);
  const file = resolve(options.cwd ?? process.cwd(), source);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SchemaSourceError(code === 'ENOENT' ? `schema file not found: ${file}` : `${file}: ${(error as Error).message}`);
  }
  if (/\.json$/i.test(file) || text.trimStart().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SchemaSourceError(`${source}: not valid JSON: ${(error as Error).message}`);
    }
    return fromIntrospection(json, source);
  }
  return fromSdl(text, source);
}
