/**
 * The contract every upgrade step implements. The CLI (and `ergraph/migrate`) only talks to
 * transforms through this interface, so each transform stays a plain module with one job.
 */
import type { GraphQLSchema } from 'graphql';
import type { FileChanges } from './lib/changes.js';
import type { ImportFixes } from './lib/ergraph-imports.js';
import type { Script } from './lib/script.js';

/** Something a transform could not migrate safely: the text is left as is and marked. */
export interface ManualItem {
  /** 1-based line and column of the construct in the *input* text. */
  line: number;
  column: number;
  reason: string;
  /** The transform that left it (set when several steps share one pass over a file). */
  transform?: string;
}

export interface TransformResult {
  /** The new text; identical (===) to the input when nothing changed. */
  output: string;
  /** Places left for a human, each also marked `// TODO(ergraph-migrate): <reason>` in output. */
  manual: ManualItem[];
  /** Informational notes for the report (e.g. a derived relationship name). */
  notes: string[];
  /**
   * Places left for a later run rather than a human, not marked in the file: v5-to-v6 documents
   * when no v6 schema was found. Each reason says the exact next step.
   */
  pending?: ManualItem[];
  /** GraphQL documents left alone because none of their root fields belong to the given schema. */
  notForThisApi?: ManualItem[];
  /** Files the runner writes beside this one (v5-to-v6: a manifest's old id → new document mapping). */
  companions?: CompanionFile[];
  /** Set when the file is a persisted-query manifest: what the step did to it. */
  manifest?: ManifestSummary;
}

export type ManifestFormat = 'apollo' | 'relay';

/** What a run did to one persisted-query manifest, for the report. */
export interface ManifestSummary {
  format: ManifestFormat;
  operations: number;
  rewritten: number;
  /** The mapping file (path as the transform was given the manifest's), when anything was rewritten. */
  mapping?: string;
}

/**
 * A JSON file the runner writes beside the one a step migrated: its keys are merged into the
 * file's existing object (an earlier run's entries stay), and nothing is written when the
 * migrated file is not.
 */
export interface CompanionFile {
  /** Path as the step was given its file's (relative to it the same way). */
  file: string;
  json: Record<string, unknown>;
}

export interface TransformOptions {
  /** v5-to-v6: the v6 schema used to resolve flat root field names. */
  schema?: GraphQLSchema;
  /** v5-to-v6: several v6 schemas (a project with several diagrams); each document uses the one its root fields belong to. */
  schemas?: readonly GraphQLSchema[];
  /** The run's module graph (barrels, aliases), set by the runner; a transform alone sees one file. */
  project?: unknown;
  [key: string]: unknown;
}

/** Thrown by `scan`/`apply` when the input cannot be parsed; the file is left byte-identical. */
export class ParseError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line ? `:${line}:${column ?? 0}` : ''}: ${message}`);
    this.name = 'ParseError';
  }
}

/**
 * An option a transform cannot run without. Declared rather than discovered per file, so the
 * CLI and `runMigration` can refuse up front, before reading or writing anything.
 */
export interface RequiredOption {
  /** Key in `TransformOptions`, e.g. `schema`. */
  name: string;
  /** How the CLI takes it, e.g. `--schema <sdl|introspection.json|url>`. */
  flag: string;
  /** What the transform needs it for, shown in the error. */
  why: string;
}

export interface Transform<Fact = unknown> {
  /** CLI name, e.g. `v3-to-v4`. */
  name: string;
  /** Version labels the step goes from and to (`'3'`, `'4'`, `'5.4'`, `'5.5'`, `'6'`). */
  from: string;
  to: string;
  description: string;
  /** File endings this transform reads, e.g. `['.ts', '.tsx', '.js', '.mjs', '.graphql']`. */
  extensions: readonly string[];
  /**
   * For files the step recognises by content (JSON manifests among other JSON files): whether it
   * takes this one. A file no step claims is not read further nor listed in the report.
   */
  claims?(source: string, file: string): boolean;
  /** Options that must be set (not `undefined`) for any run; checked before any file is read. */
  requiredOptions?: readonly RequiredOption[];
  /**
   * Optional first pass over every file (may run in parallel workers). The facts of all files
   * are handed to every `apply` call: this is how a step moves a declaration into another file.
   */
  scan?(source: string, file: string, options?: TransformOptions): Fact[];
  apply(source: string, ctx: { file: string; facts: readonly Fact[]; options: TransformOptions }): TransformResult;
  /**
   * The same work on a script already parsed: the runner parses each file once and lets every
   * step of a chain add its edits to one `FileChanges`, so five steps cost one parse, not ten.
   */
  script?: ScriptStep<Fact>;
}

export interface ScriptStep<Fact = unknown> {
  /** Cheap text test: false means nothing for this step in the file (no parse on its behalf). */
  wants(source: string): boolean;
  scan?(script: Script): Fact[];
  apply(script: Script, ctx: { facts: readonly Fact[]; options: TransformOptions; changes: FileChanges }): void;
  /** What the step found besides edits (documents left alone), read after its edits are applied. */
  finish?(script: Script): Pick<TransformResult, 'pending' | 'notForThisApi'>;
  /** How the file's ergraph imports follow the step's edits (dropped, renamed, moved names). */
  imports?: ImportFixes | ((script: Script) => ImportFixes);
}
