/**
 * The oracle's judgement: the compiled executor's answer against graphql-js's.
 *
 * `data` must be equal. Errors are compared as multisets of message, path, locations and
 * extensions (the executors finish fields in different orders), masked errors' fresh ids made
 * equal — except errors below a position that is null in the (equal) data: which of those a
 * client gets is a race in graphql-js itself. Once a non-null error bubbles up to a position,
 * graphql-js reports whatever else below it settled before the response was built, and the
 * compiled executor stops the work below it at once; when `data` is null that is every error.
 * Both sides must then still report at least one error.
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

/** Errors not below a nulled position, as sorted JSON. */
const fixedErrors = (answer: Answer) =>
  (answer.errors ?? [])
    .filter((e) => !belowNull(answer.data, e.path))
    .map((e) => JSON.stringify(e))
    .sort();

/** Why the two answers disagree, or undefined when they agree. */
export function disagreement(compiledResult: unknown, referenceResult: unknown): string | undefined {
  const compiled = normalize(compiledResult);
  const reference = normalize(referenceResult);
  if (!isDeepStrictEqual(compiled.data, reference.data)) return 'data differs';
  const [mine, theirs] = [fixedErrors(compiled), fixedErrors(reference)];
  const extra = mine.filter((e) => !theirs.includes(e));
  if (extra.length) return `the compiled executor reports errors graphql-js does not: ${extra.join(', ')}`;
  const missing = theirs.filter((e) => !mine.includes(e));
  if (missing.length || mine.length !== theirs.length) return `graphql-js reports errors the compiled executor does not: ${missing.join(', ')}`;
  if (compiled.data === null && !compiled.errors?.length) return 'data is null without an error';
  return undefined;
}
