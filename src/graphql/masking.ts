/**
 * What an unexpected error may tell a client: nothing of its text. A resolver, a loader or the
 * database can fail with SQL, parameters or a stack in the message (drizzle's "Failed query: ...
 * params: ..."); clients get a fixed message with an id, and the server's log gets the full error
 * under the same id. Errors meant for clients pass unchanged: `GraphQLError`s (parse, validation,
 * limits, `BAD_USER_INPUT`, federation faults, and any a method throws on purpose).
 *
 * Bad input the database refuses (SQLSTATE classes 22 "data exception" and 23 "integrity
 * constraint violation": a number out of range, a NUL byte in text, a missing referenced row)
 * is the client's fault, so it is told which kind — still without the database's text.
 */
import { randomUUID } from 'node:crypto';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/** Where the full error goes: the server's log. `id` is the one the client was given. */
export type ErrorLogger = (error: unknown, id: string) => void;

export const logToConsole: ErrorLogger = (error, id) => console.error(`[ergraph] error ${id}:`, error);

/** A short id a client can quote and an operator can find in the log. */
export const newErrorId = (): string => randomUUID().slice(0, 8);

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The SQLSTATE of a database error, looking through wrappers (`cause`), or undefined. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code)) return code;
  }
  return undefined;
}

const INPUT_ERRORS: Record<string, string> = {
  '22001': 'a string is longer than its column allows',
  '22003': 'a number is out of range',
  '22007': 'a date or time has the wrong format',
  '22008': 'a date or time is out of range',
  '22021': 'a string contains a character the database cannot store (such as a NUL byte)',
  '22P02': 'a value has the wrong format',
  '22P05': 'a string contains a character the database cannot store (such as a NUL byte)',
  '23502': 'a required value is missing',
  '23503': 'a referenced record does not exist',
  '23505': 'a record with the same unique value already exists',
  '23514': 'a value breaks a check constraint',
};

/** The client-safe description of bad input the database refused, or undefined when it is not that. */
export function inputErrorOf(error: unknown): { sqlState: string; message: string } | undefined {
  const state = sqlStateOf(error);
  if (!state || !(state.startsWith('22') || state.startsWith('23'))) return undefined;
  return { sqlState: state, message: INPUT_ERRORS[state] ?? (state.startsWith('22') ? 'a value is invalid' : 'a constraint is violated') };
}

/** The text and code a client gets for an error that was not meant for it; the full error is logged. */
export function maskedError(error: unknown, log: ErrorLogger): { message: string; code: string; id: string; sqlState?: string } {
  const id = newErrorId();
  log(error, id);
  const input = inputErrorOf(error);
  if (input) return { message: `Invalid input: ${input.message} (error id ${id})`, code: 'BAD_USER_INPUT', id, sqlState: input.sqlState };
  return { message: `Internal server error (error id ${id})`, code: 'INTERNAL_SERVER_ERROR', id };
}

/** A GraphQL error as the client sees it: unchanged when meant for clients, masked otherwise. */
/**
 * graphql-js reports broken result contracts with plain Errors of its own (a resolver returned
 * null for a non-null field, or no list for a list). Their text holds only schema coordinates and
 * tells the client which field failed, so they pass; the compiled executor raises the same texts
 * as GraphQLErrors, and both executors must answer alike.
 */
const EXECUTION_CONTRACT = /^(Cannot return null for non-nullable field [_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*\.|Expected Iterable, but did not find one for field "[_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*"\.)$/;

export function formatError(error: GraphQLError, log: ErrorLogger): GraphQLFormattedError {
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error.toJSON();
  if (original.constructor === Error && EXECUTION_CONTRACT.test(original.message)) return error.toJSON();
  // A GraphQLError from another copy of graphql (a second module instance) is still meant for clients.
  if (original.name === 'GraphQLError' && 'extensions' in original) return error.toJSON();
  const masked = maskedError(original, log);
  const extensions: Record<string, unknown> = { code: masked.code, errorId: masked.id };
  if (masked.sqlState) extensions.sqlState = masked.sqlState;
  return new GraphQLError(masked.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions }).toJSON();
}
