/**
 * Running transforms on text held in memory: one file, or a set of files sharing one scan pass.
 * The CLI runner and the tests both go through here, so what they see is the same.
 */
import { parse as parseGraphQL } from 'graphql';
import { parseSource } from './lib/parse.js';
import { ParseError, type Transform, type TransformOptions, type TransformResult } from './types.js';

export interface FileOutcome {
  file: string;
  source: string;
  result?: TransformResult;
  error?: Error;
}

export function handles(transform: Transform, file: string): boolean {
  return transform.extensions.some((ext) => file.endsWith(ext));
}

/** Output must parse; a transform that breaks a file is a bug, reported rather than written. */
export function assertParses(output: string, file: string): void {
  if (/\.(graphql|gql)$/.test(file)) {
    try {
      parseGraphQL(output);
    } catch (e) {
      throw new ParseError(file, `output does not parse: ${(e as Error).message}`);
    }
  } else if (/\.[cm]?[jt]sx?$/.test(file)) {
    try {
      parseSource(output, file);
    } catch (e) {
      throw new ParseError(file, `output does not parse: ${(e as Error).message}`);
    }
  }
}

export function scanFile<F>(transform: Transform<F>, source: string, file: string): F[] {
  return transform.scan ? transform.scan(source, file) : [];
}

export function applyFile<F>(
  transform: Transform<F>,
  source: string,
  file: string,
  facts: readonly F[],
  options: TransformOptions = {},
  /** The runner turns this off between chained steps and checks each file's final text once. */
  verify = true,
): FileOutcome {
  try {
    const result = transform.apply(source, { file, facts, options });
    if (verify && result.output !== source) assertParses(result.output, file);
    return { file, source, result };
  } catch (error) {
    return { file, source, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** One transform on one file; its own scan supplies the facts unless some are given. */
export function applyTransform<F>(
  transform: Transform<F>,
  source: string,
  file = 'input.ts',
  options: TransformOptions = {},
  facts?: readonly F[],
): TransformResult {
  const outcome = applyFile(transform, source, file, facts ?? scanFile(transform, source, file), options);
  if (outcome.error) throw outcome.error;
  return outcome.result as TransformResult;
}

/**
 * One transform over a set of files: scan every file first (facts from all of them reach every
 * `apply`), then apply. Files the transform does not handle come back untouched without a result.
 */
export function applyToFiles<F>(
  transform: Transform<F>,
  files: ReadonlyMap<string, string>,
  options: TransformOptions = {},
): Map<string, FileOutcome> {
  const facts: F[] = [];
  const outcomes = new Map<string, FileOutcome>();
  for (const [file, source] of files) {
    if (!handles(transform, file)) continue;
    try {
      facts.push(...scanFile(transform, source, file));
    } catch (error) {
      outcomes.set(file, { file, source, error: error as Error });
    }
  }
  for (const [file, source] of files) {
    if (!handles(transform, file)) outcomes.set(file, { file, source });
    else if (!outcomes.has(file)) outcomes.set(file, applyFile(transform, source, file, facts, options));
  }
  return outcomes;
}
