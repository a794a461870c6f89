/**
 * GraphQL documents inside TypeScript/JavaScript: `gql`/`graphql` tagged templates, the string or
 * template arguments of `graphql(...)` calls, template literals marked with a `/* GraphQL *\/`
 * comment (graphql-request's documented form; GraphQL Code Generator and graphql-config read it),
 * and strings no tag marks whose text is a v5 document (`untagged.ts`).
 * Each is returned as the exact slice of the file it occupies, so an offset in the document is an
 * offset in the file plus `start`.
 */
import type { DocumentNode } from 'graphql';
import { nodesOf } from '../lib/nodes.js';
import { ts } from '../lib/parse.js';
import { looksV5, textOf, untaggedDocuments, type NamesV5 } from './untagged.js';

const TAGS = new Set(['gql', 'graphql']);
/** Modules whose default export is the `gql` tag. */
const DEFAULT_TAG_MODULES = new Set(['graphql-tag']);

/**
 * The names the file's tags go by: `gql`/`graphql` themselves, plus the local names of imports of
 * them (`import { gql as g } from '@apollo/client'`) and of graphql-tag's default export
 * (`import tag from 'graphql-tag'`) — a document behind an alias is still one to migrate.
 */
function tagNamesOf(sf: ts.SourceFile): ReadonlySet<string> {
  const names = new Set(TAGS);
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier) || !stmt.importClause) continue;
    const clause = stmt.importClause;
    if (clause.name && DEFAULT_TAG_MODULES.has(stmt.moduleSpecifier.text)) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const el of bindings.elements) if (TAGS.has((el.propertyName ?? el.name).text)) names.add(el.name.text);
  }
  return names;
}

export interface EmbeddedDocument {
  /** The node whose line gets a TODO marker (the tagged template or the call). */
  node: ts.Node;
  /** File offset of the document's first character. */
  start: number;
  /** The document's text as written in the file (quotes and backticks excluded). */
  raw: string;
  /** `${...}` interpolations, as [start, end) offsets into `raw`. */
  holes: Array<readonly [number, number]>;
  /** An untagged document, parsed already when its text was judged. */
  document?: DocumentNode;
  /**
   * Put together at run time (concatenated, or a template with `${…}` of values): no rewrite of its
   * text can be proven. `raw` is then the whole expression with its quotes and operators blanked,
   * and `holes` are its other operands.
   */
  built?: true;
}

function tagName(tag: ts.Expression): string | undefined {
  if (ts.isIdentifier(tag)) return tag.text;
  // `graphql<Result>` style generics on the tag, and `gql` reached through a namespace.
  if (ts.isPropertyAccessExpression(tag)) return tag.name.text;
  return undefined;
}

function fromLiteral(node: ts.Node, literal: ts.Expression, sf: ts.SourceFile): EmbeddedDocument | undefined {
  const source = sf.text;
  if (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) {
    const start = literal.getStart(sf) + 1;
    return { node, start, raw: source.slice(start, literal.getEnd() - 1), holes: [] };
  }
  if (ts.isTemplateExpression(literal)) {
    const start = literal.getStart(sf) + 1;
    const holes: Array<readonly [number, number]> = [];
    let previous: ts.Node = literal.head;
    for (const span of literal.templateSpans) {
      // From the `${` that ends the previous literal part to the `}` that starts the next one.
      holes.push([previous.getEnd() - 2 - start, span.literal.getStart(sf) + 1 - start]);
      previous = span.literal;
    }
    return { node, start, raw: source.slice(start, literal.getEnd() - 1), holes };
  }
  return undefined;
}

/** The magic comment, as graphql-tag-pluck reads it (any case, any spacing). */
export const MAGIC_COMMENT = /\/\*\s*graphql\s*\*\//i;
const MARKED = /\/\*\s*graphql\s*\*\/\s*$/i;

/** Untagged template literals right after a `/* GraphQL *\/` comment; walked only when the text has one. */
function markedTemplates(sf: ts.SourceFile, found: EmbeddedDocument[]): void {
  const text = sf.text;
  const visit = (node: ts.Node): void => {
    if ((ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && !ts.isTaggedTemplateExpression(node.parent)) {
      // The trivia before the literal (only blanks and comments) ends with the marker.
      if (MARKED.test(text.slice(node.pos, node.getStart(sf)))) {
        const doc = fromLiteral(node, node, sf);
        if (doc) found.push(doc);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/**
 * Every document of a script. `namesV5` says which untagged strings are v5 documents: by default
 * those naming a root field spelled as v5 spelled them (`looksV5`); v5-to-v6 asks its schemas.
 */
export function findEmbeddedDocuments(sf: ts.SourceFile, namesV5: NamesV5 = looksV5): EmbeddedDocument[] {
  const found: EmbeddedDocument[] = [];
  if (MAGIC_COMMENT.test(sf.text)) markedTemplates(sf, found);
  const { tagged, calls } = nodesOf(sf);
  const tags = tagNamesOf(sf);
  for (const node of tagged) {
    const name = tagName(node.tag);
    if (name && tags.has(name)) {
      const doc = fromLiteral(node, node.template, sf);
      if (doc) found.push(doc);
    }
  }
  for (const node of calls) {
    const name = tagName(node.expression);
    if (name && tags.has(name))
      for (const arg of node.arguments) {
        const doc = fromLiteral(node, arg, sf);
        if (doc) found.push(doc);
      }
  }
  const untagged = untaggedDocuments(sf, new Set(found.map((d) => d.start)), namesV5);
  for (const doc of untagged) found.push(doc);
  // In file order, as one walk found them: edits and reports follow the text.
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The text the GraphQL parser reads: interpolations become blanks of the same length (a
 * `${fragment}` between definitions) or, with `asNames`, a run of `_` (an interpolation standing
 * for fields). JavaScript escapes outside GraphQL text (`\n` in a quoted string) become blanks.
 */
export function parseableText(doc: Pick<EmbeddedDocument, 'raw' | 'holes'>, asNames: boolean): string {
  return textOf(doc.raw, doc.holes, asNames);
}
