/**
 * `createUseCaseRouter(config)`: one `POST /api/<service_snake_case>/<method>` route per service
 * operation, plus `GET /openapi.json` and the `GET /docs` page. Each request goes through the
 * same steps: context, body, arguments, call, result check.
 */
import { Hono, type Context as HonoContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { maskedError } from '../graphql/masking.js';
import { withRequestSignal } from '../resolver/cancel.js';
import type { z } from 'zod';
import { buildOpenApi } from './openapi.js';
import { docsRoutes } from './docs.js';
import { errorCode, HttpError } from './errors.js';
import { describeField } from '../er/schema.js';
import { toModel, type AnyModelClass } from '../er/model.js';
import { serializeResult } from './serialize.js';
import { coerceBigInts, jsonSafe } from './bigint.js';
import { serviceRoutes, type RequestContext, type ServiceRoute, type UseCaseAppConfig } from './service.js';

type Step<T> = { ok: true; value: T } | { ok: false; response: Response };

/** `application/json` or any `+json` type. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

async function readJson(c: HonoContext): Promise<Step<unknown>> {
  const text = await c.req.text();
  // No body at all is an empty argument object, so methods without arguments need none.
  if (text.trim() === '') return { ok: true, value: {} };
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type)) {
    const message = `request bodies must be application/json, got ${type || 'no content type'}`;
    return { ok: false, response: c.json({ error: 'unsupported_media_type', message }, 415) };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = `the request body is not valid JSON: ${(error as Error).message}`;
    return { ok: false, response: c.json({ error: 'invalid_json', message }, 400) };
  }
}

function failure(c: HonoContext, error: unknown, route: ServiceRoute, config: UseCaseAppConfig): Response {
  if (error instanceof HttpError) {
    return c.json({ error: errorCode(error.status), message: error.message, ...error.details }, error.status);
  }
  // Exception text and stacks may carry internals (SQL, parameters): the client gets the kind of
  // failure and an id, the log (onError) the error under that id. Input the database refused
  // (a number out of range, a missing referenced row) is the client's to fix: 400.
  const masked = maskedError(error, (e, id) => config.onError(withId(e, id), route));
  if (masked.code === 'BAD_USER_INPUT') {
    return c.json({ error: 'bad_request', message: `${route.label}: ${masked.message}`, error_id: masked.id, sql_state: masked.sqlState }, 400);
  }
  return c.json({ error: 'internal_error', message: `${route.label} failed (error id ${masked.id})`, error_id: masked.id }, 500);
}

/** The logged error names the id the client was given. */
function withId(error: unknown, id: string): unknown {
  if (error instanceof Error) return Object.assign(error, { errorId: id });
  return { error, errorId: id };
}

async function arguments_(c: HonoContext, route: ServiceRoute, models: ModelArgs, context: RequestContext): Promise<Step<object>> {
  const raw = await readJson(c);
  if (!raw.ok) return raw;
  // JSON has no bigint: `z.bigint()` args arrive as decimal strings (or safe integers), as in GraphQL.
  const body = route.body.safeParse(coerceBigInts(route.body, raw.value));
  if (!body.success) {
    return {
      ok: false,
      // Issues of bigint checks carry bigint bounds (`maximum: 10n`), which c.json cannot write.
      response: c.json({ error: 'validation_error', message: `invalid arguments for ${route.label}`, issues: jsonSafe(body.error.issues) }, 400),
    };
  }
  const fromContext = route.fromContext.safeParse(context);
  if (!fromContext.success) {
    const keys = Object.keys(route.fromContext.shape).join(', ');
    return {
      ok: false,
      response: c.json(
        { error: 'context_error', message: `${route.label} needs ${keys} from the request context`, issues: jsonSafe(fromContext.error.issues) },
        400,
      ),
    };
  }
  // Context values win: a body can never set an argument declared FromContext.
  return { ok: true, value: instantiate(models, { ...body.data, ...fromContext.data }) };
}

/** The model-typed arguments of a route: `[name, model thunk, list]`, read once per route. */
type ModelArgs = ReadonlyArray<readonly [string, () => AnyModelClass, boolean]>;

function modelArgs(route: ServiceRoute): ModelArgs {
  return Object.entries(route.operation.args).flatMap(([key, schema]) => {
    const { model, list } = describeField(schema as z.ZodType);
    return model ? [[key, model, list] as const] : [];
  });
}

/** Model-typed arguments arrive as JSON objects; the method gets instances, as its types say. */
function instantiate(models: ModelArgs, args: Record<string, unknown>): Record<string, unknown> {
  for (const [key, model, list] of models) {
    const value = args[key];
    if (value === null || value === undefined) continue;
    args[key] = list && Array.isArray(value) ? value.map((v) => toModel(model(), v)) : toModel(model(), value);
  }
  return args;
}

function handle(route: ServiceRoute, config: UseCaseAppConfig) {
  const models = modelArgs(route);
  const mismatch = `${route.label} returned a value that does not match its declared return type`;
  return async (c: HonoContext) => {
    let context: RequestContext;
    try {
      context = await config.contextExtractor(c.req.raw, c);
    } catch (error) {
      return failure(c, error, route, config);
    }
    const args = await arguments_(c, route, models, context);
    if (!args.ok) return args.response;
    let result: unknown;
    const signal = c.req.raw.signal;
    try {
      // The request's signal aborts when the client goes away: the method gets it as a query
      // method does under GraphQL (third argument), and a Resolver it makes is cancelled by it.
      result = await withRequestSignal(signal, () => route.operation.fn.call(route.service, args.value, context, { signal, context }));
    } catch (error) {
      // A client that went away cancelled the work: nothing failed, so nothing is logged, and
      // nobody reads the answer (499, nginx's "client closed request", for access logs).
      if (signal.aborted) return c.json({ error: 'client_closed_request' }, 499 as ContentfulStatusCode);
      return failure(c, error, route, config);
    }
    const out = serializeResult(route.operation.returns(), result);
    if (!out.ok) {
      config.onError(new Error(mismatch), route);
      return c.json({ error: 'response_validation_error', message: mismatch, issues: jsonSafe(out.issues) }, 500);
    }
    return c.json(out.value as object | null);
  };
}

export interface UseCaseRouterOptions {
  /** Largest request body in bytes (default 1 MB); larger ones get 413. */
  bodyLimit?: number;
}

/** The Hono app serving a use-case app's routes, its OpenAPI document and its docs page. */
export function createUseCaseRouter(config: UseCaseAppConfig, options: UseCaseRouterOptions = {}): Hono {
  const routes = serviceRoutes(config);
  const app = new Hono();
  const maxSize = options.bodyLimit ?? 1024 * 1024;
  const tooLarge = bodyLimit({
    maxSize,
    onError: (c) => c.json({ error: 'payload_too_large', message: `the request body is larger than ${maxSize} bytes` }, 413),
  });
  for (const route of routes) {
    app.post(route.path, tooLarge, handle(route, config));
    // Every operation is a POST (spec 3); another method on its path is a 405 naming it, not a 404.
    app.on(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'], route.path, (c) =>
      c.json({ error: 'method_not_allowed', message: `${route.label} is served by POST ${route.path}` }, 405, { Allow: 'POST' }),
    );
  }
  // Built now, so a bad declaration (two models sharing a name, a return thunk that throws)
  // fails at startup rather than on the first request.
  const openapi = buildOpenApi(config, routes);
  app.get('/openapi.json', (c) => c.json(openapi));
  app.route('/', docsRoutes(config.name));
  return app;
}
