/**
 * A circuit breaker per mounted member (cockatiel): after `failures` consecutive calls that
 * could not reach the member (timeout, refused connection, an answer that is not JSON), calls
 * to it fail at once for `halfOpenAfterMs`; then a single call probes it — the others keep
 * failing fast meanwhile instead of queueing behind the probe — and its success closes the
 * circuit again. A hung member then costs one timeout per window instead of one per request.
 *
 * cockatiel rather than opossum: typed, no dependencies and no install scripts, and it wraps
 * any async call (opossum wraps a function and brings its own timeout, which `callMember`
 * already has). Version 3 because 4 needs Node 22.
 */
import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitState,
  ConsecutiveBreaker,
  handleType,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { FederationError } from '../errors.js';
import { MemberCallError, type Member } from './http.js';

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit (default 3). */
  failures?: number;
  /** How long the circuit stays open before one call probes the member (default 10 s). */
  halfOpenAfterMs?: number;
}

export const DEFAULT_FAILURES = 3;
export const DEFAULT_HALF_OPEN_AFTER_MS = 10_000;

/** The breaker for one member, or undefined when disabled (`circuitBreaker: false`). */
export function memberBreaker(options: CircuitBreakerOptions | false | undefined): CircuitBreakerPolicy | undefined {
  if (options === false) return undefined;
  const failures = options?.failures ?? DEFAULT_FAILURES;
  const halfOpenAfter = options?.halfOpenAfterMs ?? DEFAULT_HALF_OPEN_AFTER_MS;
  if (!Number.isSafeInteger(failures) || failures < 1) {
    throw new FederationError(`federate(): circuitBreaker.failures must be a positive integer, got ${String(failures)}`);
  }
  if (!Number.isFinite(halfOpenAfter) || halfOpenAfter <= 0) {
    throw new FederationError(`federate(): circuitBreaker.halfOpenAfterMs must be positive, got ${String(halfOpenAfter)}`);
  }
  // Only failures to reach the member count: a member answering GraphQL errors is up.
  return circuitBreaker(handleType(MemberCallError), { halfOpenAfter, breaker: new ConsecutiveBreaker(failures) });
}

function openError(member: Member, probing: boolean): MemberCallError {
  const detail = probing
    ? 'it kept failing and is being probed; failing fast until the probe answers'
    : 'it kept failing; calls fail fast until the circuit half-opens';
  return new MemberCallError('FEDERATION_MEMBER_UNAVAILABLE', member.service, member.address, detail);
}

/** Run a call to `member` through its breaker (as is when it has none). */
export async function guarded<T>(member: Member, call: () => Promise<T>): Promise<T> {
  const breaker = member.breaker;
  if (!breaker) return call();
  if (breaker.state === CircuitState.HalfOpen) throw openError(member, true);
  try {
    return await breaker.execute(call);
  } catch (error) {
    if (error instanceof BrokenCircuitError) throw openError(member, false);
    throw error;
  }
}
