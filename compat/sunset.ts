/**
 * Sunset enforcement for the v5 endpoint, the way GitHub and Stripe retire APIs:
 *
 * 1. before the Sunset date, headers only (`Deprecation`, `Sunset`, `Link`, set by the app);
 * 2. brownouts — configured windows, or a share of requests — answered with a GraphQL error that
 *    names the v6 replacement of each field the request used, so a client notices while there is
 *    still time (HTTP 200, as GraphQL-over-HTTP answers request errors for `application/json`);
 * 3. on and after the Sunset date, HTTP 410 Gone with the same message;
 * 4. requests the app's `exempt(request)` accepts are served throughout.
 *
 * `sunsetGate(compat, options, headers)` is Hono middleware for the endpoint's path: it answers
 * brownouts and 410s itself and otherwise lets the request through untouched.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { boundedText } from '../src/schema/bounded-text.js';
import type { CompatHandler, Deprecation } from './handler.js';

export interface BrownoutWindow {
  start: Date | string;
  end: Date | string;
}

export interface SunsetOptions {
  /** When the endpoint goes away: from then on, 410 Gone (and the `Sunset` header before). */
  sunset?: Date;
  /** Windows (before the sunset) in which every non-exempt request gets the brownout error. */
  brownouts?: readonly BrownoutWindow[];
  /** A share of non-exempt requests (0 to 1) that gets the brownout error before the sunset. */
  brownoutShare?: number;
  /**
   * Requests never browned out nor refused, decided by the app from the request: a credential it
   * checks, not a client name anyone can send in a header.
   */
  exempt?: (c: Context) => boolean | Promise<boolean>;
}

export interface SunsetGateOptions extends SunsetOptions {
  /** A migration guide, quoted in the error. */
  link?: string;
}

export class SunsetConfigError extends Error {
  override name = 'SunsetConfigError';
}

interface Window {
  start: number;
  end: number;
}

function toTime(value: Date | string, what: string): number {
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(t)) throw new SunsetConfigError(`${what} is not a valid date: ${JSON.stringify(String(value))}`);
  return t;
}

/** Checked once at startup, so a typo in a date fails the deploy, not the first request. */
export function checkSunsetOptions(options: SunsetOptions): { sunset: number | null; windows: Window[]; share: number } {
  const sunset = options.sunset ? toTime(options.sunset, 'sunset') : null;
  const windows = (options.brownouts ?? []).map((w, i) => {
    const start = toTime(w.start, `brownouts[${i}].start`);
    const end = toTime(w.end, `brownouts[${i}].end`);
    if (end <= start) throw new SunsetConfigError(`brownouts[${i}] ends (${new Date(end).toISOString()}) before it starts (${new Date(start).toISOString()})`);
    return { start, end };
  });
  const share = options.brownoutShare ?? 0;
  if (typeof share !== 'number' || !(share >= 0 && share <= 1)) {
    throw new SunsetConfigError(`brownoutShare must be a number from 0 to 1, got ${JSON.stringify(share)}`);
  }
  if (options.exempt !== undefined && typeof options.exempt !== 'function') {
    throw new SunsetConfigError('exempt must be a function of the request (c) => boolean: name no clients here, a header is not a credential');
  }
  return { sunset, windows, share };
}

const dateText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "Query.userGetAll → { User { getAll } } (User.getAll)", or a generic hint when unknown. */
export function replacementText(deprecations: readonly Deprecation[]): string {
  if (deprecations.length === 0) return 'Use the v6 grouped schema: a v5 field such as userGetAll is now { User { getAll } }.';
  return `Use the v6 schema instead: ${deprecations.map((d) => `${d.field} → ${d.usage} (${d.replacement})`).join('; ')}.`;
}

/** How much of a refused request's body is read to name its replacements; past this, the general hint. */
const MAX_HINT_BODY = 1024 * 1024;

/**
 * The GraphQL document and operation name of a refused request, if it carries them (errors only
 * cost the hint). This gate runs before any body limit of the app, so it reads at most 1 MB; the
 * request is answered here, so nothing after it needs the body.
 */
interface RequestedOperation {
  query?: string;
  operationName?: string;
  extensions?: Record<string, unknown>;
  documentId?: string;
}

function extensionsOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

async function requestedOperation(c: Context): Promise<RequestedOperation> {
  if (c.req.method === 'GET')
    return {
      query: c.req.query('query'),
      operationName: c.req.query('operationName'),
      extensions: extensionsOf(c.req.query('extensions')),
      documentId: c.req.query('documentId') ?? c.req.query('doc_id'),
    };
  try {
    const text = await boundedText(c.req.raw.body, MAX_HINT_BODY);
    if (text === undefined) return {};
    const body = JSON.parse(text) as { query?: unknown; operationName?: unknown; extensions?: unknown; documentId?: unknown; doc_id?: unknown };
    const documentId = body?.documentId ?? body?.doc_id;
    return {
      query: typeof body?.query === 'string' ? body.query : undefined,
      operationName: typeof body?.operationName === 'string' ? body.operationName : undefined,
      extensions: extensionsOf(body?.extensions),
      documentId: typeof documentId === 'string' ? documentId : undefined,
    };
  } catch {
    return {};
  }
}

export function sunsetGate(
  compat: Pick<CompatHandler, 'deprecationsOf'> & Partial<Pick<CompatHandler, 'persisted'>>,
  options: SunsetGateOptions,
  headers: Record<string, string> = {},
): MiddlewareHandler {
  const { sunset, windows, share } = checkSunsetOptions(options);
  const exempt = options.exempt;
  const guide = options.link ? ` Migration guide: ${options.link}` : '';
  if (sunset !== null && sunset <= Date.now()) {
    console.warn(
      `ergraph compat: the Sunset date ${new Date(sunset).toISOString()} has passed: the v5 endpoint answers 410 Gone to every request${exempt ? ' not exempted' : ''}`,
    );
  }
  if (sunset === null && windows.length === 0 && share === 0) return (_c, next) => next();

  return async (c, next) => {
    const t = Date.now();
    const gone = sunset !== null && t >= sunset;
    const brownout = !gone && (windows.some((w) => t >= w.start && t < w.end) || (share > 0 && Math.random() < share));
    if ((!gone && !brownout) || (exempt && (await exempt(c)))) return next();
    const requested = await requestedOperation(c);
    // A client sending only a persisted id is told what replaces its fields as well.
    const resolution = compat.persisted?.resolve(requested.query, requested.extensions, requested.documentId);
    const query = resolution && resolution.kind !== 'error' ? resolution.query : requested.query;
    const deprecations = query ? compat.deprecationsOf(query, requested.operationName) : [];
    const sunsetText = sunset !== null ? dateText(sunset) : null;
    const message = gone
      ? `The v5 GraphQL endpoint was retired on ${sunsetText}. ${replacementText(deprecations)}${guide}`
      : `Brownout: the v5 GraphQL endpoint is switched off for this request, as it will be for good${sunsetText ? ` on ${sunsetText}` : ''}. ${replacementText(deprecations)}${guide}`;
    const extensions = {
      code: gone ? 'V5_GONE' : 'V5_BROWNOUT',
      ...(sunsetText ? { sunset: new Date(sunset!).toISOString() } : {}),
      replacements: deprecations.map((d) => ({ field: d.field, replacement: d.replacement, usage: d.usage })),
    };
    return c.json({ data: null, errors: [{ message, extensions }] }, gone ? 410 : 200, headers);
  };
}
