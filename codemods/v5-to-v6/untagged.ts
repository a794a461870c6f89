/**
 * GraphQL documents no tag marks: a string or template literal whose text reads as an executable
 * GraphQL document naming a v5 root field — a `fetch` body (`JSON.stringify({ query: '{ userGetAll
 * { id } }' })`), a constant sent later (`const Q = \`query Tasks { taskGetAll { id } }\``),
 * graphql-request's `request(url, \`…\`)`. Nothing but the text says what such a string is, so it
 * is taken only when graphql-js parses it as operations and fragments and one of its root fields is
 * a v5 flat name: the v6 schema's (`namesFlatField`), or without one a name spelled as v5 spelled
 * them (`looksV5`). English text, JSON, CSS or a `{}` never is.
 *
 * A document put together at run time — concatenated (`'{ userGetAll { ' + fields + ' } }'`) or a
 * template whose `${…}` is not a document of the same file — is found too, marked `built`: no
 * rewrite of its text can be proven, so it is reported at its line instead.
 *
 * The text test first (`DOCUMENT_HINT`): a quote or backtick, then `{ name` or an operation
 * keyword; the parse only for the literals that start so.
 */
import { Kind, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { knownOf, rootFields } from '../../compat/v6-form/choose.js';
import { nodesOf } from '../lib/nodes.js';
import { ts } from '../lib/parse.js';

const START = String.raw`\s*(?:(?:query|mutation|subscription|fragment)\b[^"'\x60{}]*)?\{\s*[_A-Za-z]`;
/** A quote or backtick opening text that starts like a GraphQL document: `'{ userGetAll`, `` `query Tasks { `` — a file without one holds none. */
export const DOCUMENT_HINT = new RegExp(`["'\x60]${START}`);
const STARTS = new RegExp(`^${START}`);
/** A template that starts like a document and has a `${` before its closing backtick: only then are templates walked. */
const TEMPLATE_HINT = new RegExp(`\x60${START}[^\x60]*\\$\\{`);

/** Does a parsed document name a v5 root field (outside `inHole`, the parts of its text built at run time)? */
export type NamesV5 = (document: DocumentNode, inHole: (offset: number) => boolean) => boolean;

const atRoot = (f: { kind: string; on?: string }) => f.kind !== 'fragment' || f.on === 'Query' || f.on === 'Mutation';
/** v5's flat names: the entity lower-cased, the method capitalised (`userGetAll`, `hTTPRequestGetById`); v6 roots are entity names. */
const V5_NAME = /^[a-z]\w*[A-Z]/;

/** Without a schema: a root field spelled as a v5 flat name. */
export const looksV5: NamesV5 = (document, inHole) => rootFields(document, inHole).some((f) => atRoot(f) && V5_NAME.test(f.name));

/** With the v6 schemas: a root field that is one of their v5 flat names. */
export function namesFlatField(schemas: readonly GraphQLSchema[]): NamesV5 {
  return (document, inHole) =>
    rootFields(document, inHole).some((f) =>
      schemas.some((schema) => {
        const k = knownOf(schema);
        const kinds = f.kind === 'fragment' ? (['query', 'mutation'] as const).filter((op) => k.roots[op] === f.on) : [f.kind];
        return kinds.some((op) => k.index[op].has(f.name));
      }),
    );
}

/** An untagged document as `findEmbeddedDocuments` returns it (`EmbeddedDocument`), already parsed. */
export interface UntaggedDocument {
  node: ts.Node;
  start: number;
  raw: string;
  holes: Array<readonly [number, number]>;
  document: DocumentNode;
  built?: true;
}

type Hole = readonly [number, number];

/**
 * The text graphql-js reads, of the same length as `raw`: JavaScript escapes outside GraphQL text
 * become blanks (`\n` two blanks, `\"` a blank and the quote), holes blanks or, with `asNames`,
 * runs of `_` (a hole standing for fields).
 */
export function textOf(raw: string, holes: readonly Hole[], asNames: boolean): string {
  const text = raw.replace(/\\(?:[nrt]|(["'`\\]))/g, (_, kept: string | undefined) => (kept ? ` ${kept}` : '  '));
  if (holes.length === 0) return text;
  const chars = text.split('');
  for (const [start, end] of holes) for (let i = start; i < end; i++) chars[i] = asNames ? '_' : chars[i] === '\n' ? '\n' : ' ';
  return chars.join('');
}

/** Operations and fragments only: SDL (`type User { … }`) is not a document a client sends. */
function executable(text: string): DocumentNode | undefined {
  try {
    const document = parse(text, { noLocation: false });
    return document.definitions.every((d) => d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) ? document : undefined;
  } catch {
    return undefined;
  }
}

/** Parsed with its holes as blanks (definitions between), else as names (fields). */
function parseWithHoles(raw: string, holes: readonly Hole[]): DocumentNode | undefined {
  return executable(textOf(raw, holes, false)) ?? (holes.length > 0 ? executable(textOf(raw, holes, true)) : undefined);
}

const fragmentsOnly = (d: DocumentNode) => d.definitions.every((def) => def.kind === Kind.FRAGMENT_DEFINITION);
const isPlus = (n: ts.Node): n is ts.BinaryExpression => ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken;

/** The outermost `+` expression `node` is an operand of (through parentheses), or `node` itself. */
function chainTop(node: ts.Node): ts.Node {
  let top = node;
  for (let p = top.parent; p && (isPlus(p) || ts.isParenthesizedExpression(p)); p = p.parent) if (isPlus(p)) top = p;
  return top;
}

/** Literal text pieces of a template (`head`, each span's literal) as file offsets of their characters, and the holes between. */
function templateParts(t: ts.TemplateExpression, sf: ts.SourceFile): { texts: Hole[]; holes: Hole[] } {
  const texts: Hole[] = [];
  const holes: Hole[] = [];
  let from = t.getStart(sf) + 1;
  let previous: ts.Node = t.head;
  for (const span of t.templateSpans) {
    const open = previous.getEnd() - 2;
    texts.push([from, open]);
    from = span.literal.getStart(sf) + 1;
    holes.push([open, from]);
    previous = span.literal;
  }
  texts.push([from, t.getEnd() - 1]);
  return { texts, holes };
}

/**
 * A `+` chain as one text the length of its source: the literals' characters kept, every other
 * operand a hole, quotes, operators and parentheses blanked (line breaks kept).
 */
function concatenation(top: ts.Node, sf: ts.SourceFile): { raw: string; holes: Hole[] } {
  const start = top.getStart(sf);
  const source = sf.text.slice(start, top.getEnd());
  const chars = source.replace(/[^\n]/g, ' ').split('');
  const holes: Hole[] = [];
  const keep = ([s, e]: Hole) => {
    for (let i = s; i < e; i++) chars[i - start] = sf.text[i]!;
  };
  const visit = (n: ts.Node): void => {
    if (isPlus(n)) return (visit(n.left), visit(n.right));
    if (ts.isParenthesizedExpression(n)) return visit(n.expression);
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return keep([n.getStart(sf) + 1, n.getEnd() - 1]);
    if (ts.isTemplateExpression(n)) {
      const parts = templateParts(n, sf);
      parts.texts.forEach(keep);
      for (const h of parts.holes) holes.push([h[0] - start, h[1] - start]);
      return;
    }
    holes.push([n.getStart(sf) - start, n.getEnd() - start]);
  };
  visit(top);
  for (const [s, e] of holes) for (let i = s; i < e; i++) chars[i] = sf.text[start + i]!;
  return { raw: chars.join(''), holes };
}

/**
 * The untagged documents of a script, in no particular order. `taken` are the starts of the
 * documents tags already found (a tagged template's text is a literal too).
 */
export function untaggedDocuments(sf: ts.SourceFile, taken: ReadonlySet<number>, namesV5: NamesV5): UntaggedDocument[] {
  const text = sf.text;
  if (!DOCUMENT_HINT.test(text)) return [];
  const found: UntaggedDocument[] = [];
  const chains = new Set<ts.Node>();
  /** Fragment-only literals by the constant holding them: a template may paste them in (`${USER_FIELDS}`). */
  const fragments = new Map<string, UntaggedDocument>();
  const inHoleOf = (holes: readonly Hole[]) => (offset: number) => holes.some(([s, e]) => offset >= s && offset < e);
  const built = (top: ts.Node) => {
    if (chains.has(top)) return;
    chains.add(top);
    const { raw, holes } = concatenation(top, sf);
    const document = parseWithHoles(raw, holes);
    if (document && namesV5(document, inHoleOf(holes))) found.push({ node: top, start: top.getStart(sf), raw, holes, document, built: true });
  };
  for (const literal of nodesOf(sf).strings) {
    const start = literal.getStart(sf) + 1;
    if (taken.has(start) || ts.isTaggedTemplateExpression(literal.parent)) continue;
    const raw = text.slice(start, literal.getEnd() - 1);
    if (!STARTS.test(raw)) continue;
    const top = chainTop(literal);
    if (top !== literal) {
      built(top);
      continue;
    }
    const document = executable(textOf(raw, [], false));
    if (!document) continue;
    const doc: UntaggedDocument = { node: literal, start, raw, holes: [], document };
    if (namesV5(document, () => false)) found.push(doc);
    else if (fragmentsOnly(document) && ts.isVariableDeclaration(literal.parent) && ts.isIdentifier(literal.parent.name)) fragments.set(literal.parent.name.text, doc);
  }
  if (TEMPLATE_HINT.test(text)) templates(sf, taken, namesV5, fragments, found, built);
  return found;
}

/** Templates with `${…}`: a document when every hole is a fragment constant of the file, else one built at run time. */
function templates(sf: ts.SourceFile, taken: ReadonlySet<number>, namesV5: NamesV5, fragments: Map<string, UntaggedDocument>, found: UntaggedDocument[], built: (top: ts.Node) => void): void {
  const text = sf.text;
  const used = new Set<UntaggedDocument>();
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node) && !ts.isTaggedTemplateExpression(node.parent) && !taken.has(node.getStart(sf) + 1)) {
      const start = node.getStart(sf) + 1;
      const raw = text.slice(start, node.getEnd() - 1);
      if (STARTS.test(raw)) {
        const top = chainTop(node);
        if (top !== node) return built(top);
        const holes = templateParts(node, sf).holes.map(([s, e]) => [s - start, e - start] as const);
        const pasted = node.templateSpans.map((s) => (ts.isIdentifier(s.expression) ? fragments.get(s.expression.text) : undefined));
        if (pasted.every((f) => f !== undefined)) {
          const document = parseWithHoles(raw, holes);
          if (document && namesV5(document, (offset) => holes.some(([s, e]) => offset >= s && offset < e))) {
            found.push({ node, start, raw, holes, document });
            for (const f of pasted) used.add(f!);
          }
        } else built(node);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // A fragment pasted into a document is one of the file's documents too (verify pastes it back in).
  for (const f of used) found.push(f);
}

/**
 * Is a literal's text (`holes`: its `${…}`, as offsets into it) a document naming a root field
 * spelled as v5 spelled them? The version detector's question, asked of the scanner's tokens.
 */
export function readsAsV5Document(raw: string, holes: readonly Hole[]): boolean {
  if (!STARTS.test(raw)) return false;
  const document = parseWithHoles(raw, holes);
  return !!document && looksV5(document, (offset) => holes.some(([s, e]) => offset >= s && offset < e));
}
