/**
 * What a transform answers for one file: the new text, the places left for a human, and what the
 * runner writes or reports beside it. Below the transform contract (`../types.ts`, which
 * re-exports it), so the helpers that build a result need not import the contract.
 */

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
