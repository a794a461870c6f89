/**
 * `graphqlApp(handler)`: a Hono app serving a `GraphQLHandler` over GraphQL-over-HTTP (the
 * shared layer of `over-http.ts`: POST and GET, both response media types, body limit, GraphiQL
 * with its assets from the installed packages).
 */
import { getOperationAST } from 'graphql';
import { Hono, type Context } from 'hono';
import type { GraphQLHandler } from '../graphql/handler.js';
import { sampleQuery } from '../graphql/sample-query.js';
import { erPicture, type ErPicture, type PictureServices } from '../picture/model.js';
import { erResponse } from './er-page.js';
import { mountGraphQL, RequestError, type GraphQLEndpoint, type GraphQLHttpOptions } from './over-http.js';

export interface GraphqlAppOptions extends Partial<Omit<GraphQLHttpOptions, 'path' | 'headers'>> {
  /** Where the endpoint lives (default `/graphql`); GraphiQL assets are served under `<path>/assets/`. */
  path?: string;
  /** The context handed to `handler.execute` (e.g. the decoded credential); default `{}`. */
  context?: (c: Context) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Serve GraphiQL on GET without a query (default true). */
  graphiql?: boolean;
  /**
   * The query GraphiQL opens with (see `GraphiqlOptions.defaultQuery`); when unset, a query of the
   * served schema that runs as it stands (`sampleQuery`).
   */
  defaultQuery?: string;
  /**
   * The app's name on the GraphiQL page, which keeps its saved editor state apart from other
   * apps' pages (default: the handler's `serviceName`).
   */
  name?: string;
  /**
   * The ER diagram page: entities, fields, relationships, root operations (and use-case services
   * when given), each entity linking to GraphiQL's docs. Served beside the endpoint — `/er` for
   * `/graphql`, `/tasks/er` for `/tasks/graphql` — whenever GraphiQL is; `false` turns it off.
   */
  er?: false | { path?: string; services?: PictureServices };
}

/** `/er` beside the endpoint: the endpoint's last path segment replaced by `er`. */
export const erPathFor = (path: string) => `${path.replace(/\/+$/, '').replace(/\/[^/]*$/, '')}/er`;

/** The v6 endpoint: documents are parsed and validated once (the handler keeps them by text). */
export function handlerEndpoint(handler: GraphQLHandler, options: GraphqlAppOptions = {}): GraphQLEndpoint {
  const queryOf = (query: string | undefined) => {
    if (query === undefined) throw new RequestError(400, "The request needs a 'query' string");
    return query;
  };
  return {
    operationKind(params) {
      const prepared = handler.prepare(queryOf(params.query));
      return 'document' in prepared ? getOperationAST(prepared.document, params.operationName ?? undefined)?.operation : undefined;
    },
    async execute(params, c) {
      const query = queryOf(params.query);
      const prepared = handler.prepare(query);
      if (!('document' in prepared)) return { errors: prepared.errors, requestError: true };
      const context = options.context ? await options.context(c) : {};
      // The text, not the parsed document: the handler finds it in its cache without re-validating.
      // The request's signal aborts when the client disconnects: the run stops and its SQL is cancelled.
      return handler.execute(query, { context, variables: params.variables, operationName: params.operationName, signal: c.req.raw.signal });
    },
    graphiql:
      options.graphiql === false
        ? undefined
        : (urls) =>
            handler.getGraphiqlHtml({ ...urls, defaultQuery: options.defaultQuery ?? sampleQuery(handler.schema), app: options.name ?? handler.options.serviceName }),
  };
}

export function graphqlApp(handler: GraphQLHandler, options: GraphqlAppOptions = {}): Hono {
  const { path = '/graphql', nullErrors, bodyLimit, use, er } = options;
  const app = new Hono();
  if (er !== false && options.graphiql !== false) {
    let picture: ErPicture | undefined;
    // Built on first request: by then federation has declared its edges and the diagram is final.
    const build = () => (picture ??= erPicture(handler.diagram, { services: er?.services }));
    app.get(er?.path ?? erPathFor(path), (c) => erResponse(c, build, { graphiql: path }));
  }
  return mountGraphQL(app, handlerEndpoint(handler, options), { path, nullErrors, bodyLimit, use });
}
