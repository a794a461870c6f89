/** The runner's options and report (`runMigration`'s contract), and what each step did to a file. */
import type { GraphQLSchema } from 'graphql';
import type { CompanionFile, ManifestSummary, ManualItem, Transform, TransformOptions, TransformResult } from '../types.js';
import type { SkippedEntry } from './files.js';

export interface ResolvedSchema {
  schemas: GraphQLSchema[];
  /** Where it came from, for the console and the report. */
  source: string;
}

export interface MigrationOptions {
  /** Transforms (or their registered names) in the order to run them. */
  transforms: readonly (Transform | string)[];
  paths: readonly string[];
  cwd?: string;
  dryRun?: boolean;
  ignore?: readonly string[];
  /** Worker threads; `0` runs in this thread. Default: parallel only for large trees on machines with spare cores. */
  workers?: number;
  options?: TransformOptions;
  onProgress?: (done: number, total: number, step: string) => void;
  /** Only these files (absolute paths) are migrated; every file is still read for cross-file facts (`--since`). */
  only?: ReadonlySet<string>;
  /**
   * A file with more than one hard link is not rewritten in place (its other names would change
   * too) but reported; `true` writes it as a new file, breaking the link.
   */
  followHardlinks?: boolean;
  /** Leave out files git ignores (default true). */
  gitignore?: boolean;
  /**
   * Asked before v5-to-v6 when `options` carries no schema, with the texts as migrated so far
   * (after `upgrade`'s earlier steps): finds the v6 schema from the project itself.
   */
  resolveSchema?: (texts: ReadonlyMap<string, string>) => Promise<ResolvedSchema | undefined>;
  /**
   * Called once every file is settled and before any is written (never on a dry run), with the
   * report the run will return: the changed files are the ones about to be written. Throwing stops
   * the run with nothing written (the CLI's git guard).
   */
  beforeWrite?: (report: MigrationReport) => void | Promise<void>;
  /**
   * Stops the writes (the CLI aborts it on SIGINT/SIGTERM): the file being written, with its
   * mapping, is finished; the files not reached are left as they are and reported as skipped, and
   * `MigrationReport.stopped` holds the abort reason.
   */
  signal?: AbortSignal;
  /** Called after each file (with its mapping) is written, with its absolute path; awaited before the next. */
  onWritten?: (abs: string) => void | Promise<void>;
}

export interface FileReport {
  /** Path relative to `cwd`, with `/` separators. */
  file: string;
  changed: boolean;
  transforms: string[];
  manual: (ManualItem & { transform: string })[];
  notes: string[];
  /** v5-to-v6 documents left for a run with a schema; each reason is the next step. */
  pending: (ManualItem & { transform: string })[];
  /** GraphQL documents for another API, left alone. */
  notForThisApi: (ManualItem & { transform: string })[];
  error?: string;
  before: string;
  after: string;
  /** A persisted-query manifest: its format, how many operations were rewritten, and its mapping file (relative to `cwd`). */
  manifest?: ManifestSummary;
  /** Written beside a migrated file (a manifest's mapping): the file it belongs to, relative to `cwd`. */
  companionOf?: string;
}

export interface MigrationReport {
  transforms: string[];
  dryRun: boolean;
  files: FileReport[];
  /** Entries not read or not written: links, special files, unreadable or non-UTF-8 files, hard-linked files. */
  skipped: SkippedEntry[];
  /** Where the v6 schema came from (v5-to-v6), or why there was none. */
  schemaSource?: string;
  /** Set when `signal` stopped the writes part-way (its reason, e.g. `SIGTERM`): only the files reported as changed were written. */
  stopped?: string;
  summary: {
    files: number;
    /** Scanned files changed (files written beside them, such as manifest mappings, are `companions`). */
    changed: number;
    companions: number;
    manual: number;
    errors: number;
    pending: number;
    notForThisApi: number;
    skipped: number;
    ignored: number;
    seconds: number;
  };
}

export interface StepOutcome {
  transform: string;
  result?: TransformResult;
  error?: Error;
  /** In the shared pass every step reports the combined text: this says whether this step edited it. */
  changed?: boolean;
}

/** Per file: what each step did, in order. */
export type Outcomes = Map<string, StepOutcome[]>;
