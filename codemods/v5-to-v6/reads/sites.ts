/**
 * Read sites move with their documents. When v5-to-v6 moves `data.userGetAll` to
 * `data.User.userGetAll`, the code in the same file that reads the operation's result is found
 * (the document's variable → the client call that runs it → the value that call gives) and its
 * reads are rewritten: property access, optional chains, element access and destructuring.
 * Clients known: Apollo Client, urql, graphql-request, Relay, `fetch` (or Hono's `app.request`) of
 * a JSON body, ergraph's `GraphQLHandler#execute`, and the project's own functions over them
 * (`clients.ts`).
 * Whatever the pass cannot prove (an exported document, a result handed to other code, a client
 * it does not know) gets a marker naming the moved paths and counts as manual work.
 */
import { Kind, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import type { FileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import { isSfc } from '../../lib/sfc.js';
import type { MovedPath } from '../../../compat/v6-form/document.js';
import { bindParameter, flow } from './flow.js';
import { isCallback, namedIn, outer, referencesOf, valueOf } from './scope.js';
import { keyText } from './patterns.js';
import { DATA, promiseOf, RESULT, type CrossHooks, type Reads, type Shape } from './types.js';
import { cacheFields } from './cache.js';
import { knownOf } from '../../../compat/v6-form/choose.js';
import { errorPaths, groupTypeOf, writeData } from './writes.js';
import { updaterCall } from './update-query.js';
import { callShape, clientsOf, type ClientOf, type Via } from './clients.js';
import { useSite } from './result-types.js';

const APOLLO = /^@apollo\/client(\/|$)/;
const URQL = /^(urql|@urql\/)/;
const RELAY = /^(react-relay|relay-runtime)(\/|$)/;
const REQUEST = /^(graphql-request|graffle)(\/|$)/;
/** A file that names ergraph's `GraphQLHandler`: its `.execute(document)` is the handler's. */
const HANDLER = /\bGraphQLHandler\b/;

const fnOf = (returns: Shape): Shape => ({ kind: 'fn', returns });
const tuple = (...items: (Shape | undefined)[]): Shape => ({ kind: 'tuple', items });

/** `data.a → data.G.a, …` for the moves of one document. */
export function describeMoves(moves: readonly Pick<MovedPath, 'from' | 'to'>[]): string {
  const seen = new Set<string>();
  for (const m of moves) seen.add(`data.${m.from.join('.')} → data.${m.to.join('.')}`);
  return [...seen].join(', ');
}

const imports = new WeakMap<ts.SourceFile, Map<string, string>>();
export function importsOf(sf: ts.SourceFile): Map<string, string> {
  const known = imports.get(sf);
  if (known) return known;
  const found = new Map<string, string>();
  imports.set(sf, found);
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
    const module = stmt.moduleSpecifier.text;
    const clause = stmt.importClause;
    if (clause?.name) found.set(clause.name.text, module);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) found.set(bindings.name.text, module);
    else if (bindings) for (const el of bindings.elements) found.set(el.name.text, module);
  }
  return found;
}

/**
 * What the read-site pass needs of a document, taken while it is parsed: a file's documents are
 * held from the run's prepare to the file's apply, and holding (or parsing again) their trees for
 * this cost a file of 95,528 documents 260 MB (issue 45.2).
 */
export interface DocumentOutline {
  /** Root fields the document spreads from fragments it does not define: their moves are not in this document's list. */
  open: boolean;
  /** Codegen's result type name of each named operation (`query UserGetAll` → `UserGetAllQuery`). */
  resultTypes: readonly string[];
}

/** Codegen's result type names for an operation. */
const CODEGEN_SUFFIX = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

export function outlineOf(document: DocumentNode): DocumentOutline {
  const defined = new Set(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])));
  const spreads = (set: SelectionSetNode): boolean =>
    set.selections.some((s) => (s.kind === Kind.FRAGMENT_SPREAD ? !defined.has(s.name.value) : s.kind === Kind.INLINE_FRAGMENT ? spreads(s.selectionSet) : false));
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return {
    open: operations.some((d) => spreads(d.selectionSet)),
    resultTypes: operations.flatMap((d) => (d.name ? [`${d.name.value}${CODEGEN_SUFFIX[d.operation]}`] : [])),
  };
}

/** Fragments spread at the root of an operation (directly or in inline fragments). */
function rootSpreads(set: SelectionSetNode, into = new Set<string>()): Set<string> {
  for (const s of set.selections) {
    if (s.kind === Kind.FRAGMENT_SPREAD) into.add(s.name.value);
    else if (s.kind === Kind.INLINE_FRAGMENT) rootSpreads(s.selectionSet, into);
  }
  return into;
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** The module a callee comes from: `useQuery` imported from it, or `Apollo.useQuery` through a namespace import. */
function moduleOf(r: Reads, call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return r.importedFrom.get(callee.text);
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) return r.importedFrom.get(callee.expression.text);
  return undefined;
}

const fileUses = (r: Reads, library: RegExp) => [...r.importedFrom.values()].some((m) => library.test(m));

/** Callbacks in a client call's options that receive the data: `onCompleted(data)`, `update(cache, { data })`. */
function options(r: Reads, arg: ts.Node | undefined): void {
  if (!arg || !ts.isObjectLiteralExpression(arg)) return;
  for (const prop of arg.properties) {
    const key = keyText(prop.name);
    const value = valueOf(prop);
    if (key === 'onCompleted') bindParameter(r, value, 0, DATA);
    else if (key === 'update') bindParameter(r, value, 1, RESULT);
    // `refetchQueries: (result) => …`: the mutation's result (a list of queries is `refetched`).
    else if (key === 'refetchQueries' && value && isCallback(value)) bindParameter(r, value, 0, RESULT);
    // `onQueryUpdated(observable, diff)`: `diff.result` is the data of whichever query the mutation touched.
    else if (key === 'onQueryUpdated' && value && readsDiff(value))
      // Not this document's data: its moves are not the ones to name.
      r.ch.manual(prop, '`onQueryUpdated` reads `diff.result`, the data of whichever query the mutation touched: in v6 each of its root fields is under its group (`data.<field>` → `data.<Group>.<field>`); move those reads')
    else if (key === 'optimisticResponse' || key === 'updater' || key === 'optimisticUpdater' || key === 'updateQuery')
      r.todo(prop, `\`${key}\` writes or reads data in the v5 shape`);
  }
}

/** A callback whose second parameter (`diff`) is read, or not a plain name. */
function readsDiff(node: ts.Node): boolean {
  if (!isCallback(node)) return false;
  const diff = node.parameters[1]?.name;
  if (!diff) return false;
  return !ts.isIdentifier(diff) || (referencesOf(diff) ?? [diff]).length > 0;
}

/** The result type a call names (`useQuery<GetUsers>(…)`) still describes the v5 shape. */
function typeArguments(r: Reads, call: ts.CallExpression): void {
  // A client of the project's own passes its type parameter on (`request<T>(doc)`): its callers' type arguments are the results'.
  if (r.probing) return;
  const type = call.typeArguments?.[0];
  if (!type || !describesShape(type)) return;
  r.typed?.(r, type, { kind: 'type' });
  useSite(r, type, call, 'the type argument');
}

/** `useQuery<any>(…)` names no shape (Apollo Client 4 types an untyped document's data as `unknown`, so untyped code writes it): nothing to regenerate. */
const describesShape = (type: ts.Node): boolean => type.kind !== ts.SyntaxKind.AnyKeyword && type.kind !== ts.SyntaxKind.UnknownKeyword;

/** The document is the `index`th argument of `call`. */
function positional(r: Reads, call: ts.CallExpression, index: number): void {
  const name = calleeName(call);
  const mod = moduleOf(r, call);
  const apollo = mod !== undefined && APOLLO.test(mod);
  typeArguments(r, call);
  if (apollo && index === 0 && (name === 'useQuery' || name === 'useSuspenseQuery')) return flow(r, call, RESULT), options(r, call.arguments[1]);
  if (apollo && index === 0 && name === 'useLazyQuery') return flow(r, call, tuple(fnOf(promiseOf(RESULT)), RESULT)), options(r, call.arguments[1]);
  if (apollo && index === 0 && name === 'useMutation') return flow(r, call, tuple(fnOf(promiseOf(RESULT)), RESULT)), options(r, call.arguments[1]);
  if (mod && URQL.test(mod) && index === 0 && name === 'useMutation') return flow(r, call, tuple(RESULT, fnOf(promiseOf(RESULT))));
  if (mod && RELAY.test(mod) && index === 0 && (name === 'useLazyLoadQuery' || name === 'usePreloadedQuery')) return flow(r, call, DATA);
  if (mod && RELAY.test(mod) && (name === 'useQueryLoader' || name === 'loadQuery')) return; // a reference, read through usePreloadedQuery
  const requestLib = (mod && REQUEST.test(mod)) || (mod === undefined && ts.isPropertyAccessExpression(call.expression) && fileUses(r, REQUEST));
  if (requestLib && index <= 1 && name === 'request') return flow(r, call, promiseOf(DATA));
  if (requestLib && index <= 1 && name === 'rawRequest') return flow(r, call, promiseOf(RESULT));
  if (index === 0 && (name === 'query' || name === 'mutation') && ts.isPropertyAccessExpression(call.expression) && fileUses(r, URQL)) return flow(r, call, { kind: 'source' });
  // `print(DOC)` is the document as text: where the text goes is where the document goes.
  if (name === 'print' && mod === 'graphql') return useOf(r, call);
  // ergraph's own `GraphQLHandler#execute(document)`: `{ data, errors }`.
  if (index === 0 && name === 'execute' && ts.isPropertyAccessExpression(call.expression) && HANDLER.test(r.sf.text)) return flow(r, call, promiseOf(RESULT));
  const own = r.client?.(r, call, index);
  if (own) return flow(r, call, own);
  r.todo(call, `the document is passed to \`${name ?? 'a call'}\`, a client the migration does not know`);
}

/** The document is the `key` of an options object passed to `call`. */
function named(r: Reads, call: ts.CallExpression, literal: ts.ObjectLiteralExpression, key: string): void {
  const name = calleeName(call);
  const mod = moduleOf(r, call);
  typeArguments(r, call);
  const method = ts.isPropertyAccessExpression(call.expression);
  if (method && fileUses(r, APOLLO) && ((name === 'query' && key === 'query') || (name === 'mutate' && key === 'mutation'))) return flow(r, call, promiseOf(RESULT)), options(r, literal);
  if (method && name === 'readQuery' && key === 'query') return flow(r, call, DATA);
  if (method && name === 'watchQuery' && key === 'query' && fileUses(r, APOLLO)) return flow(r, call, { kind: 'watch' });
  if (method && name === 'writeQuery' && key === 'query') return writeData(r, literal, groupTypeOf(r.schema));
  if (method && name === 'updateQuery' && key === 'query') return updaterCall(r, call, 'cache');
  if (mod && URQL.test(mod) && name === 'useQuery' && key === 'query') return flow(r, call, tuple(RESULT, fnOf(RESULT)));
  if (((mod && REQUEST.test(mod)) || (method && fileUses(r, REQUEST))) && key === 'document') {
    if (name === 'request') return flow(r, call, promiseOf(DATA));
    if (name === 'rawRequest') return flow(r, call, promiseOf(RESULT));
  }
  if (mod && RELAY.test(mod) && name === 'commitMutation' && key === 'mutation') return options(r, literal);
  if (name === 'stringify' && call.expression.getText(r.sf) === 'JSON.stringify' && key === 'query') return flow(r, call, { kind: 'body' });
  const own = r.client?.(r, call, call.arguments.indexOf(outer(literal) as ts.Expression), key);
  if (own) return flow(r, call, own);
  r.todo(call, `the document is given to \`${name ?? 'a call'}\`, which the migration cannot follow to the code reading its result`);
}

/**
 * `refetchQueries: [Q]` or `[{ query: Q }]` (also returned by a function) in an Apollo file: the
 * refetched result goes to the cache, and only the document's other uses (`useQuery(Q)`,
 * `readQuery`) read it there — each followed or marked on its own. `item` is the array's element.
 */
function refetched(r: Reads, item: ts.Node): boolean {
  const list = outer(item).parent;
  if (!ts.isArrayLiteralExpression(list) || !fileUses(r, APOLLO)) return false;
  let holder: ts.Node | undefined = outer(list).parent;
  // `refetchQueries: () => [{ query: Q }]`, `refetchQueries(result) { return [Q]; }`
  if (ts.isArrowFunction(holder) && holder.body === outer(list)) holder = outer(holder).parent;
  else if (ts.isReturnStatement(holder)) {
    const fn = ts.findAncestor(holder, isCallback);
    holder = fn && ts.isMethodDeclaration(fn) ? fn : fn && outer(fn).parent;
  }
  return !!holder && (ts.isPropertyAssignment(holder) || ts.isMethodDeclaration(holder)) && keyText(holder.name) === 'refetchQueries';
}

/** The marker of an exported document whose importers the run does not follow. */
export const EXPORTED = 'the document is exported: the modules importing it read its result';

/** Where one use of the document (its variable, or the document itself) leads. */
export function useOf(r: Reads, use: ts.Node): void {
  const node = outer(use);
  const p = node.parent;
  if (ts.isCallExpression(p) && p.arguments.includes(node as ts.Expression)) return positional(r, p, p.arguments.indexOf(node as ts.Expression));
  const asQuery = ((ts.isPropertyAssignment(p) && p.initializer === node) || ts.isShorthandPropertyAssignment(p)) && keyText(p.name) === 'query';
  if (refetched(r, asQuery ? p.parent : node)) return r.ch.note(node, `refetched into Apollo's cache, where the document's other uses read it: ${r.summary}`);
  if ((ts.isPropertyAssignment(p) && p.initializer === node) || ts.isShorthandPropertyAssignment(p)) {
    const literal = p.parent;
    const key = keyText(p.name);
    const call = outer(literal).parent;
    if (key && ts.isObjectLiteralExpression(literal) && ts.isCallExpression(call) && call.arguments.includes(outer(literal) as ts.Expression)) return named(r, call, literal, key);
  }
  if (ts.isTemplateSpan(p)) return r.todo(p.parent, 'a document interpolated into another one: the code reading that one\'s result must follow');
  if (ts.isExportSpecifier(p) && ts.isIdentifier(node) && r.exports?.(r, node.text)) return;
  if (ts.isExportSpecifier(p) || ts.isExportAssignment(p)) return r.todo(p, EXPORTED);
  r.todo(node, 'the document is used where the migration cannot follow it to the code reading its result');
}

/**
 * Rewrites the reads of one rewritten document's result in its file, or marks them. `docNode`
 * is the tagged template, `graphql(...)` call or marked template the document is.
 */
/** The context of one operation's reads in one file: its moves and where the pass reports. */
export function readsOf(ch: FileChanges, moves: readonly Pick<MovedPath, 'from' | 'to'>[], open: boolean, schema?: GraphQLSchema, hooks?: CrossHooks): Reads {
  const sf = ch.sf;
  const summary = describeMoves(moves);
  return {
    sf,
    ch,
    moves: new Map(moves.map((m) => [m.from[0]!, m.to])),
    groups: new Set(moves.map((m) => m.to[0]!)),
    open,
    summary,
    importedFrom: importsOf(sf),
    component: isSfc(sf.fileName),
    seen: new Set(),
    schema,
    todo: (node, why) => ch.manual(node, `${why}; move its reads: ${summary}`),
    passes: hooks?.passes,
    exports: hooks?.exports,
    typed: hooks?.typed,
    follows: hooks?.follows,
    resultType: hooks?.resultType,
    updater: updaterCall,
    client: (_, call, index, key) => callShape(call, index, { follow: useOf, imports: importsOf, imported: hooks?.clients }, key),
  };
}

/** The reads of a document another module exports, through the names that refer to it here. */
export function moveImportedReads(r: Reads, refs: readonly ts.Node[]): void {
  for (const ref of refs) useOf(r, ref);
}

/**
 * What types this document's result where the scan can see it: its own type argument, a call
 * (`graphql(…)` of the client preset or gql.tada types its result), a codegen result type named
 * after an operation and written in this file. The checker pass (`reads/checker.ts`) runs only
 * when one is found, so a run of untyped code builds no TypeScript program.
 */
function typedDocument(r: Reads, docNode: ts.Node, outline: DocumentOutline, generic: ts.TypeNode | undefined): void {
  if (!r.typed) return;
  if (generic && describesShape(generic)) r.typed(r, generic, { kind: 'type' });
  if (ts.isCallExpression(docNode)) r.typed(r, docNode, { kind: 'document' });
  for (const name of outline.resultTypes) if (namedIn(r.sf, name)) r.typed(r, docNode, { kind: 'name', name });
}

export function moveReadSites(ch: FileChanges, docNode: ts.Node, outline: DocumentOutline, moves: readonly MovedPath[], schema?: GraphQLSchema, hooks?: CrossHooks): void {
  if (moves.length === 0) return;
  const sf = ch.sf;
  const r = readsOf(ch, moves, outline.open, schema, hooks);
  // Reported once per literal and file: the scan's dry run must leave them to the real pass.
  if (!hooks?.scanning) {
    cacheFields(r, moves);
    errorPaths(r);
  }
  const generic = ts.isTaggedTemplateExpression(docNode) || ts.isCallExpression(docNode) ? docNode.typeArguments?.[0] : undefined;
  typedDocument(r, docNode, outline, generic);
  if (generic && describesShape(generic)) useSite(r, generic, docNode, 'the type argument');
  const twice = moves.find((m) => moves.some((o) => o.from[0] === m.from[0] && o.to.join('.') !== m.to.join('.')));
  if (twice) return r.todo(docNode, `operations of this document move \`data.${twice.from[0]}\` to different places`);
  const node = outer(docNode);
  const decl = node.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== node) return useOf(r, docNode);
  if (!ts.isIdentifier(decl.name)) return r.todo(docNode, 'the document is destructured');
  // `const Q: TypedDocumentNode<UsersQuery, …> = gql…`: a type written for the v5 result.
  const annotated = decl.type && ts.isTypeReferenceNode(decl.type) ? decl.type.typeArguments?.[0] : undefined;
  if (annotated && describesShape(annotated)) {
    r.typed?.(r, annotated, { kind: 'type' });
    useSite(r, annotated, decl.type!, `the type \`${decl.type!.getText(sf).slice(0, 60)}\` names`);
  }
  const statement = decl.parent.parent;
  const exported = ts.isVariableStatement(statement) && !!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (exported && !r.exports?.(r, decl.name.text)) r.todo(docNode, EXPORTED);
  const refs = referencesOf(decl.name);
  if (!refs) return r.todo(docNode, `\`${decl.name.text}\` is declared more than once here`);
  if (!exported && r.component && ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent)) r.todo(docNode, `the component's markup may use \`${decl.name.text}\``);
  for (const ref of refs) useOf(r, ref);
}

/**
 * A `.graphql` file's readers are code the pass does not see (a loader's import, generated
 * hooks): each operation whose paths move gets a marker naming them.
 */
export function unseenReaders(document: DocumentNode, moves: readonly MovedPath[]): { offset: number; reason: string }[] {
  const found: { offset: number; reason: string }[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const name = definition.name?.value ?? null;
    const mine = moves.filter((m) => 'operation' in m.where && m.where.operation === name);
    // Fields of root fragments move in every operation that spreads them.
    const spreads = rootSpreads(definition.selectionSet);
    const spread = moves.filter((m) => 'fragment' in m.where && spreads.has(m.where.fragment));
    const all = [...mine, ...spread];
    if (all.length === 0) continue;
    found.push({ offset: definition.loc!.start, reason: `the code reading this operation's result must move its reads: ${describeMoves(all)}` });
  }
  return found;
}

/**
 * `cache.modify` fields naming a v5 root field in a file where no document moves that field (the
 * cache is often updated far from the queries that fill it). The v6 cache's shape comes from the
 * schema, not from a document, so the same rewrite applies; what it cannot prove is marked.
 */
export function moveStrayCacheFields(ch: FileChanges, schema: GraphQLSchema): void {
  if (!ch.sf.text.includes('modify')) return;
  const moves: MovedPath[] = [];
  for (const [flatName, targets] of knownOf(schema).index.query) {
    const target = targets[0];
    if (!target || !ch.sf.text.includes(flatName)) continue;
    moves.push({ where: { operation: null }, from: [flatName], to: [target.entity, flatName], target, offset: 0 });
  }
  if (moves.length > 0) cacheFields(readsOf(ch, moves, false, schema), moves);
}

/** The clients of the project's own a file declares (`clients.ts`), proven with this pass; `origin` names what an imported name stands for. */
export function clientsIn(sf: ts.SourceFile, origin: (sf: ts.SourceFile, local: string) => Via['target'] | undefined): ClientOf[] {
  return clientsOf(sf, { follow: useOf, imports: importsOf }, origin);
}
