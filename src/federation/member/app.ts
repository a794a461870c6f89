/**
 * `buildFederableApp(handler)`: the HTTP surface of a member (Hono).
 *
 *   POST /graphql                    the member's GraphQL (with the batch roots)
 *   GET  /ergraph/er-introspection   its ER graph
 *   GET  /ergraph/dto-introspection  its public DTOs        (only when it has some)
 *   POST /ergraph/dto-batch          public DTOs by join key (only when it has some)
 */
import { Hono, type Context as HonoContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { logToConsole, maskedError } from '../../graphql/masking.js';
import type { GraphQLHandler } from '../../graphql/handler.js';
import { DTO_BATCH_PATH, DTO_INTROSPECTION_PATH, ER_INTROSPECTION_PATH, PROTOCOL } from '../protocol.js';
import { describeDtos, dtoBatch, DtoBatchError } from './dtos.js';
import { erIntrospection } from './introspection.js';
import { setupMember, type MemberOptions } from './setup.js';

export interface FederableAppOptions extends MemberOptions {
  /** Builds the request context handed to query methods, loaders and resolvers. */
  context?: (request: Request) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Largest request body in bytes (default 1 MB); larger ones get 413. */
  bodyLimit?: number;
}

async function jsonBody(c: HonoContext): Promise<{ body: unknown } | { error: string }> {
  try {
    return { body: await c.req.json() };
  } catch {
    return { error: 'the body is not valid JSON' };
  }
}

export function buildFederableApp(handler: GraphQLHandler, options: FederableAppOptions = {}): Hono {
  const member = setupMember(handler, options);
  const contextOf = async (c: HonoContext) => (options.context ? await options.context(c.req.raw) : {});
  const app = new Hono();
  const maxSize = options.bodyLimit ?? 1024 * 1024;
  // Every POST of a member is bounded like the other HTTP surfaces (issue 13.2).
  app.post(
    '*',
    bodyLimit({ maxSize, onError: (c) => c.json({ protocol: PROTOCOL, error: `the request body is larger than ${maxSize} bytes` }, 413) }),
  );

  app.post('/graphql', async (c) => {
    const parsed = await jsonBody(c);
    if ('error' in parsed) return c.json({ data: null, errors: [{ message: parsed.error }] }, 400);
    const body = parsed.body as { query?: unknown; variables?: unknown; operationName?: unknown } | null;
    if (!body || typeof body.query !== 'string') {
      return c.json({ data: null, errors: [{ message: 'the body must be { query: string, variables?, operationName? }' }] }, 400);
    }
    const result = await handler.execute(body.query, {
      variables: (body.variables as Record<string, unknown> | null | undefined) ?? null,
      operationName: typeof body.operationName === 'string' ? body.operationName : null,
      context: await contextOf(c),
    });
    return c.json(result);
  });

  app.get(ER_INTROSPECTION_PATH, (c) => c.json(erIntrospection(handler, member)));

  if (member.dtos.size) {
    const described = describeDtos(member.dtos);
    app.get(DTO_INTROSPECTION_PATH, (c) => c.json({ protocol: PROTOCOL, service: member.service, dtos: described }));
    app.post(DTO_BATCH_PATH, async (c) => {
      const parsed = await jsonBody(c);
      if ('error' in parsed) return c.json({ protocol: PROTOCOL, error: parsed.error }, 400);
      try {
        return c.json(await dtoBatch(parsed.body, member.dtos, member.sources, handler.diagram, await contextOf(c)));
      } catch (error) {
        if (error instanceof DtoBatchError) return c.json({ protocol: PROTOCOL, error: error.message }, 400);
        // The text may carry SQL and parameters: the caller gets an id, the log the error.
        const masked = maskedError(error, handler.options.onError ?? logToConsole);
        return c.json({ protocol: PROTOCOL, error: `${member.service}: ${masked.message}` }, masked.code === 'BAD_USER_INPUT' ? 400 : 500);
      }
    });
  }
  return app;
}
