/** Messages between the runner and its worker threads (structured-clone friendly). */
import { buildSchema, GraphQLSchema, printSchema } from 'graphql';
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

/**
 * Transform options cross to worker threads by structured clone, which a schema (v5-to-v6's
 * `--schema`) does not survive: it travels as SDL and is rebuilt on the other side.
 */
export function cloneableOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schema, ...rest } = options;
  return schema instanceof GraphQLSchema ? { ...rest, schemaSdl: printSchema(schema) } : options;
}

export function revivedOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schemaSdl, ...rest } = options;
  return typeof schemaSdl === 'string' ? { ...rest, schema: buildSchema(schemaSdl) } : options;
}
