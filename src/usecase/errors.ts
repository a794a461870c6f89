import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Thrown by a service method (or a context extractor) to answer with a given HTTP status instead
 * of a 500: `throw new HttpError(404, 'task 7 not found')`.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Extra JSON fields merged into the error response body. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const CODES: Partial<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
};

/** The `error` field of a JSON error response for a status. */
export const errorCode = (status: number) => CODES[status] ?? (status >= 500 ? 'internal_error' : 'http_error');
