/**
 * v5 → v6 (specification 9.4): flat GraphQL documents become grouped ones, MCP consumer calls
 * pass `{ entity, method }`, and the removed naming helpers go. Flat names are resolved against
 * the v6 schema in `options.schema`; a name it cannot resolve, or resolves twice, is left alone
 * and reported.
 */
import { GraphQLError, Source, getLocation, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { buildFlatIndex, type FlatIndex } from '../../compat/flat-index.js';
import { fileChanges } from '../lib/changes.js';
import { applyEdits, type Edit } from '../lib/edits.js';
import { lineColumn, parseSource, SCRIPT_EXTENSIONS, ts } from '../lib/parse.js';
import { ParseError, type ManualItem, type Transform, type TransformOptions, type TransformResult } from '../types.js';
import { describeMove, rewriteDocument, type DocumentRewrite, type DocumentRewriteOptions } from './document.js';
import { findEmbeddedDocuments, parseableText, type EmbeddedDocument } from './embedded.js';
import { rewriteMcpCalls } from './mcp.js';
import { rewriteNamingHelpers } from './naming-helpers.js';

export { loadSchema, SchemaLoadError } from './schema.js';
export { rewriteDocument, describeMove, type MovedPath, type DocumentRewrite } from './document.js';

export const GRAPHQL_EXTENSIONS = ['.graphql', '.gql'] as const;
const GRAPHQL_TODO = '# TODO(ergraph-migrate): ';

const indexes = new WeakMap<GraphQLSchema, FlatIndex>();
function indexFor(schema: GraphQLSchema): FlatIndex {
  let index = indexes.get(schema);
  if (!index) indexes.set(schema, (index = buildFlatIndex(schema)));
  return index;
}

function schemaOf(options: TransformOptions): GraphQLSchema {
  if (!options.schema) throw new Error('v5-to-v6 needs the v6 schema to resolve flat names: pass --schema <sdl|introspection.json|url>');
  return options.schema;
}

function rewriteOptions(options: TransformOptions): DocumentRewriteOptions {
  return { keepResponseKeys: options.keepResponseKeys !== false };
}

/** Parse a document, turning graphql-js's syntax error into the contract's `ParseError`. */
function parseDocument(text: string, file: string, position: (offset: number) => { line: number; column: number }): DocumentNode {
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const at = position(error.positions?.[0] ?? 0);
    throw new ParseError(file, `GraphQL ${error.message}`, at.line, at.column);
  }
}

function applyToGraphQLFile(source: string, file: string, options: TransformOptions): TransformResult {
  const schema = schemaOf(options);
  const gqlSource = new Source(source, file);
  const document = parseDocument(source, file, (offset) => getLocation(gqlSource, offset));
  const rewrite = rewriteDocument(document, source, schema, indexFor(schema), rewriteOptions(options));
  const edits: Edit[] = [...rewrite.edits];
  const manual: ManualItem[] = [];
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  for (const problem of rewrite.problems) {
    manual.push({ ...getLocation(gqlSource, problem.offset), reason: problem.reason });
    const lineStart = source.lastIndexOf('\n', problem.offset - 1) + 1;
    const indent = /^[ \t]*/.exec(source.slice(lineStart))![0];
    const previousLine = source.slice(source.lastIndexOf('\n', lineStart - 2) + 1, Math.max(lineStart - 1, 0)).replace(/\r$/, '');
    // Already marked by an earlier run: marking again would break idempotence.
    if (previousLine.trim() === `${GRAPHQL_TODO}${problem.reason}`) continue;
    if (edits.some((e) => e.start === lineStart && e.end === lineStart && e.text.includes(problem.reason))) continue;
    edits.push({ start: lineStart, end: lineStart, text: `${indent}${GRAPHQL_TODO}${problem.reason}${eol}` });
  }
  const output = applyEdits(source, edits);
  const notes = rewrite.moves.map((m) => `${file}:${getLocation(gqlSource, m.offset).line}: ${describeMove(m)}`);
  return { output: output === source ? source : output, manual, notes };
}

/** Offsets in the result equal offsets in `doc.raw`: blanks and names keep every length. */
function parseEmbedded(doc: EmbeddedDocument, file: string, sf: ts.SourceFile): DocumentNode {
  const position = (offset: number) => lineColumn(sf, doc.start + offset);
  const text = parseableText(doc, false);
  try {
    return parse(text);
  } catch (error) {
    if (doc.holes.length === 0) return parseDocument(text, file, position);
    // The interpolations may stand for fields rather than whole definitions: try them as names.
    try {
      return parse(parseableText(doc, true));
    } catch {
      // Report the first attempt's error: it points at GraphQL the user wrote.
      return parseDocument(text, file, position);
    }
  }
}

function applyToScript(source: string, file: string, options: TransformOptions): TransformResult {
  const schema = schemaOf(options);
  const index = indexFor(schema);
  const sf = parseSource(source, file);
  const ch = fileChanges(sf);

  // Parse every document first, so a file with one broken document is left wholly untouched.
  const documents = findEmbeddedDocuments(sf).map((doc) => ({ doc, document: parseEmbedded(doc, file, sf) }));
  for (const { doc, document } of documents) {
    const inHole = (offset: number) => doc.holes.some(([s, e]) => offset >= s && offset < e);
    const rewrite: DocumentRewrite = rewriteDocument(document, doc.raw, schema, index, {
      ...rewriteOptions(options),
      isPlaceholder: inHole,
    });
    for (const edit of rewrite.edits) ch.replace({ start: doc.start + edit.start, end: doc.start + edit.end }, edit.text);
    for (const move of rewrite.moves) ch.note(doc.node, describeMove(move));
    // Markers go above the whole template: a line inside it would change the document text.
    for (const problem of rewrite.problems) ch.manual(doc.node, problem.reason);
  }
  rewriteMcpCalls(ch, index);
  rewriteNamingHelpers(ch);
  return ch.result();
}

export const transform: Transform = {
  name: 'v5-to-v6',
  from: '5',
  to: '6',
  description:
    'flat GraphQL root fields → grouped <Entity> { method } (keeping response keys as aliases), MCP { name } → { entity, method }, naming helpers removed',
  extensions: [...SCRIPT_EXTENSIONS, ...GRAPHQL_EXTENSIONS],
  requiredOptions: [
    { name: 'schema', flag: '--schema <sdl|introspection.json|url>', why: 'the v6 schema resolves v5 flat root field names' },
  ],
  apply(source, { file, options }) {
    return GRAPHQL_EXTENSIONS.some((ext) => file.toLowerCase().endsWith(ext))
      ? applyToGraphQLFile(source, file, options)
      : applyToScript(source, file, options);
  },
};

export default transform;
