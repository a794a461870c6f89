/**
 * The file's quote and semicolon style, kept in every line a transform writes. Transforms write
 * new code one way (single quotes, semicolons); `styleEdits` rewrites the code of their edits to
 * the style the project's formatter settings ask for (`style-config.ts`), else to the one most
 * of the file's own strings and statements are written in. Edits inside strings, templates
 * (GraphQL documents) and comments are text, not code, and are left as they are.
 */
import type { Edit } from '../../compat/v6-form/edits.js';
import { nodesOf } from './nodes.js';
import { ts } from './parse.js';
import { configuredStyle, type Quote } from './style-config.js';

export interface Style {
  quote: Quote;
  semi: boolean;
}

/** How transforms write new code. */
export const WRITTEN: Style = { quote: "'", semi: true };

const K = ts.SyntaxKind;

/** A string literal as transforms write it (single quotes), for any value. */
export const quoted = (value: string): string => `'${value.replace(/[\\'\n\r]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\${c}`))}'`;

/**
 * The file's majority: strings by their quote, statements by whether they end in `;`. Ties keep how
 * transforms write. Read from the node index (`nodesOf`), whose walk counts them: a walk of its own
 * here was ~3% of a codemod run. A literal's closing quote is its opening one (the tree parsed).
 */
export function fileStyle(sf: ts.SourceFile): Style {
  const text = sf.text;
  const { strings, semicolons } = nodesOf(sf);
  let single = 0;
  let double = 0;
  for (const node of strings) {
    if (node.kind !== K.StringLiteral || node.parent?.kind === K.JsxAttribute) continue;
    const q = text.charCodeAt(node.end - 1);
    if (q === 39) single++;
    else if (q === 34) double++;
  }
  const { ended: withSemi, open: without } = semicolons;
  return {
    quote: double > single ? '"' : single > double ? "'" : WRITTEN.quote,
    semi: without > withSemi ? false : withSemi > without ? true : WRITTEN.semi,
  };
}

/** The style of `sf`'s file: the project's formatter settings, else the file's own majority. */
export function styleOf(sf: ts.SourceFile): Style {
  const configured = configuredStyle(sf.fileName);
  if (configured.quote && configured.semi !== undefined) return { quote: configured.quote, semi: configured.semi };
  const own = fileStyle(sf);
  return { quote: configured.quote ?? own.quote, semi: configured.semi ?? own.semi };
}

const LITERALS = new Set([K.StringLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateHead, K.TemplateMiddle, K.TemplateTail, K.JsxText, K.RegularExpressionLiteral]);

function statementAt(sf: ts.SourceFile, edit: Edit): ts.Node | undefined {
  const list = sf.statements;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = list[mid]!;
    if (s.end < edit.start) lo = mid + 1;
    else if (s.pos > edit.start) hi = mid - 1;
    else {
      // Touching neighbours share a boundary: the first that holds the whole edit.
      let i = mid;
      while (i > 0 && list[i - 1]!.end >= edit.start) i--;
      for (; i < list.length && list[i]!.pos <= edit.start; i++) if (edit.end <= list[i]!.end) return list[i];
      return undefined;
    }
  }
  return undefined;
}

/**
 * Whether an edit changes text rather than code: it lies inside a literal token (a GraphQL
 * document in a template, a string's contents) without replacing the whole token, or in a comment.
 */
export function isTextEdit(sf: ts.SourceFile, edit: Edit): boolean {
  let node: ts.Node = sf;
  for (;;) {
    let inner: ts.Node | undefined;
    // The file's statements by binary search: a file of many documents has many edits.
    if (node === sf) inner = statementAt(sf, edit) ?? (sf.endOfFileToken.pos <= edit.start ? sf.endOfFileToken : undefined);
    else
      node.forEachChild((child) => {
        if (!inner && child.pos <= edit.start && edit.end <= child.end) inner = child;
        return inner;
      });
    if (!inner) break;
    const start = inner.getStart(sf);
    if (edit.start < start) {
      // In the trivia before the child: text when inside one of its comments.
      // The end of a `//` comment is the end of its line: text added there is part of it.
      const comments = [...(ts.getTrailingCommentRanges(sf.text, inner.pos) ?? []), ...(ts.getLeadingCommentRanges(sf.text, inner.pos) ?? [])];
      return comments.some(
        (c) => c.pos < edit.start && (edit.end < c.end || (edit.end === c.end && c.kind === K.SingleLineCommentTrivia)),
      );
    }
    // Strictly inside: an edit at a token's edge (an insertion after an import's module name) is code.
    if (LITERALS.has(inner.kind)) return edit.start > start && edit.end < inner.end;
    node = inner;
  }
  return false;
}

interface Token {
  kind: ts.SyntaxKind;
  start: number;
  end: number;
  /** A line break between this token and the previous one. */
  newlineBefore: boolean;
}

/** Tokens that, starting a line, continue the previous statement unless it ends in `;` (ASI hazards). */
const CONTINUES = /^[([`+\-*/<,.?:=!]|^(?:in|instanceof|as|satisfies)\b/;

/** Kinds after which `/` divides rather than starts a regular expression. */
const ENDS_EXPRESSION = new Set([K.Identifier, K.CloseParenToken, K.CloseBracketToken, K.CloseBraceToken, K.NumericLiteral, K.StringLiteral, K.BigIntLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateTail, K.ThisKeyword, K.SuperKeyword, K.TrueKeyword, K.FalseKeyword, K.NullKeyword, K.PlusPlusToken, K.MinusMinusToken]);

/** The code tokens of `text` (comments and blanks skipped), or undefined when it does not scan cleanly. */
function tokensOf(text: string, jsx: boolean): Token[] | undefined {
  let failed = false;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text, () => {
    failed = true;
  });
  const tokens: Token[] = [];
  const braces: number[] = [];
  let newline = false;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken && !failed; kind = scanner.scan()) {
    if (kind === K.NewLineTrivia) newline = true;
    if (kind === K.WhitespaceTrivia || kind === K.NewLineTrivia || kind === K.SingleLineCommentTrivia || kind === K.MultiLineCommentTrivia || kind === K.ShebangTrivia || kind === K.ConflictMarkerTrivia)
      continue;
    if (kind === K.SlashToken || kind === K.SlashEqualsToken) {
      const prev = tokens[tokens.length - 1];
      if (!prev || !ENDS_EXPRESSION.has(prev.kind)) kind = scanner.reScanSlashToken();
    }
    if (kind === K.TemplateHead) braces.push(0);
    else if (kind === K.OpenBraceToken && braces.length > 0) braces[braces.length - 1]!++;
    else if (kind === K.CloseBraceToken && braces.length > 0) {
      if (braces[braces.length - 1] === 0) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === K.TemplateTail) braces.pop();
      } else braces[braces.length - 1]!--;
    }
    // JSX text and tags are not restyled: a fragment with them is left alone.
    if (kind === K.LessThanToken && jsx) return undefined;
    tokens.push({ kind, start: scanner.getTokenStart(), end: scanner.getTokenEnd(), newlineBefore: newline });
    newline = false;
  }
  return failed || braces.length > 0 ? undefined : tokens;
}

/** A string literal in the other quote, when that needs no more escapes (Prettier's rule). */
function requoted(raw: string, quote: Quote): string {
  const current = raw[0];
  if (current === quote || (current !== "'" && current !== '"')) return raw;
  const body = raw.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length) {
      const next = body[++i]!;
      out += next === current ? next : `\\${next}`;
    } else if (c === quote) return raw;
    else out += c;
  }
  return `${quote}${out}${quote}`;
}

/** What follows an edit in the source, up to its next code: whether a line ends first, and the code's start. */
function following(after: string): { newline: boolean; next: string } {
  const m = /^(?:[ \t]|\/\*[^]*?\*\/|\/\/[^\n]*)*/.exec(after)!;
  const rest = after.slice(m[0].length);
  if (rest === '') return { newline: true, next: '' };
  if (!/^\r?\n/.test(rest)) return { newline: false, next: rest };
  return { newline: true, next: rest.replace(/^(?:\s|\/\*[^]*?\*\/|\/\/[^\n]*)*/, '') };
}

/**
 * `text` (code a transform wrote) in `style`: string quotes swapped where that adds no escape,
 * and, for files without semicolons, each `;` that ends a line dropped unless the next line would
 * then continue the statement.
 */
export function restyle(text: string, style: Style, after = '', jsx = false): string {
  const wantsQuote = style.quote !== WRITTEN.quote && /['"]/.test(text);
  const dropsSemi = !style.semi && text.includes(';');
  if (!wantsQuote && !dropsSemi) return text;
  const tokens = tokensOf(text, jsx);
  if (!tokens) return text;
  const edits: Edit[] = [];
  let parens = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === K.OpenParenToken) parens++;
    else if (t.kind === K.CloseParenToken) parens--;
    else if (t.kind === K.StringLiteral && wantsQuote) {
      const raw = text.slice(t.start, t.end);
      const next = requoted(raw, style.quote);
      if (next !== raw) edits.push({ start: t.start, end: t.end, text: next });
    } else if (t.kind === K.SemicolonToken && dropsSemi && parens === 0) {
      const prev = tokens[i - 1];
      // An empty statement (`;` alone, or right after a block or another `;`) is kept.
      if (!prev || prev.kind === K.SemicolonToken || prev.kind === K.OpenBraceToken || t.newlineBefore) continue;
      const nextToken = tokens[i + 1];
      const { newline, next } = nextToken ? { newline: nextToken.newlineBefore, next: text.slice(nextToken.start) } : following(text.slice(t.end) + after);
      const closes = next.startsWith('}');
      if ((newline || closes) && !CONTINUES.test(next)) edits.push({ start: t.start, end: t.end, text: '' });
    }
  }
  if (edits.length === 0) return text;
  let out = '';
  let cursor = 0;
  for (const e of edits) {
    out += text.slice(cursor, e.start) + e.text;
    cursor = e.end;
  }
  return out + text.slice(cursor);
}

/** Every code edit of a file in its style (text edits, and files already written the way transforms write, untouched). */
export function styleEdits(sf: ts.SourceFile, edits: readonly Edit[]): Edit[] {
  const candidates = edits.some((e) => /['";]/.test(e.text));
  if (!candidates) return [...edits];
  const style = styleOf(sf);
  if (style.quote === WRITTEN.quote && style.semi === WRITTEN.semi) return [...edits];
  const jsx = sf.languageVariant === ts.LanguageVariant.JSX;
  return edits.map((e) => {
    if (!/['";]/.test(e.text) || isTextEdit(sf, e)) return e;
    const text = restyle(e.text, style, sf.text.slice(e.end, e.end + 2000), jsx);
    return text === e.text ? e : { start: e.start, end: e.end, text };
  });
}
