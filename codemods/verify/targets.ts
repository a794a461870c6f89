/**
 * Where `verify` runs the two documents. `--app <module>`: the user's ER graph in this process,
 * the v5 document through the compat layer over it (the project's own `createCompatHandler`,
 * compat.ts; old persisted ids through the run's `.v6-map.json` files) and the v6 document
 * through the handler itself.
 * `--url <base>`: a running server, POSTing to `<base>/graphql/v5` (compat, as the README mounts
 * it) and `<base>/graphql` (v6), its schema from `<base>/graphql`'s introspection; only to that
 * origin, no redirect followed, every answer bounded (endpoint.ts).
 */
import { resolve } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import type { PersistedMapping } from '../../compat/persisted.js';
import { appGraphs, type Handlerish } from '../v5-to-v6/sources.js';
import { checkProjectErgraph, projectCompat, type ProjectCompat } from './compat.js';
import { EndpointError, originClient } from './endpoint.js';
import type { Answer } from '../../compat/v6-form/answers.js';

export interface Request {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** v5 only: the old id of a persisted operation, sent instead of the text. */
  persistedId?: string;
}

export interface Target {
  /** How the report names it. */
  name: string;
  schemas: GraphQLSchema[];
  v5(request: Request, schema: GraphQLSchema): Promise<Answer>;
  v6(request: Request, schema: GraphQLSchema): Promise<Answer>;
  close(): Promise<void>;
}

/** Loads `--app` and builds the project's compat layer over each ER graph it exports. */
export async function appTarget(app: string, cwd: string, mapping: PersistedMapping): Promise<Target> {
  const file = resolve(cwd, app);
  checkProjectErgraph(file);
  const { graphs, load } = await appGraphs(app, cwd);
  const createCompatHandler = await projectCompat(load, file);
  const byschema = new Map<GraphQLSchema, { compat: ProjectCompat; handler: Handlerish }>();
  for (const { schema, handler } of graphs) {
    // `schema` is the handler's rebuilt with this tool's graphql (the documents are migrated
    // against it); compat gets the handler itself: the project's ergraph and graphql, one copy.
    const compat = createCompatHandler(handler, Object.keys(mapping).length > 0 ? { persisted: { mapping } } : {});
    byschema.set(schema, { compat, handler });
  }
  const of = (schema: GraphQLSchema) => byschema.get(schema)!;
  return {
    name: `--app ${app}`,
    schemas: graphs.map((g) => g.schema),
    async v5({ query, variables, operationName, persistedId }, schema) {
      const opts = { variables, operationName, client: 'ergraph-migrate verify' };
      return of(schema).compat.execute(persistedId ? undefined : query, persistedId ? { ...opts, documentId: persistedId } : opts);
    },
    async v6({ query, variables, operationName }, schema) {
      return of(schema).handler.execute(query, { variables, operationName }) as Promise<Answer>;
    },
    async close() {
      await Promise.all([...byschema.values()].map((g) => g.compat.usage.close()));
    },
  };
}

/** A GraphQL answer of `post`, whatever its status (graphql-response+json answers request errors with 4xx). */
async function graphqlPost(post: ReturnType<typeof originClient>, url: string, body: Record<string, unknown>): Promise<Answer> {
  const { status, text } = await post(url, body);
  try {
    const json = JSON.parse(text) as Answer;
    if (json && typeof json === 'object' && ('data' in json || 'errors' in json)) return json;
  } catch {
    // Not JSON: said below with the status.
  }
  throw new EndpointError(`POST ${url} answered HTTP ${status}, not a GraphQL response`, 'failed');
}

/** The v6 schema from the server's own introspection, through the same one-origin client as the documents. */
async function introspect(post: ReturnType<typeof originClient>, url: string): Promise<GraphQLSchema> {
  const answer = await graphqlPost(post, url, { query: getIntrospectionQuery() });
  const data = answer.data as IntrospectionQuery | null | undefined;
  if (!data || typeof data !== 'object' || !('__schema' in data)) {
    const errors = Array.isArray(answer.errors) ? (answer.errors as { message?: unknown }[]).map((e) => String(e?.message)).join('; ') : '';
    throw new EndpointError(`POST ${url}: introspection answered no schema${errors ? `: ${errors}` : ''}`, 'failed');
  }
  try {
    return buildClientSchema(data);
  } catch (error) {
    throw new EndpointError(`POST ${url}: invalid introspection result: ${(error as Error).message}`, 'failed');
  }
}

/**
 * A running server: compat at `<base>/graphql/v5`, v6 at `<base>/graphql`, every request to the
 * origin of `base` only (the one the production guard approved), answers read up to `maxResponseBytes`.
 */
export async function urlTarget(base: string, maxResponseBytes: number): Promise<Target> {
  const root = base.replace(/\/+$/, '');
  const post = originClient(root, maxResponseBytes);
  const schema = await introspect(post, `${root}/graphql`);
  return {
    name: root,
    schemas: [schema],
    v5: ({ query, variables, operationName }) => graphqlPost(post, `${root}/graphql/v5`, { query, variables, operationName }),
    v6: ({ query, variables, operationName }) => graphqlPost(post, `${root}/graphql`, { query, variables, operationName }),
    close: async () => {},
  };
}
