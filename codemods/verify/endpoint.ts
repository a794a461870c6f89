/**
 * How `verify --url` talks to a server (issue 45.3). The production guard (guard.ts) approves the
 * origin of `--url`, and nothing else: every request goes to that origin or is not sent, a redirect
 * is refused (not followed, not even within the origin: the answer to a POST that moved is not the
 * answer of the endpoint the user named, and following one would carry a mutation wherever the
 * server points), and no answer is read past `--max-response-bytes`: the body is read through a
 * counter and the request aborted at the cap, so an endless or huge answer costs at most that much
 * memory.
 */
import { boundedText } from '../../src/schema/bounded-text.js';
import { redirectTarget } from '../../src/schema/redirect.js';
import type { NotRunCause } from './report.js';

/** The largest answer read from a server by default: 8 MiB, room for a large schema's introspection. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/** Why a request got no answer to compare, as the report counts it. */
export type EndpointFault = Extract<NotRunCause, 'redirected' | 'oversized' | 'failed'>;

export class EndpointError extends Error {
  constructor(message: string, readonly fault: EndpointFault) {
    super(message);
    this.name = 'EndpointError';
  }
}

export interface Answered {
  status: number;
  text: string;
}

/** A POST of JSON that follows no redirect (a 3xx is an error naming where it pointed), the answer at most `maxBytes`. */
export function originClient(base: string, maxBytes: number): (url: string, body: unknown) => Promise<Answered> {
  const origin = new URL(base).origin;
  return async (url, body) => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', 'x-client-name': 'ergraph-migrate verify' },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new EndpointError(
          `POST ${url} answered HTTP ${response.status}, a redirect to ${redirectTarget(response.headers.get('location'), url)}: ` +
            `verify follows no redirect and sends requests only to ${origin} (--url); give the address the server means as --url`,
          'redirected',
        );
      }
      const text = await boundedText(response.body, maxBytes);
      // boundedText cancelled the body at the cap, which drops the connection (the test counts what the server could send).
      if (text === undefined)
        throw new EndpointError(`POST ${url}: the answer is larger than ${maxBytes} bytes (--max-response-bytes): verify stopped reading it`, 'oversized');
      return { status: response.status, text };
    } catch (error) {
      if (error instanceof EndpointError) throw error;
      const e = error as Error;
      throw new EndpointError(`POST ${url}: ${e.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : e.message}`, 'failed');
    }
  };
}
