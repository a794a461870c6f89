/**
 * Context values read from request headers, declared where they are read: `headerContext` is a
 * `contextExtractor` that also tells the OpenAPI document which header feeds which `FromContext`
 * argument, so the docs page can send it ("Try it out") and clients know to.
 *
 *   contextExtractor: headerContext({ userId: { header: 'x-user-id', parse: Number } })
 *
 * A hand-written extractor keeps its code and only declares the headers it reads:
 * `headerContext({ userId: 'x-user-id' }, (request) => ...)`.
 */
import type { ContextExtractor, RequestContext } from './service.js';

export interface HeaderSource {
  /** The request header (case-insensitive). */
  header: string;
  /** Turns the header's text into the value (default: the text itself); may throw `HttpError`. */
  parse?: (text: string) => unknown;
  /** Shown in the OpenAPI document. */
  description?: string;
}

const HEADERS = Symbol.for('ergraph.contextHeaders');

/** The headers an extractor declared, by context key (none for a plain function). */
export function contextHeaders(extractor: ContextExtractor | undefined): ReadonlyMap<string, HeaderSource> {
  return (extractor as { [HEADERS]?: Map<string, HeaderSource> } | undefined)?.[HEADERS] ?? new Map();
}

export function headerContext(
  sources: Record<string, string | HeaderSource>,
  extract?: ContextExtractor,
): ContextExtractor {
  const declared = new Map(
    Object.entries(sources).map(([key, source]) => [key, typeof source === 'string' ? { header: source } : source] as const),
  );
  const read: ContextExtractor = (request) => {
    const context: RequestContext = {};
    for (const [key, { header, parse }] of declared) {
      const text = request.headers.get(header);
      if (text !== null) context[key] = parse ? parse(text) : text;
    }
    return context;
  };
  const extractor: ContextExtractor = extract ? (request, c) => extract(request, c) : read;
  Object.defineProperty(extractor, HEADERS, { value: declared });
  return extractor;
}
