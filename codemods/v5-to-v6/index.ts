/**
 * v5 → v6 (specification 9.4): flat GraphQL documents become grouped ones, MCP consumer calls
 * pass `{ entity, method }`, and the removed naming helpers go. Flat names are resolved against
 * the v6 schema in `options.schema`; a name it cannot resolve, or resolves twice, is left alone
 * and reported.
 */
import { Lexer, Source, TokenKind, getLocation, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { FileChanges } from '../lib/changes.js';
import { applyEdits, type Edit } from '../../compat/v6-form/edits.js';
import { slot } from '../lib/nodes.js';
import { lineColumn, SCRIPT_EXTENSIONS, ts } from '../lib/parse.js';
import { parseScript } from '../lib/script.js';
import { applyStep, projectOf, scriptTransform } from '../script-steps.js';
import { meta } from './meta.js';
import { blockView, isSfc, scriptBlocks, SFC_EXTENSIONS } from '../lib/sfc.js';
import { ParseError, type ManualItem, type Transform, type TransformOptions, type TransformResult } from '../types.js';
import { chooseSchema, knownOf, selectsRootFields } from '../../compat/v6-form/choose.js';
import type { FlatIndex, FlatTarget } from '../../compat/flat-index.js';
import { describeMove, rewriteDocument, type DocumentRewrite, type MovedPath } from '../../compat/v6-form/document.js';
import { MAGIC_COMMENT } from './embedded.js';
import { DOCUMENT_HINT } from './untagged.js';
import { applyToManifest, manifestFormat } from './manifest.js';
import { rewriteMcpCalls } from './mcp.js';
import { rewriteNamingHelpers } from './naming-helpers.js';
import { clientsIn, describeMoves, EXPORTED, moveReadSites, moveStrayCacheFields, unseenReaders } from './reads/sites.js';
import { markStrayReads } from './reads/stray.js';
import { importedClient, importedOrigin } from './reads/client-facts.js';
import { applyHooks, moveCrossFileReads, movedInRun, scanHooks, touchedFiles, type CrossFact } from './reads/cross.js';
import { markUnseenCacheFields, type MovedField } from './reads/cache.js';
import { clientCaches } from './reads/client-caches.js';
import { append } from '../lib/append.js';
import type { CrossHooks } from './reads/types.js';
import { assertChecked, checkedRun, moveTypedReads, typedHooks } from './reads/checker.js';
import { rememberText } from '../lib/program.js';
import { notingOtherFiles } from '../lib/alone.js';

const NOTHING: ReadonlySet<string> = new Set();
/**
 * What a client of the project's own is written over: a client package, ergraph's handler, a JSON
 * body naming `query`; or a parameter named and typed as a document (a wrapper of another file's).
 * TanStack Query too: its cache is read and written by key in files without documents (`reads/stray.ts`).
 */
const CLIENT_HINT =
  /@apollo\/client|@urql\/|\burql\b|graffle|@tanstack\/[\w-]*query|\bGraphQLHandler\b|JSON\.stringify\(\s*\{[^)]*\bquery\b|[(,]\s*(?:doc|document|query|operation)\w*\??\s*:\s*(?:string|DocumentNode|TypedDocumentNode)\b/;
import { fileChanges } from '../lib/changes.js';
import { keepIfInvalid, parseDocument, prepareDocuments, prepareRun, rewriteOptions, schemasOf } from './prepared.js';

export { schemasOf } from './prepared.js';

export { loadSchema, SchemaLoadError } from './schema.js';
export { rewriteDocument, describeMove, type MovedPath, type DocumentRewrite } from '../../compat/v6-form/document.js';
export { manifestFormat, mappingFileOf, type PersistedMapping, type PersistedMappingEntry } from './manifest.js';

export const GRAPHQL_EXTENSIONS = ['.graphql', '.gql'] as const;
/** Persisted-query manifests; only those `manifestFormat` recognises are read. */
export const MANIFEST_EXTENSIONS = ['.json'] as const;
const isManifestFile = (file: string) => file.toLowerCase().endsWith('.json');
const GRAPHQL_TODO = '# TODO(ergraph-migrate): ';

/** What a document without a schema waits for: the exact next step. */
export const NO_SCHEMA_NEXT_STEP =
  'no v6 schema was found, so this v5 document was left as is: rerun v5-to-v6 with --schema <sdl|introspection.json|url>, ' +
  'a GraphQL Config whose `schema` points at the v6 schema, or --app <module exporting your diagram or GraphQLHandler>';

/** The same, for a file migrated alone (jscodeshift): the schema search is the whole run's. */
export const NO_SCHEMA_ALONE =
  'v5 document left as is: rewriting it needs the v6 schema, which `npx ergraph-migrate v5-to-v6 <paths>` finds itself ' +
  '(GraphQL Config, --app, the ER graph in the paths); or give jscodeshift --schema=<sdl|introspection.json|url>';

/** A file of nothing but blanks and comments: no document, so nothing this step could be wrong about. */
function holdsNothing(source: string): boolean {
  try {
    return new Lexer(new Source(source)).advance().kind === TokenKind.EOF;
  } catch {
    return false;
  }
}

function applyToGraphQLFile(source: string, file: string, options: TransformOptions): TransformResult {
  // An empty third-party file is not an error of the run (graphql-js refuses to parse it).
  if (holdsNothing(source)) return { output: source, manual: [], notes: [] };
  const gqlSource = new Source(source, file);
  const document = parseDocument(source, file, (offset) => getLocation(gqlSource, offset));
  const at = (offset: number) => getLocation(gqlSource, offset);
  const schemas = schemasOf(options);
  const firstField = () => document.definitions[0]?.loc?.start ?? 0;
  if (schemas.length === 0) {
    if (!selectsRootFields(document)) return { output: source, manual: [], notes: [] };
    if (options.alone) return marked(source, gqlSource, [{ offset: firstField(), reason: NO_SCHEMA_ALONE }], [], []);
    return { output: source, manual: [], notes: [], pending: [{ ...at(firstField()), reason: NO_SCHEMA_NEXT_STEP }] };
  }
  const choice = chooseSchema(document, schemas);
  if (choice === 'foreign')
    return { output: source, manual: [], notes: [], notForThisApi: [{ ...at(firstField()), reason: 'none of its root fields belongs to the v6 schema: not for this API, left alone' }] };
  if (!choice) return { output: source, manual: [], notes: [] };
  const rewrite = rewriteDocument(document, source, choice.schema, choice.index, rewriteOptions(options));
  keepIfInvalid(rewrite, document, source, choice.schema, false);
  const notes = rewrite.moves.map((m) => `${file}:${getLocation(gqlSource, m.offset).line}: ${describeMove(m)}`);
  return marked(source, gqlSource, [...rewrite.problems, ...unseenReaders(document, rewrite.moves)], rewrite.edits, notes);
}

/** A `.graphql` file's edits, with a `# TODO(ergraph-migrate)` marker above each problem's line (once). */
function marked(source: string, gqlSource: Source, problems: readonly { offset: number; reason: string }[], rewritten: readonly Edit[], notes: string[]): TransformResult {
  const edits: Edit[] = [...rewritten];
  const manual: ManualItem[] = [];
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  for (const problem of problems) {
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
  return { output: output === source ? source : output, manual, notes };
}

/** The root query fields a `.graphql` file's documents move: a `cache.modify` in code may name them by a variable. */
function movedInGraphQLFile(source: string, options: TransformOptions | undefined): MovedField[] {
  const schemas = options ? schemasOf(options) : [];
  if (schemas.length === 0 || holdsNothing(source)) return [];
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch {
    // The apply reports a document that does not parse.
    return [];
  }
  const choice = chooseSchema(document, schemas);
  if (!choice || choice === 'foreign') return [];
  const rewrite = rewriteDocument(document, source, choice.schema, choice.index, rewriteOptions(options!));
  keepIfInvalid(rewrite, document, source, choice.schema, false);
  return rootMoves(rewrite.moves, choice.schema);
}

/** The root fields a rewrite moves: a `cache.modify` may name the query's, a cache's configuration either's. */
function rootMoves(moves: readonly MovedPath[], schema: GraphQLSchema): MovedField[] {
  const { query, mutation } = knownOf(schema).index;
  const is = (index: typeof query, { flatName, entity, method }: MovedPath['target']) => index.get(flatName)?.some((t) => t.entity === entity && t.method === method);
  return moves.flatMap(({ target }) => {
    const { flatName: from, entity, method } = target;
    if (is(query, target)) return [{ from, entity, method }];
    return is(mutation, target) ? [{ from, entity, method, root: 'mutation' as const }] : [];
  });
}

/** Rewrites the file's documents: whether one of them moves response paths, and the root query fields they move. */
function rewriteDocuments(ch: FileChanges, file: string, options: TransformOptions, pending: ManualItem[], foreign: ManualItem[], hooks?: CrossHooks): { moved: boolean; fields: MovedField[] } {
  const { sf } = ch;
  const fields: MovedField[] = [];
  const schemas = schemasOf(options);
  let moved = false;
  for (const prepared of prepareDocuments(sf, file, options, schemas)) {
    // `prepared.document` parses the document again: read only where nothing else serves.
    const { doc, choice, rewrite } = prepared;
    const where = () => ({ ...lineColumn(sf, doc.node.getStart(sf)), transform: 'v5-to-v6' });
    if (schemas.length === 0) {
      if (!selectsRootFields(prepared.document, (offset) => prepared.inHole(offset))) continue;
      // Alone (jscodeshift), the schema search is the whole run's: marked for ergraph-migrate.
      if (options.alone) ch.manual(doc.node, NO_SCHEMA_ALONE);
      else pending.push({ ...where(), reason: NO_SCHEMA_NEXT_STEP });
      continue;
    }
    if (choice === 'foreign') {
      foreign.push({ ...where(), reason: 'none of its root fields belongs to the v6 schema: not for this API, left alone' });
      continue;
    }
    if (!choice || !rewrite) continue;
    if (doc.built) {
      ch.manual(doc.node, builtReason(rewrite));
      continue;
    }
    for (const edit of rewrite.edits) ch.replace({ start: doc.start + edit.start, end: doc.start + edit.end }, edit.text);
    for (const move of rewrite.moves) ch.note(doc.node, describeMove(move));
    append(fields, rootMoves(rewrite.moves, choice.schema));
    moveReadSites(ch, doc.node, prepared.outline!, rewrite.moves, choice.schema, hooks);
    moved ||= rewrite.moves.length > 0;
    // Markers go above the whole template: a line inside it would change the document text.
    for (const problem of rewrite.problems) ch.manual(doc.node, problem.reason);
  }
  return { moved, fields };
}

/** Why a document put together at run time is left to the user: what its v5 root fields become, so its reads follow. */
function builtReason(rewrite: DocumentRewrite): string {
  const moves = describeMoves(rewrite.moves);
  return `a GraphQL document built at run time (joined from parts, or with \`\${…}\` of values): migrate it and the code reading its result by hand${moves ? `; move its reads: ${moves}` : ''}`;
}

/** Where a script's left-alone documents wait until `finish` reports them. */
const leftAlone = slot<ts.SourceFile, { pending: ManualItem[]; foreign: ManualItem[] }>('ergraph.v5-to-v6.left-alone');

const scripts = scriptTransform<unknown>(
  { ...meta, extensions: SCRIPT_EXTENSIONS },
  {
    // `.modify(`: Apollo's cache.modify, often in a file of its own (reads/sites.ts, moveStrayCacheFields);
    // `InMemoryCache`, Graphcache, `.evict(`/`.invalidate(`: a client's cache, configured and updated apart from its documents (reads/client-caches.ts).
    // A client library or a JSON body with a `query`: a client of the project's own may be declared here (reads/clients.ts).
    wants: (source) =>
      /\b(?:gql|graphql|get_query_schema|get_mutation_schema|toCamelCase|toGraphqlFieldName|InMemoryCache)\b|\.(?:modify|evict|invalidate)\s*\(|@urql\/exchange-graphcache/.test(source) || MAGIC_COMMENT.test(source) || DOCUMENT_HINT.test(source) || CLIENT_HINT.test(source),
    prepare: prepareRun,
    // The read-site pass run dry over the file's documents, for what it hands to other code (`reads/cross.ts`).
    scan({ sf, file, project }, options) {
      if (!options || schemasOf(options).length === 0 || isSfc(file)) return [];
      const out: CrossFact[] = [];
      rememberText(project, file, sf.text);
      try {
        // The scan's changes are thrown away: its notes (one or two per document) are not kept either.
        const dry = fileChanges(sf);
        dry.note = () => {};
        const { fields } = rewriteDocuments(dry, file, options, [], [], scanHooks(sf, project, out));
        if (fields.length > 0) out.push({ kind: 'moved', file, fields });
        // The file's own clients, for the files calling them with their documents (`reads/clients.ts`).
        for (const client of clientsIn(sf, (_, local) => importedOrigin(project, file, local))) out.push({ kind: 'client', file, ...client });
      } catch (error) {
        // The apply reports a document that does not parse.
        if (error instanceof ParseError) return [];
        throw error;
      }
      return out;
    },
    touches(facts, options) {
      if (facts.length === 0) return new Set();
      const project = projectOf(options);
      const files = touchedFiles(facts as readonly CrossFact[], project);
      // Typed reads anywhere in the run: the checker's files (a program only when something typed moves).
      const checked = checkedRun(facts as readonly CrossFact[], project);
      for (const file of checked?.hits.keys() ?? []) files.add(file);
      return files;
    },
    apply({ sf, file, project }, { options, changes: ch, facts }) {
      const found = { pending: [] as ManualItem[], foreign: [] as ManualItem[] };
      leftAlone.set(sf, found);
      const schemas = schemasOf(options);
      const schema = schemas.length === 1 ? schemas[0] : undefined;
      const cross = facts as readonly CrossFact[];
      const checked = checkedRun(cross, project);
      assertChecked(checked, file);
      // The lines the data-flow passes mark and the hand-offs they follow: the checker's own marker would say it twice, or wrongly.
      const marked = new Set<number>();
      const markedAt = new Set<number>();
      const followed = new Set<number>();
      const manual = ch.manual;
      // (Recorded with or without the checker: the stray reads below are not marked twice either.)
      ch.manual = (node, reason) => (marked.add(sf.getLineAndCharacterOfPosition(node.getStart(sf)).line), markedAt.add(node.getStart(sf)), manual.call(ch, node, reason));
      // A worker of the pool after a step that changed files in memory: its program read other
      // workers' files from disk, older than the run's texts, and may not see a typed result
      // arrive where another worker reads it. The checker then lifts no data-flow marker.
      const lifting = options.writing ?? (options.diskBehind ? NOTHING : undefined);
      let fields: MovedField[] = [];
      try {
        // Migrated alone (jscodeshift), an exported document's importers are other files' runs: its marker says the whole run follows
        // them (a component's exports it does not follow: their marker is the run's too).
        const documents = notingOtherFiles(ch, options.alone && !isSfc(file), 'v5-to-v6', new RegExp(`^${EXPORTED}`));
        const base = applyHooks(sf, project, cross, options.writing, options.alone);
        // Clients of the project's own in other files: what their calls give (reads/clients.ts).
        const hooks: CrossHooks | undefined = base && { ...base, clients: (_, local, member, index) => importedClient(project, cross, file, local, member, index) };
        const rewritten = rewriteDocuments(documents, file, options, found.pending, found.foreign, typedHooks(sf, checked, hooks, followed, lifting));
        fields = rewritten.fields;
        moveCrossFileReads(ch, project, cross, schema, typedHooks(sf, checked, undefined, followed, lifting));
        moveTypedReads(ch, checked, schema, marked, followed, markedAt);
        if (checked && (rewritten.moved || checked.hits.has(file))) ch.note(sf, `typed results followed with the TypeScript checker over ${checked.files} files`);
      } finally {
        ch.manual = manual;
      }
      for (const schema of schemas) moveStrayCacheFields(ch, schema);
      for (const schema of schemas) markStrayReads(ch, schema, marked);
      // Fields named by a variable: the file's own moves, or the run's where its documents moved none.
      markUnseenCacheFields(ch, fields.some((f) => !f.root) ? fields : movedInRun(cross));
      // A client's cache serves every document of the run.
      clientCaches(ch, [...fields, ...movedInRun(cross)], schemas, rewriteOptions(options).keepResponseKeys !== false);
      rewriteMcpCalls(ch, schemas.length > 0 ? mergedIndex(schemas) : undefined, found.pending, options.alone);
      rewriteNamingHelpers(ch);
    },
    finish: ({ sf }) => {
      const found = leftAlone.get(sf);
      return found ? { pending: found.pending, notForThisApi: found.foreign } : {};
    },
    imports: { removeReExports: ['toCamelCase', 'toGraphqlFieldName'], relocate: true },
  },
);

export const transform: Transform = {
  ...meta,
  extensions: [...SCRIPT_EXTENSIONS, ...SFC_EXTENSIONS, ...GRAPHQL_EXTENSIONS, ...MANIFEST_EXTENSIONS],
  script: scripts.script,
  // JSON is read by shape: package.json and tsconfig.json are no business of this step.
  claims: (source, file) => !isManifestFile(file) || manifestFormat(source) !== undefined,
  // What a script's documents hand to other code, and the fields every document moves (the worker pool scans through here).
  scan(source, file, options) {
    if (SCRIPT_EXTENSIONS.some((ext) => file.endsWith(ext))) return scripts.scan!(source, file, options);
    if (isSfc(file)) {
      const fields = movedInComponent(source, file, options);
      return fields.length > 0 ? [{ kind: 'moved', file, fields } satisfies CrossFact] : [];
    }
    if (!GRAPHQL_EXTENSIONS.some((ext) => file.toLowerCase().endsWith(ext))) return [];
    const fields = movedInGraphQLFile(source, options);
    return fields.length > 0 ? [{ kind: 'moved', file, fields } satisfies CrossFact] : [];
  },
  apply(source, ctx) {
    const { file, options } = ctx;
    if (GRAPHQL_EXTENSIONS.some((ext) => file.toLowerCase().endsWith(ext))) return applyToGraphQLFile(source, file, options);
    if (isSfc(file)) return applyToComponent(source, file, options, (ctx.facts as readonly CrossFact[]).filter((f) => f.kind === 'moved'));
    if (isManifestFile(file)) {
      const keep = rewriteOptions(options).keepResponseKeys !== false;
      return applyToManifest(source, file, schemasOf(options), keep, NO_SCHEMA_NEXT_STEP) ?? { output: source, manual: [], notes: [] };
    }
    return scripts.apply(source, ctx);
  },
};

/**
 * A Vue, Svelte or Astro component: each script block is migrated as a script of its own, seen at
 * its place in the file (`blockView`: lines and columns stay the file's), and its new text goes
 * back between its tags. Blocks go last to first, so the offsets of those before stay valid.
 */
function applyToComponent(source: string, file: string, options: TransformOptions, moved: readonly CrossFact[]): TransformResult {
  let output = source;
  const reports: TransformResult[] = [];
  for (const block of scriptBlocks(source, file).reverse()) {
    const view = blockView(source, block);
    // Of the run's facts only the fields it moved (a variable-named `cache.modify` is marked with them):
    // a component's blocks are not followed across files (their names also live in the markup).
    const migrated = applyStep(scripts.script!, parseScript(view, file, projectOf(options), block.kind), moved, options);
    reports.unshift(migrated);
    if (migrated.output === view) continue;
    const tail = view.length - block.end;
    // Only the block's own text may change: a line added above its first one would land in the markup.
    if (migrated.output.slice(0, block.start) !== view.slice(0, block.start) || migrated.output.slice(migrated.output.length - tail) !== view.slice(block.end)) {
      const above = source.slice(0, block.start);
      const [line, column] = [above.split('\n').length, block.start - above.lastIndexOf('\n')];
      throw new ParseError(file, 'a change to this <script> block would fall outside it (code on the line of its tag?): migrate the component by hand', line, column);
    }
    output = output.slice(0, block.start) + migrated.output.slice(block.start, migrated.output.length - tail) + output.slice(block.end);
  }
  // In file order; flatMap, not push(...): a block can report more items than a call takes arguments.
  return {
    output: output === source ? source : output,
    manual: reports.flatMap((r) => r.manual),
    notes: reports.flatMap((r) => r.notes),
    pending: reports.flatMap((r) => r.pending ?? []),
    notForThisApi: reports.flatMap((r) => r.notForThisApi ?? []),
  };
}

/** The root query fields a component's script blocks move, for the run's `cache.modify` markers (as `movedInGraphQLFile`). */
function movedInComponent(source: string, file: string, options: TransformOptions | undefined): MovedField[] {
  if (!options || schemasOf(options).length === 0 || !scripts.script!.wants(source)) return [];
  const fields: MovedField[] = [];
  for (const block of scriptBlocks(source, file)) {
    const script = parseScript(blockView(source, block), file, projectOf(options), block.kind);
    try {
      append(fields, rewriteDocuments(fileChanges(script.sf), file, options, [], []).fields);
    } catch (error) {
      // The apply reports a document that does not parse.
      if (!(error instanceof ParseError)) throw error;
    }
  }
  return fields;
}

/** One lookup over several schemas (a project with several diagrams): a name two schemas share is ambiguous. */
function mergedIndex(schemas: readonly GraphQLSchema[]): FlatIndex {
  if (schemas.length === 1) return knownOf(schemas[0]!).index;
  const merged = { query: new Map(), mutation: new Map() } as Record<'query' | 'mutation', Map<string, FlatTarget[]>>;
  for (const schema of schemas)
    for (const op of ['query', 'mutation'] as const)
      for (const [name, targets] of knownOf(schema).index[op]) merged[op].set(name, [...(merged[op].get(name) ?? []), ...targets]);
  return merged;
}

export default transform;
