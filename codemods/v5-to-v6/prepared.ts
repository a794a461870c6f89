/**
 * A script's documents as v5-to-v6 takes them: parsed, matched to a v6 schema, rewritten, and the
 * rewrite checked against that schema (`validate.ts`), once per tree for its scan and its apply,
 * and for a run's held trees all at once before their scans (`prepareRun`).
 */
import { GraphQLError, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { slot } from '../lib/nodes.js';
import { lineColumn, type ts } from '../lib/parse.js';
import type { Script } from '../lib/script.js';
import { isSfc } from '../lib/sfc.js';
import { ParseError, type TransformOptions } from '../types.js';
import { chooseSchema, type SchemaChoice } from '../../compat/v6-form/choose.js';
import { rewriteDocument, type DocumentRewrite, type DocumentRewriteOptions } from '../../compat/v6-form/document.js';
import { findEmbeddedDocuments, parseableText, type EmbeddedDocument } from './embedded.js';
import { outlineOf, type DocumentOutline } from './reads/sites.js';
import { looksV5, namesFlatField } from './untagged.js';
import { definitionStarts, invalidAfterRewrite, invalidAfterRewrites } from './validate.js';

/** The v6 schemas of a run: `schemas` (several diagrams), else `schema`, else none. */
export function schemasOf(options: TransformOptions): readonly GraphQLSchema[] {
  if (options.schemas && options.schemas.length > 0) return options.schemas;
  return options.schema ? [options.schema] : [];
}

export function rewriteOptions(options: TransformOptions): DocumentRewriteOptions {
  return { keepResponseKeys: options.keepResponseKeys !== false };
}

/** Parse a document, turning graphql-js's syntax error into the contract's `ParseError`. */
export function parseDocument(text: string, file: string, position: (offset: number) => { line: number; column: number }): DocumentNode {
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const at = position(error.positions?.[0] ?? 0);
    throw new ParseError(file, `GraphQL ${error.message}`, at.line, at.column);
  }
}

/** A rewrite whose result the v6 schema refuses is dropped: the document stays as it was, its problems reported. */
export function keepIfInvalid(rewrite: DocumentRewrite, document: DocumentNode, text: string, schema: GraphQLSchema, template: boolean): void {
  if (rewrite.edits.length === 0) return;
  dropIfInvalid(rewrite, invalidAfterRewrite(document, text, rewrite, schema, template));
}

/** The document stays as it was when the v6 schema refuses its rewrite; why is reported. */
function dropIfInvalid(rewrite: DocumentRewrite, invalid: DocumentRewrite['problems']): void {
  if (invalid.length > 0) Object.assign(rewrite, { edits: [], moves: [], problems: [...rewrite.problems, ...invalid] });
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

/** A document of a script as the v6 schemas take it: which schema it is for, and its rewrite (already checked by `keepIfInvalid`). */
export class PreparedDocument {
  choice: ReturnType<typeof chooseSchema>;
  rewrite?: DocumentRewrite;
  /** Where the document's definitions start, for `settle`'s reports (dropped once it ran). */
  starts?: readonly number[];
  /** What the read-site pass needs of the document, when it is rewritten. */
  outline?: DocumentOutline;

  constructor(
    readonly doc: EmbeddedDocument,
    private readonly file: string,
    private readonly sf: ts.SourceFile,
  ) {}

  /**
   * Parsed again at each read (the rewrite keeps what later passes need: its edits, its moves,
   * `outline`). A file's documents are held from the run's prepare to the file's apply, and their
   * trees were held with them: 260 MB of a 687 MB heap for a file of 95,528 documents (issue
   * 45.2). A class, not an object of closures: those were another 75 MB.
   */
  get document(): DocumentNode {
    return this.doc.document ?? parseEmbedded(this.doc, this.file, this.sf);
  }

  /** Is this offset of the document inside a `${…}` interpolation? */
  inHole(offset: number): boolean {
    return this.doc.holes.some(([s, e]) => offset >= s && offset < e);
  }
}

/**
 * A tree's documents, parsed, matched to a schema and rewritten once for the scan and the apply
 * that read the same tree (the runner's shared pass): the rewrite depends only on the document,
 * the schemas and the options, never on the hooks. Checking each rewrite against the schema
 * costs ~65 µs of graphql-js's fixed cost per `validate`, and with the parse and the rewrite it
 * was done twice per document: 2,000 generated old-API files spent ~30% of a run there.
 */
const prepared = slot<ts.SourceFile, { schemas: readonly GraphQLSchema[]; keep: boolean; list: PreparedDocument[] }>('ergraph.v5-to-v6.documents');

function preparedFor(sf: ts.SourceFile, options: TransformOptions, schemas: readonly GraphQLSchema[]): PreparedDocument[] | undefined {
  const held = prepared.get(sf);
  const keep = rewriteOptions(options).keepResponseKeys !== false;
  return held && held.keep === keep && held.schemas.length === schemas.length && held.schemas.every((s, i) => s === schemas[i]) ? held.list : undefined;
}

/** The documents parsed, matched and rewritten, their rewrites not yet checked against the schema. */
function draftDocuments(sf: ts.SourceFile, file: string, options: TransformOptions, schemas: readonly GraphQLSchema[]): PreparedDocument[] {
  // Untagged strings are documents when they name a v5 root field: one of the schemas', or one spelled
  // as v5 spelled them (for another API, then: reported as such, as the version detector counts it).
  const flat = schemas.length > 0 ? namesFlatField(schemas) : looksV5;
  // A document that does not parse throws here, before the file's result is kept: a file with one
  // broken document is left wholly untouched.
  return findEmbeddedDocuments(sf, (d, inHole) => flat(d, inHole) || looksV5(d, inHole)).map((doc) => {
    const entry = new PreparedDocument(doc, file, sf);
    const document = entry.document;
    if (schemas.length === 0) return entry;
    const inHole = (offset: number) => entry.inHole(offset);
    entry.choice = chooseSchema(document, schemas, inHole);
    if (!entry.choice || entry.choice === 'foreign') return entry;
    entry.rewrite = held(rewriteDocument(document, doc.raw, entry.choice.schema, entry.choice.index, { ...rewriteOptions(options), isPlaceholder: inHole }));
    entry.starts = definitionStarts(document);
    entry.outline = outlineOf(document);
    return entry;
  });
}

/**
 * A rewrite as it is held until its file's apply: its lists copied to their length. A list grown
 * by `push` keeps room for 16 entries, ~250 bytes a document for a file of 95,528 (issue 45.2).
 */
function held({ edits, moves, problems }: DocumentRewrite): DocumentRewrite {
  return { edits: edits.slice(), moves: moves.slice(), problems: problems.slice() };
}

/** Drops every rewrite the v6 schema refuses (`keepIfInvalid`), all of them checked at once. */
function settle(entries: readonly PreparedDocument[]): void {
  // A document built at run time is never rewritten (its rewrite only names what moves), so never checked.
  const pending = entries.filter((e) => !e.doc.built && e.rewrite && e.rewrite.edits.length > 0 && e.choice && e.choice !== 'foreign');
  const invalid = invalidAfterRewrites(pending.map((e) => ({ starts: e.starts!, text: e.doc.raw, rewrite: e.rewrite!, schema: (e.choice as SchemaChoice).schema, template: true })));
  for (const [i, entry] of pending.entries()) dropIfInvalid(entry.rewrite!, invalid[i]!);
  // Assigned, not deleted: a deleted property turns each entry into a dictionary, 44 MB for 95,528 documents.
  for (const entry of entries) entry.starts = undefined;
}

function remember(sf: ts.SourceFile, options: TransformOptions, schemas: readonly GraphQLSchema[], list: PreparedDocument[]): void {
  prepared.set(sf, { schemas: [...schemas], keep: rewriteOptions(options).keepResponseKeys !== false, list });
}

export function prepareDocuments(sf: ts.SourceFile, file: string, options: TransformOptions, schemas: readonly GraphQLSchema[]): PreparedDocument[] {
  const held = preparedFor(sf, options, schemas);
  if (held) return held;
  const list = draftDocuments(sf, file, options, schemas);
  settle(list);
  remember(sf, options, schemas, list);
  return list;
}

/**
 * Every script of a run prepared before its scans: their rewrites checked against the schema in
 * one `validate` (`invalidAfterRewrites`), not one per document. A script whose documents do not
 * parse (or that fails otherwise) is left to its scan and apply, which report it.
 */
export function prepareRun(scripts: readonly Script[], options: TransformOptions): void {
  const schemas = schemasOf(options);
  if (schemas.length === 0) return;
  const drafts: { sf: ts.SourceFile; list: PreparedDocument[] }[] = [];
  for (const { sf, file } of scripts) {
    if (isSfc(file) || preparedFor(sf, options, schemas)) continue;
    try {
      drafts.push({ sf, list: draftDocuments(sf, file, options, schemas) });
    } catch {
      // Its scan meets the same error and reports it for this file.
    }
  }
  settle(drafts.flatMap((d) => d.list));
  for (const { sf, list } of drafts) remember(sf, options, schemas, list);
}
