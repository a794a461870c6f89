/**
 * Comments of code a transform splits or moves: found in a range, and re-indented for the place
 * they go to, so each stays with the code it describes (issue 26: nothing is lost).
 */
import { ts } from './parse.js';

export interface Range {
  start: number;
  end: number;
}

/** Every comment between `start` and `end` of `source`. */
export function commentsIn(source: string, start: number, end: number): Range[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source, undefined, start, end - start);
  const found: Range[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan())
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia)
      found.push({ start: scanner.getTokenStart(), end: scanner.getTokenEnd() });
  return found;
}

/** The comments on the lines above a node (not one ending the previous line). */
export function leadingComments(node: ts.Node, sf: ts.SourceFile): Range[] {
  return (ts.getLeadingCommentRanges(sf.text, node.pos) ?? []).map((c) => ({ start: c.pos, end: c.end }));
}

/** A JSDoc block moved elsewhere: its ` * ` lines line up under its new first line. */
export function reindented(comment: string, indent: string): string {
  const lines = comment.split(/\r?\n/);
  if (lines.length === 1 || !lines.slice(1).every((l) => /^\s*\*/.test(l))) return comment;
  const eol = comment.includes('\r\n') ? '\r\n' : '\n';
  return [lines[0], ...lines.slice(1).map((l) => l.replace(/^\s*/, `${indent} `))].join(eol);
}
