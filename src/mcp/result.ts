/**
 * The one envelope every tool answers with, `{ success, data | error, error_type, hint? }`, sent
 * both as JSON text (for clients that only read text) and as `structuredContent`.
 */
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type ErrorType =
  | 'app_not_found'
  | 'operation_not_found'
  | 'ambiguous_name'
  | 'invalid_arguments'
  | 'invalid_format'
  | 'invalid_response_type'
  | 'invalid_variables'
  | 'wrong_operation_type'
  | 'graphql_error'
  | 'unauthorized'
  | 'rate_limited'
  | 'arguments_too_large'
  | 'internal_error';

export type ToolResult =
  | { success: true; data: unknown; error_type: null; hint?: string }
  | { success: false; error: string; error_type: ErrorType; hint?: string; [extra: string]: unknown };

/**
 * The envelope as every tool's `outputSchema`. Loose: a GraphQL failure also carries `errors`
 * and the partial `data`.
 */
export const resultSchema = z.looseObject({
  success: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().optional(),
  error_type: z.string().nullable(),
  hint: z.string().optional(),
});

/** `hint` on a success tells the agent something it should change, e.g. the v6 form of a v5 call. */
export const ok = (data: unknown, hint?: string): ToolResult => ({ success: true, data: data ?? null, error_type: null, ...(hint ? { hint } : {}) });

/** A value the agent sent, as an error names it: cut past 80 characters (arguments may be megabytes). */
export function quoted(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}… (${value.length} characters)` : value;
}

/** Longest error text or hint an envelope carries: what an agent sent is never echoed back in full. */
export const MAX_ERROR_CHARS = 4_000;
const clipped = (text: string) => (text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}… (${text.length - MAX_ERROR_CHARS} more characters)` : text);

export function fail(errorType: ErrorType, error: string, hint?: string, extra: Record<string, unknown> = {}): ToolResult {
  return { success: false, error, error_type: errorType, ...(hint ? { hint } : {}), ...extra };
}

/**
 * bigint written as its decimal string, as GraphQL's `BigInt` scalar sends it. Results of the
 * ergraph handler are already strings, but an app's handler is any `{ schema, execute }`, and
 * error extensions are free-form: a bigint there must not turn the answer into a thrown error.
 */
const bigintAsString = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

export function toCallToolResult(result: ToolResult): CallToolResult {
  // Every failure, whoever built it (compat's adapter too), is clipped here.
  if (!result.success) {
    result = { ...result, error: clipped(String(result.error)) };
    if (typeof result.hint === 'string') result.hint = clipped(result.hint);
  }
  const text = JSON.stringify(result, bigintAsString, 2);
  return {
    content: [{ type: 'text', text }],
    // Parsed back from the text so both carry the same JSON (the transport would throw on bigint).
    structuredContent: JSON.parse(text) as Record<string, unknown>,
    ...(result.success ? {} : { isError: true }),
  };
}
