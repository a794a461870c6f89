/** Messages between the runner and its worker threads (structured-clone friendly). */
import { buildSchema, GraphQLSchema, printSchema } from 'graphql';
import { Project, type ModuleFacts } from '../lib/project.js';
import { ParseError, type TransformResult } from '../types.js';

export type Task =
  | { id: number; op: 'scan'; transform: string; file: string; source: string }
  | { id: number; op: 'apply'; transform: string; file: string; source: string };

/**
 * A step's options go to every worker before its scan (v5-to-v6's scan needs the schema and the
 * module graph to record what other files read), its facts after the scan, before the apply.
 */
export type Control =
  | { op: 'options'; transform: string; options: Record<string, unknown> }
  | { op: 'facts'; transform: string; facts: unknown[] };

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
 * Transform options cross to worker threads by structured clone, which schemas (v5-to-v6) and the
 * module graph do not survive: schemas travel as SDL, the graph as its plain facts.
 */
export function cloneableOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schema, schemas, project, ...rest } = options;
  const out: Record<string, unknown> = { ...rest };
  const all = [...(schema instanceof GraphQLSchema ? [schema] : []), ...((schemas as GraphQLSchema[] | undefined) ?? [])];
  if (all.length > 0) out.schemaSdls = all.map((s) => printSchema(s));
  if (project instanceof Project) out.projectFacts = project.allFacts();
  return out;
}

export function revivedOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { schemaSdls, projectFacts, ...rest } = options;
  const out: Record<string, unknown> = { ...rest };
  if (Array.isArray(schemaSdls)) out.schemas = schemaSdls.map((sdl: string) => buildSchema(sdl));
  if (Array.isArray(projectFacts)) out.project = new Project(projectFacts as ModuleFacts[]);
  return out;
}
