/**
 * The contract every upgrade step implements. The CLI (and the `ergraph-migrate` API) only talks to
 * transforms through this interface, so each transform stays a plain module with one job.
 */
import type { GraphQLSchema } from 'graphql';
import type { FileChanges } from './lib/changes.js';
import type { ImportFixes } from './lib/import-fixes.js';
import type { TransformResult } from './lib/result.js';
import type { Script } from './lib/script.js';

export { ParseError, type CompanionFile, type ManifestFormat, type ManifestSummary, type ManualItem, type TransformResult } from './lib/result.js';

export interface TransformOptions {
  /** v5-to-v6: the v6 schema used to resolve flat root field names. */
  schema?: GraphQLSchema;
  /** v5-to-v6: several v6 schemas (a project with several diagrams); each document uses the one its root fields belong to. */
  schemas?: readonly GraphQLSchema[];
  /** The run's module graph (barrels, aliases), set by the runner; a transform alone sees one file. */
  project?: unknown;
  /** Set by the runner under `--since`: the files it writes; the others are read for cross-file facts only. */
  writing?: ReadonlySet<string>;
  /** Set by the worker pool for a step after one that changed files in memory: what is on disk is older than the run's texts. */
  diskBehind?: boolean;
  /**
   * The file is migrated alone, as a jscodeshift transform (`jscodeshift/`): what only a whole run
   * knows (the v6 schema found from the project) is marked `TODO(ergraph-migrate)` for
   * `ergraph-migrate` to do, rather than left for a later run.
   */
  alone?: boolean;
  [key: string]: unknown;
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

/** A step's identity: what the CLI lists and `upgrade` chains by, known without loading the step. */
export type StepMeta = Pick<Transform, 'name' | 'from' | 'to' | 'description'>;

export interface ScriptStep<Fact = unknown> {
  /** Cheap text test: false means nothing for this step in the file (no parse on its behalf). */
  wants(source: string): boolean;
  /**
   * A narrower text test for one run, from every text its segment reads: for a step whose work in
   * a file depends on what another file says. It must want every file where `wants` would lead to
   * an edit, a note or a fact in that run; the runner uses it in place of `wants`.
   */
  wantsInRun?(texts: Iterable<string>): (source: string) => boolean;
  /**
   * Work on every script of a run at once before their scans (the runner's shared pass; the
   * worker pool and a step run alone skip it): what it leaves on the trees must be what `scan`
   * and `apply` would compute for themselves, only cheaper together.
   */
  prepare?(scripts: readonly Script[], options: TransformOptions): void;
  /** `options` is the run's (the v6 schema, the module graph), in the worker pool too. */
  scan?(script: Script, options?: TransformOptions): Fact[];
  /**
   * Files the facts give this step work in that its text test passes over (a function another
   * file hands an operation's result to): the runner applies the step to them too.
   */
  touches?(facts: readonly Fact[], options: TransformOptions): ReadonlySet<string>;
  apply(script: Script, ctx: { facts: readonly Fact[]; options: TransformOptions; changes: FileChanges }): void;
  /** What the step found besides edits (documents left alone), read after its edits are applied. */
  finish?(script: Script): Pick<TransformResult, 'pending' | 'notForThisApi'>;
  /** How the file's ergraph imports follow the step's edits (dropped, renamed, moved names). */
  imports?: ImportFixes | ((script: Script) => ImportFixes);
}
