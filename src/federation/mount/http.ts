/**
 * Talking to members: JSON over HTTP with a timeout. Failures carry the service name and
 * address; callers turn them into a `FederationError` (mount time) or a field error (query time).
 */
import type { CircuitBreakerPolicy } from 'cockatiel';
import { boundedText } from '../../schema/bounded-text.js';
import { redirectTarget } from '../../schema/redirect.js';
import { memberError, type MemberErrorCode } from '../errors.js';

/** A member call's timeout when `federate()` names none, and the operation's budget allows it. */
export const DEFAULT_TIMEOUT_MS = 5_000;
/**
 * The largest answer read from a member: one that streams without end (or a multi-GB page) would
 * otherwise fill the mounter's memory before its timeout ends the call.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * The default member timeout: 5 s, and never more than half the operation's `limits.timeout`
 * (10 s by default), so a hung member fails its own fields while the operation still has the
 * time to answer with the rest of its data (issue 27). Equal timeouts lost the whole operation.
 */
export function defaultMemberTimeout(operationTimeout: number | false | undefined): number {
  return operationTimeout === false || operationTimeout === undefined ? DEFAULT_TIMEOUT_MS : Math.min(DEFAULT_TIMEOUT_MS, operationTimeout / 2);
}

export class MemberCallError extends Error {
  override name = 'MemberCallError';
  constructor(
    readonly code: MemberErrorCode,
    readonly service: string,
    readonly address: string,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(`service '${service}' at ${address}: ${detail}`);
  }

  toGraphQLError() {
    return memberError(this.code, this.service, this.address, this.detail, this.status ? { status: this.status } : {});
  }
}

export interface Member {
  service: string;
  /** Base address, no trailing slash: `http://127.0.0.1:4002`. */
  address: string;
  timeoutMs: number;
  /** The largest answer read; past it the call fails with `FEDERATION_MEMBER_BAD_RESPONSE`. */
  maxResponseBytes: number;
  /** Query-time calls go through it (breaker.ts); mount-time calls do not. */
  breaker?: CircuitBreakerPolicy;
}

/**
 * BigInt join keys travel as decimal strings: JSON has no 64-bit integers, and a JSON number
 * past 2^53 would lose digits. The member's BigInt scalar (and dto-batch) parse them back.
 */
const wire = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

export async function callMember(member: Member, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const url = member.address + path;
  let response: Response;
  try {
    response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body, wire),
      signal: AbortSignal.timeout(member.timeoutMs),
      // A member is the address the operator configured, nothing else: followed, a redirect
      // would send the call's keys and arguments to whatever host the member's answer named.
      redirect: 'manual',
    });
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const detail =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `no answer within ${member.timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new MemberCallError('FEDERATION_MEMBER_UNAVAILABLE', member.service, member.address, `${path}: ${detail}`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new MemberCallError(
      'FEDERATION_MEMBER_BAD_RESPONSE',
      member.service,
      member.address,
      `${path} answered HTTP ${response.status}, a redirect to ${redirectTarget(response.headers.get('location'), url)}: members' redirects are not followed (give federate() the address that answers)`,
      response.status,
    );
  }
  let text: string | undefined;
  try {
    text = await boundedText(response.body, member.maxResponseBytes);
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new MemberCallError(
      'FEDERATION_MEMBER_UNAVAILABLE',
      member.service,
      member.address,
      `${path}: ${timedOut ? `no answer within ${member.timeoutMs} ms` : (error as Error).message}`,
    );
  }
  if (text === undefined) {
    throw new MemberCallError(
      'FEDERATION_MEMBER_BAD_RESPONSE',
      member.service,
      member.address,
      `${path} answered HTTP ${response.status} with more than the ${member.maxResponseBytes} bytes allowed (federate({ maxResponseBytes }))`,
      response.status,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MemberCallError(
      'FEDERATION_MEMBER_BAD_RESPONSE',
      member.service,
      member.address,
      `${path} answered HTTP ${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`,
      response.status,
    );
  }
  return { status: response.status, json };
}
