/** Messages between the runner and its worker threads (structured-clone friendly). */
import { ParseError, type TransformResult } from '../types.js';

export type Task =
  | { id: number; op: 'scan'; transform: string; file: string; source: string }
  | { id: number; op: 'apply'; transform: string; file: string; source: string };

export type Control = { op: 'facts'; transform: string; facts: unknown[]; options: Record<string, unknown> };

export interface SerializedError {
  name: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export type Reply =
  | { id: number; facts: unknown[] }
  | { id: number; result: TransformResult }
  | { id: number; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof ParseError)
    return { name: error.name, message: error.message, file: error.file, line: error.line, column: error.column };
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message };
}

export function reviveError(e: SerializedError): Error {
  if (e.name === 'ParseError' && e.file !== undefined) {
    // The serialized message already carries the file and position prefix.
    const err = new ParseError(e.file, '', e.line, e.column);
    err.message = e.message;
    return err;
  }
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}
