/**
 * Parsing for the TypeScript/JavaScript transforms. Only the syntax tree is needed (positions for
 * text edits), so a bare `SourceFile` is built: no program, no type checker, no file system.
 */
import { ts } from './typescript.js';
import { ParseError } from './result.js';
import { linkAndIndex } from './nodes.js';

/** Files the TypeScript-level transforms read. */
export const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

/**
 * How every script is parsed. JSDoc comments stay comments (no transform reads their tags, and
 * their errors are not syntax errors): building their nodes was a sixth of a parse's allocations.
 */
export const PARSE_OPTIONS: ts.CreateSourceFileOptions = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

export function scriptKindFor(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/**
 * `createSourceFile` never throws; it records syntax errors on an internal field that has been
 * stable for many TypeScript releases. Reading it avoids building a whole program per file.
 */
function syntaxErrors(sf: ts.SourceFile): readonly ts.DiagnosticWithLocation[] {
  return (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
}

/**
 * Parses `source` or throws `ParseError` naming the file, line and column of the first error.
 * The tree has no parent links: enough for readers of the top-level statements (module facts),
 * which the runner reads from every file, also those no step has work in.
 */
export function parseUnlinked(source: string, file: string, kind = scriptKindFor(file)): ts.SourceFile {
  const sf = ts.createSourceFile(file, source, PARSE_OPTIONS, false, kind);
  const [first] = syntaxErrors(sf);
  if (first) {
    const { line, character } = sf.getLineAndCharacterOfPosition(first.start);
    throw new ParseError(file, ts.flattenDiagnosticMessageText(first.messageText, '\n') + flowHint(source), line + 1, character + 1);
  }
  return sf;
}

/** Comments and blanks a file starts with, where a Flow pragma stands. */
const LEADING_COMMENTS = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;

/**
 * Flow types (Relay apps often have them) do not parse as TypeScript or JavaScript; TypeScript's
 * message alone ("Property or signature expected") does not say so.
 */
function flowHint(source: string): string {
  return /@flow\b/.test(LEADING_COMMENTS.exec(source)![0])
    ? ' (a Flow file: ergraph-migrate reads TypeScript and JavaScript; strip its Flow types first, or migrate it by hand)'
    : '';
}

/**
 * Parses `source` or throws `ParseError` naming the file, line and column of the first error.
 * The tree has its parent links, set by the walk that also indexes it for the transforms
 * (`linkAndIndex`) rather than by TypeScript's separate pass.
 */
export function parseSource(source: string, file: string, kind = scriptKindFor(file)): ts.SourceFile {
  const sf = parseUnlinked(source, file, kind);
  linkAndIndex(sf);
  return sf;
}

/**
 * Throws `ParseError` when `source` does not parse; the check on a transform's output. No parent
 * links are set: nothing walks this tree, so it costs less than `parseSource`.
 */
export function checkParses(source: string, file: string, kind = scriptKindFor(file)): void {
  const sf = ts.createSourceFile(file, source, PARSE_OPTIONS, false, kind);
  const [first] = syntaxErrors(sf);
  if (first) {
    const { line, character } = sf.getLineAndCharacterOfPosition(first.start);
    throw new ParseError(file, `output does not parse: ${ts.flattenDiagnosticMessageText(first.messageText, '\n')}`, line + 1, character + 1);
  }
}

/** 1-based line and column of a position, the convention of `ManualItem`. */
export function lineColumn(sf: ts.SourceFile, pos: number): { line: number; column: number } {
  const { line, character } = sf.getLineAndCharacterOfPosition(pos);
  return { line: line + 1, column: character + 1 };
}

export { ts };
