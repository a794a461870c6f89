/**
 * Running transforms on text held in memory: one file, or a set of files sharing one scan pass.
 * The CLI runner and the tests both go through here, so what they see is the same.
 */
import { parse as parseGraphQL } from 'graphql';
import { append } from './lib/append.js';
import { checkParses, parseSource, SCRIPT_EXTENSIONS } from './lib/parse.js';
import { blockView, isSfc, scriptBlocks } from './lib/sfc.js';
import { Project, scanModule, type ModuleFacts } from './lib/project.js';
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
  } else if (/\.[cm]?[jt]sx?$/.test(file)) checkParses(output, file);
  else if (isSfc(file)) for (const block of scriptBlocks(output, file)) checkParses(blockView(output, block), file, block.kind);
  else if (/\.json$/.test(file)) {
    try {
      JSON.parse(output);
    } catch (e) {
      throw new ParseError(file, `output is not JSON: ${(e as Error).message}`);
    }
  }
}

export function scanFile<F>(transform: Transform<F>, source: string, file: string, options?: TransformOptions): F[] {
  return transform.scan ? transform.scan(source, file, options) : [];
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

function projectOf(files: ReadonlyMap<string, string>): Project {
  const facts: ModuleFacts[] = [];
  for (const [file, source] of files) {
    if (!SCRIPT_EXTENSIONS.some((e) => file.endsWith(e))) continue;
    try {
      facts.push(scanModule(parseSource(source, file)));
    } catch {
      // A file that does not parse is reported by the transform itself.
    }
  }
  return new Project(facts);
}

/**
 * One transform over a set of files: scan every file first (facts from all of them reach every
 * `apply`), then apply. Files the transform does not handle come back untouched without a result.
 */
export function applyToFiles<F>(
  transform: Transform<F>,
  files: ReadonlyMap<string, string>,
  given: TransformOptions = {},
): Map<string, FileOutcome> {
  // The files' own module graph (barrels, aliases), as the runner builds it, unless one is given.
  const options = given.project ? given : { ...given, project: projectOf(files) };
  const facts: F[] = [];
  const outcomes = new Map<string, FileOutcome>();
  for (const [file, source] of files) {
    if (!handles(transform, file)) continue;
    try {
      append(facts, scanFile(transform, source, file, options));
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
