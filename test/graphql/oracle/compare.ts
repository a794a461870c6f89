/**
 * The oracle's judgement: the compiled executor's answer against graphql-js's.
 *
 * `data` must be equal. Errors are compared as sets (the executors finish fields in different
 * orders) of message, path, locations and extensions, with masked errors' fresh ids replaced.
 * One difference is by design: once a position is nulled, the compiled executor stops the work
 * below it, while graphql-js still reports errors of work it had started there. So every error
 * of the compiled executor must be one of graphql-js's, and every error only graphql-js reports
 * must lie below a position that is null in the (equal) data.
 */
import { isDeepStrictEqual } from 'node:util';

interface Answer {
  data: unknown;
  errors: { message: string; path?: readonly (string | number)[] }[] | null;
}

const ERROR_ID = /\b[0-9a-f]{8}\b/g;

/** The answer as a client gets it (JSON), error ids made equal. */
export function normalize(result: unknown): Answer {
  return JSON.parse(JSON.stringify(result).replace(ERROR_ID, 'ERRORID')) as Answer;
}

const keyOf = (error: unknown) => JSON.stringify(error);

/** Whether the value at a proper prefix of `path` is null in `data` (or `data` itself is). */
function belowNull(data: unknown, path: readonly (string | number)[] | undefined): boolean {
  if (data === null) return true;
  if (!path) return false;
  let at: unknown = data;
  for (let i = 0; i < path.length - 1; i++) {
    at = (at as Record<string | number, unknown>)[path[i]!];
    if (at === null) return true;
    if (at === undefined) return false;
  }
  return false;
}

/** Why the two answers disagree, or undefined when they agree. */
export function disagreement(compiledResult: unknown, referenceResult: unknown): string | undefined {
  const compiled = normalize(compiledResult);
  const reference = normalize(referenceResult);
  if (!isDeepStrictEqual(compiled.data, reference.data)) return 'data differs';
  const left = new Map<string, number>();
  for (const e of reference.errors ?? []) left.set(keyOf(e), (left.get(keyOf(e)) ?? 0) + 1);
  for (const e of compiled.errors ?? []) {
    const n = left.get(keyOf(e));
    if (!n) return `the compiled executor reports an error graphql-js does not: ${keyOf(e)}`;
    left.set(keyOf(e), n - 1);
  }
  for (const e of reference.errors ?? []) {
    if (!left.get(keyOf(e))) continue;
    left.set(keyOf(e), left.get(keyOf(e))! - 1);
    if (!belowNull(reference.data, e.path)) return `graphql-js reports an error the compiled executor does not: ${keyOf(e)}`;
  }
  return undefined;
}
