/**
 * Where a script shows an old API: every site of every shape only code at an old version has.
 * The version detector (`detect.ts`) chooses the steps from these sites, and the runner's last
 * pass (`runner/leftovers.ts`) reports every site a run leaves, so the two can never disagree
 * about what counts as old. Comments are not code: text there is neither evidence nor left over.
 * A site on a line already marked `TODO(ergraph-migrate)` is reported work, not news.
 */
import { ts } from './lib/parse.js';
import { DOCUMENT_HINT, readsAsV5Document } from './v5-to-v6/untagged.js';

export interface Shape {
  /** The newest version whose code can have it. */
  version: string;
  what: string;
  pattern: RegExp;
  /** Why a run that leaves it leaves manual work: what the user must do. */
  why: string;
  /**
   * Every match of `pattern` spells one of these in full. Blanking comments only turns characters
   * into spaces, so a match in the blanked code spells it in the text as well: a text that spells
   * none of them has no site of this shape, and is not scanned for comments (most files of a
   * project: that scan was a quarter of a run over real code). test/codemods/leftovers.test.ts
   * checks every shape's matches against its words.
   */
  words: readonly string[];
  /**
   * Every match also spells each of these in full (the same reasoning as `words`): a text that
   * lacks one has no site of this shape and is not scanned. `ErDiagram` stays in migrated code;
   * its old shape also needs `configs`.
   */
  alsoWords?: readonly string[];
}

const V3_OPTION_READS = 'targetKls|defaultFieldName|fieldFn|fieldNoneDefault(?:Factory)?';

/** Oldest version first. Each pattern is global: every site counts. */
export const SHAPES: readonly Shape[] = [
  { version: '3', what: 'LoaderDepend', pattern: /\bLoaderDepend\b/g, why: 'LoaderDepend is Loader since v4', words: ['LoaderDepend'] },
  { version: '3', what: 'modelConfig', pattern: /\bmodelConfig\b/g, why: '@modelConfig() is @serialization since v4', words: ['modelConfig'] },
  { version: '3', what: 'LoadBy(...)', pattern: /\bLoadBy\s*\(/g, why: 'LoadBy was removed in v4: use AutoLoad', words: ['LoadBy'] },
  { version: '3', what: 'MultipleRelationship', pattern: /\bMultipleRelationship\b/g, why: 'MultipleRelationship was removed in v4: one Relationship per link', words: ['MultipleRelationship'] },
  {
    version: '3',
    what: '__ergraph_relationships__',
    pattern: /__(?:ergraph|pydantic_resolve)_relationships__/g,
    why: 'the class attribute is __relationships__ since v4; a key built or passed at run time is not followed',
    // Not `_relationships__`: v4's own `__relationships__` spells that, so every migrated entity file was scanned.
    words: ['__ergraph_relationships__', '__pydantic_resolve_relationships__'],
  },
  {
    version: '3',
    what: 'Resolver loaderFilters',
    // As an option key (`loaderFilters: x`, shorthand `{ loaderFilters }`) or a property read: a variable of that name is the user's.
    pattern: /\b(?:loaderFilters|globalLoaderFilter)\s*:|[{,]\s*(?:loaderFilters|globalLoaderFilter)\s*[,}]|\.\s*(?:loaderFilters|globalLoaderFilter)\b/g, why: 'Resolver loaderFilters/globalLoaderFilter are loaderParams/globalLoaderParam since v4', words: ['loaderFilters', 'globalLoaderFilter'] },
  { version: '3', what: 'Relationship targetKls', pattern: /\btargetKls\s*:/g, why: 'Relationship targetKls is target since v4', words: ['targetKls'] },
  {
    version: '3',
    what: 'v3 Relationship property read',
    pattern: new RegExp(`(?:\\?\\.|\\.)\\s*(?:${V3_OPTION_READS})\\b|\\[\\s*(['"\`])(?:${V3_OPTION_READS})\\1\\s*\\]`, 'g'),
    why: 'v4 Relationship properties are target, name, fkFn, fkNoneDefault, fkNoneDefaultFactory: this read of the v3 name gives undefined',
    words: ['targetKls', 'defaultFieldName', 'fieldFn', 'fieldNoneDefault'],
  },
  { version: '4', what: 'ErDiagram({ configs })', pattern: /\bErDiagram\s*\(\s*\{(?:[^{}]*?,)?\s*configs\s*[:,}]/gs, why: 'ErDiagram takes the entity list since v5', words: ['ErDiagram'], alsoWords: ['configs'] },
  { version: '5', what: 'diagram.createAutoLoad()', pattern: /\.createAutoLoad\s*\(/g, why: 'createAutoLoad was removed in v5.5: use AutoLoad', words: ['createAutoLoad'] },
  { version: '5.5', what: 'AutoQueryConfig batchKeys/batchPages', pattern: /\b(?:batchKeys|batchPages)\s*:/g, why: 'AutoQueryConfig batch options moved in v6', words: ['batchKeys', 'batchPages'] },
  { version: '5.5', what: 'SubsetConfig federationJoinKey', pattern: /\bfederationJoinKey\b/g, why: 'federationJoinKey moved in v6', words: ['federationJoinKey'] },
  { version: '5.5', what: 'toCamelCase/toGraphqlFieldName', pattern: /\b(?:toCamelCase|toGraphqlFieldName)\b/g, why: 'toCamelCase/toGraphqlFieldName were removed in v6', words: ['toCamelCase', 'toGraphqlFieldName'] },
  { version: '5.5', what: 'MCP get_query_schema({ name })', pattern: /get_(?:query|mutation)_schema['\"`]?\s*(?:\(\s*(?:\w+\s*:\s*)?|,\s*arguments\s*:\s*)\{[^{}]*?\bname\b\s*[:,}]/g, why: 'the MCP schema tools take other arguments in v6', words: ['get_query_schema', 'get_mutation_schema'] },
];

export interface Site {
  shape: Shape;
  /** 1-based. */
  line: number;
  column: number;
  /**
   * Under a `TODO(ergraph-migrate)` marker: already reported to the user. An import of an old
   * name counts as reported when a use of it is: the use is the work, the import goes with it.
   */
  reported: boolean;
  /** In an `import`/`export … from` line: the name's uses, when there are any, carry the report. */
  inImport: boolean;
}

/** Text ending inside the braces of an `import { … }` or `export { … } from`. */
const IMPORT_LIST = /(?:^|\n)[ \t]*(?:import|export)\b[^;{}()=]*\{[^{}]*$/;

const MARKER = /^[ \t]*(?:\/\/|#) TODO\(ergraph-migrate\): /;

// Read once: `ts.SyntaxKind` is a getter on the package's exports, read per token otherwise (~13% of this pass).
const K = ts.SyntaxKind;

/**
 * Every token of a script as TypeScript's scanner reads it, without a parse: a slash where an
 * expression may start is a regular expression (whose text may hold `//`), and the `}` closing a
 * template's `${` continues the template.
 */
function scanTokens(text: string, onToken: (kind: ts.SyntaxKind, scanner: ts.Scanner) => void): void {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let previous = K.Unknown;
  // Brace depth at each open `${`: the `}` that closes one continues the template.
  const templates: number[] = [];
  let depth = 0;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && !endsExpression(previous)) kind = scanner.reScanSlashToken();
    else if (kind === K.OpenBraceToken) depth++;
    else if (kind === K.CloseBraceToken) {
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === K.TemplateTail) templates.pop();
      } else depth--;
    }
    if (kind === K.TemplateHead) templates.push(depth);
    onToken(kind, scanner);
    if (kind !== K.WhitespaceTrivia && kind !== K.NewLineTrivia && kind !== K.SingleLineCommentTrivia && kind !== K.MultiLineCommentTrivia) previous = kind;
  }
}

/** The text with every comment blanked (newlines kept, so offsets and lines stay). */
export function withoutComments(text: string): string {
  if (!text.includes('/*') && !text.includes('//')) return text;
  let out = '';
  let last = 0;
  scanTokens(text, (kind, scanner) => {
    if (kind !== K.SingleLineCommentTrivia && kind !== K.MultiLineCommentTrivia) return;
    out += text.slice(last, scanner.getTokenStart()) + scanner.getTokenText().replace(/[^\n\r]/g, ' ');
    last = scanner.getTokenEnd();
  });
  return out + text.slice(last);
}

/**
 * Lines (1-based) of the string and template literals whose text is a GraphQL document with v5
 * root fields (`readsAsV5Document`), tagged or not; those under a `TODO(ergraph-migrate)` marker
 * are reported work and left out. Only a text with a literal starting like a document is scanned.
 */
export function v5DocumentLines(text: string): number[] {
  if (!DOCUMENT_HINT.test(text)) return [];
  const offsets: number[] = [];
  // The open templates: where each one's text starts, its holes so far, and where the current hole opened.
  const open: { start: number; holes: [number, number][]; hole: number }[] = [];
  scanTokens(text, (kind, scanner) => {
    const [start, end] = [scanner.getTokenStart(), scanner.getTokenEnd()];
    if (kind === K.StringLiteral || kind === K.NoSubstitutionTemplateLiteral) {
      if (readsAsV5Document(text.slice(start + 1, end - 1), [])) offsets.push(start);
    } else if (kind === K.TemplateHead) open.push({ start: start + 1, holes: [], hole: end - 2 });
    else if ((kind === K.TemplateMiddle || kind === K.TemplateTail) && open.length > 0) {
      const t = open[open.length - 1]!;
      t.holes.push([t.hole - t.start, start + 1 - t.start]);
      t.hole = end - 2;
      if (kind === K.TemplateTail && open.pop() && readsAsV5Document(text.slice(t.start, end - 1), t.holes)) offsets.push(t.start - 1);
    }
  });
  // Lines from one index of the text's line starts: slicing and splitting the text before each
  // literal made a file of many documents quadratic (95k documents: most of a 500 s run).
  const starts = lineStartsOf(text);
  const lines: number[] = [];
  for (const offset of offsets) {
    const line = lineAt(starts, offset);
    if (line === 0 || !MARKER.test(text.slice(starts[line - 1]!, starts[line]! - 1))) lines.push(line + 1);
  }
  return lines;
}

/** Where each line of `text` starts (lines end at `\n` only, as the reports count them). */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line of `index`, by binary search of `lineStartsOf`. */
function lineAt(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function endsExpression(kind: ts.SyntaxKind): boolean {
  return (
    kind === K.Identifier ||
    kind === K.CloseParenToken ||
    kind === K.CloseBracketToken ||
    kind === K.CloseBraceToken ||
    kind === K.NumericLiteral ||
    kind === K.StringLiteral ||
    kind === K.ThisKeyword ||
    kind === K.PlusPlusToken ||
    kind === K.MinusMinusToken
  );
}

/** One pattern of every shape's words: one pass over a text, not one per word (half the time). */
const anyWordOf = new WeakMap<readonly Shape[], RegExp>();
function wordsOf(shapes: readonly Shape[]): RegExp {
  let re = anyWordOf.get(shapes);
  if (!re) anyWordOf.set(shapes, (re = new RegExp(shapes.flatMap((s) => s.words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('|'))));
  return re;
}

/** Every old-API site of one script, oldest shape first, then in text order. */
export function evidenceIn(text: string, shapes: readonly Shape[] = SHAPES): Site[] {
  if (!wordsOf(shapes).test(text)) return [];
  const spelled = shapes.filter((shape) => shape.words.some((word) => text.includes(word)) && (shape.alsoWords ?? []).every((word) => text.includes(word)));
  if (spelled.length === 0) return [];
  const code = withoutComments(text);
  const lineStarts = lineStartsOf(code);
  const lineOf = (index: number) => lineAt(lineStarts, index);
  const marked = (line: number) => line > 0 && MARKER.test(text.slice(lineStarts[line - 1]!, lineStarts[line]!));
  const sites: Site[] = [];
  for (const shape of spelled) {
    shape.pattern.lastIndex = 0;
    for (let m = shape.pattern.exec(code); m; m = shape.pattern.exec(code)) {
      const line = lineOf(m.index);
      const inImport = IMPORT_LIST.test(code.slice(Math.max(0, m.index - 2000), m.index));
      sites.push({ shape, line: line + 1, column: m.index - lineStarts[line]! + 1, reported: marked(line), inImport });
    }
  }
  for (const site of sites)
    if (site.inImport && !site.reported) site.reported = sites.some((s) => s.shape === site.shape && !s.inImport && s.reported);
  return sites;
}
