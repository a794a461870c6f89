/** `--schema <sdl|introspection.json|url>`: the v6 schema some transforms need (v5-to-v6). */
import { readFileSync } from 'node:fs';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  GraphQLSchema,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';

function fromIntrospection(json: unknown, where: string): GraphQLSchema {
  const body = json as { data?: IntrospectionQuery; __schema?: unknown };
  const data = body.data ?? (body.__schema ? (body as IntrospectionQuery) : undefined);
  if (!data) throw new Error(`${where}: not an introspection result (no data.__schema)`);
  return buildClientSchema(data);
}

export async function loadSchema(spec: string): Promise<GraphQLSchema> {
  if (/^https?:\/\//.test(spec)) {
    const response = await fetch(spec, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    if (!response.ok) throw new Error(`${spec}: introspection failed with HTTP ${response.status}`);
    return fromIntrospection(await response.json(), spec);
  }
  const text = readFileSync(spec, 'utf8');
  return spec.endsWith('.json') ? fromIntrospection(JSON.parse(text), spec) : buildSchema(text);
}

/** Transform options cross to worker threads by structured clone, which a schema does not survive. */
export function cloneableOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schema, ...rest } = options;
  return schema instanceof GraphQLSchema ? { ...rest, schemaSdl: printSchema(schema) } : options;
}

export function revivedOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schemaSdl, ...rest } = options;
  return typeof schemaSdl === 'string' ? { ...rest, schema: buildSchema(schemaSdl) } : options;
}
