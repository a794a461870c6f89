/**
 * Local data flow from a client call to the reads of `data`: through `await`, `.then`, variables,
 * destructuring, callback parameters and the members each client's result has. Anything else the
 * value reaches (a call of the user's, a `return`, a JSX prop, a spread) is a place the pass
 * cannot follow: it gets a marker, never a guess.
 */
import { nodesOf } from '../../lib/nodes.js';
import { ts } from '../../lib/parse.js';
import { keyText, rewriteAccess, rewriteDataPattern } from './patterns.js';
import { DATA, promiseOf, RESULT, type Reads, type Shape } from './types.js';

const WRAPPERS = (n: ts.Node) =>
  ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n) || ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n);

/** The node a value really reaches: `(x as T)!` is `x`. */
export function outer(node: ts.Node): ts.Node {
  let n = node;
  while (n.parent && WRAPPERS(n.parent)) n = n.parent;
  return n;
}

/** Members of a client result that carry no data of the operation. */
const RESULT_PLAIN = new Set([
  'loading', 'error', 'errors', 'networkStatus', 'called', 'client', 'variables', 'fetching', 'stale', 'operation',
  'extensions', 'hasNext', 'startPolling', 'stopPolling', 'reset', 'observable', 'ok', 'status', 'statusText', 'headers',
]);

function isFunctionLike(n: ts.Node): n is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n);
}

/** Where a name declared at `decl` is visible (an approximation on the safe side: a `var` in a block counts as the block's). */
function scopeOf(decl: ts.Node): ts.Node {
  let n: ts.Node | undefined = decl.parent;
  const param = ts.isParameter(decl) || (decl.parent && ts.findAncestor(decl, ts.isParameter));
  while (n) {
    if (param && isFunctionLike(n)) return n;
    if (!param && (ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n) || ts.isCaseBlock(n) || ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n) || (isFunctionLike(n) && !ts.isBlock(n)))) return n;
    n = n.parent;
  }
  return decl.getSourceFile();
}

function isDeclarationName(id: ts.Identifier): boolean {
  const p = id.parent;
  return (
    ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isBindingElement(p) || ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isFunctionExpression(p) || ts.isClassExpression(p)) && p.name === id) ||
    ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isImportEqualsDeclaration(p)
  );
}

/** Identifiers that spell a name without referring to a variable: member names, keys, types. */
function isNonReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) && p.name === id) || (ts.isQualifiedName(p) && p.right === id)) return true;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isEnumMember(p)) && p.name === id) return true;
  if (ts.isBindingElement(p) && p.propertyName === id) return true;
  if (ts.isJsxAttribute(p) || ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return true;
  return !!ts.findAncestor(p, (a) => ts.isTypeNode(a) || ts.isTypeAliasDeclaration(a) || ts.isInterfaceDeclaration(a));
}

/** Does the file spell the name `text` anywhere (a codegen type named after an operation)? One index per file, however many documents ask. */
export const namedIn = (sf: ts.SourceFile, text: string): boolean => nodesOf(sf).identifiers(text).length > 0;

/** Every reference to the variable `name` declares, or undefined when another declaration of the name could shadow it. */
export function referencesOf(name: ts.Identifier): ts.Identifier[] | undefined {
  const p = name.parent;
  // A function's or class's name is visible where the declaration is, not only inside it.
  const scope = scopeOf(ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) ? p : declarationOf(name));
  const sf = name.getSourceFile();
  const [start, end] = [scope.getStart(sf), scope.getEnd()];
  const refs: ts.Identifier[] = [];
  const hidden: ts.Node[] = [];
  for (const id of nodesOf(sf).identifiers(name.text)) {
    if (id.getStart(sf) < start || id.getEnd() > end || id === name) continue;
    if (!isDeclarationName(id)) {
      if (ts.isShorthandPropertyAssignment(id.parent) || !isNonReference(id)) refs.push(id);
      continue;
    }
    // `.then(({ data }) => …)` inside a component that has its own `data`: a nested parameter or
    // let/const hides the name in its own scope only. Anything else (a second declaration in the
    // same scope, a `var`, a function or import) leaves the references undecidable.
    const inner = shadowScope(id);
    if (!inner || inner === scope || inner.getStart(sf) < start || inner.getEnd() > end) return undefined;
    hidden.push(inner);
  }
  return refs.filter((id) => !hidden.some((h) => id.getStart(sf) >= h.getStart(sf) && id.getEnd() <= h.getEnd()));
}

function declarationOf(name: ts.Identifier): ts.Node {
  return ts.isBindingElement(name.parent) || ts.isVariableDeclaration(name.parent) || ts.isParameter(name.parent) ? name.parent : name;
}

/** The scope a parameter or let/const declares `id` in; undefined for declarations whose reach this approximation cannot bound. */
function shadowScope(id: ts.Identifier): ts.Node | undefined {
  const decl = declarationOf(id);
  if (ts.findAncestor(decl, ts.isParameter)) return scopeOf(decl);
  const list = ts.findAncestor(decl, ts.isVariableDeclarationList);
  return list && list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const) ? scopeOf(decl) : undefined;
}

/** `value` is bound to `name` (a variable, a parameter, a destructuring pattern). */
export function bindName(r: Reads, name: ts.BindingName, shape: Shape): void {
  if (ts.isIdentifier(name)) {
    const refs = referencesOf(name);
    if (!refs) return r.todo(name, `\`${name.text}\` is declared more than once here, so its reads cannot be told apart`);
    if (r.component && ts.isSourceFile(scopeOf(name.parent))) r.todo(name, `the component's markup may read \`${name.text}\``);
    for (const ref of refs) flow(r, ref, shape);
    return;
  }
  if (ts.isArrayBindingPattern(name)) {
    if (shape.kind !== 'tuple') return r.todo(name, 'this destructuring is not of a known client result');
    name.elements.forEach((element, i) => {
      if (ts.isOmittedExpression(element)) return;
      if (element.dotDotDotToken) return r.todo(element, 'a rest element of a client result');
      const item = shape.items[i];
      if (item) bindName(r, element.name, item);
    });
    return;
  }
  if (shape.kind === 'data') return rewriteDataPattern(r, name);
  if (shape.kind !== 'result') return r.todo(name, 'this destructuring is not of a known client result');
  for (const element of name.elements) {
    if (element.dotDotDotToken) return r.todo(element, 'a rest element of a client result carries its data');
    const key = keyText(element.propertyName ?? element.name);
    if (key === undefined) return r.todo(element, 'a computed key of a client result');
    const next = resultMember(key);
    if (next === 'plain') continue;
    if (!next) return r.todo(element, `\`${key}\` of a client result reads data the migration cannot follow`);
    bindName(r, element.name, next);
  }
}

/** What a member of a client result holds: data, a refetch, nothing of interest, or unknown. */
function resultMember(key: string): Shape | 'plain' | undefined {
  if (key === 'data' || key === 'previousData') return DATA;
  if (key === 'refetch') return { kind: 'fn', returns: promiseOf(RESULT) };
  if (key === 'fetchMore') return { kind: 'fn', returns: promiseOf(RESULT), updates: 'fetchMore' };
  if (key === 'subscribeToMore' || key === 'updateQuery') return { kind: 'fn', returns: RESULT, updates: key };
  return RESULT_PLAIN.has(key) ? 'plain' : undefined;
}

/** The callback's first (or `index`th) parameter receives `shape`. */
export function bindParameter(r: Reads, callback: ts.Node | undefined, index: number, shape: Shape): void {
  if (!callback) return;
  let fn: ts.Node = callback;
  while (ts.isParenthesizedExpression(fn)) fn = fn.expression;
  if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn))) {
    if (ts.isIdentifier(fn)) return r.todo(fn, `\`${fn.text}\` receives the operation's result`);
    return;
  }
  const param = fn.parameters[index];
  if (param) bindName(r, param.name, shape);
}

/** Reads of `key` off a value of `shape` at `access` (a property or element access). */
function member(r: Reads, access: ts.PropertyAccessExpression | ts.ElementAccessExpression, key: string | undefined, shape: Shape): void {
  const call = ts.isCallExpression(outer(access).parent) && (outer(access).parent as ts.CallExpression).expression === outer(access) ? (outer(access).parent as ts.CallExpression) : undefined;
  switch (shape.kind) {
    case 'data':
      if (key === undefined) return r.todo(access, 'a computed read of the operation\'s data');
      return rewriteAccess(r, access, key);
    case 'result': {
      if (key === undefined) return r.todo(access, 'a computed read of a client result');
      const next = resultMember(key);
      if (next === 'plain') return;
      if (!next) return r.todo(access, `\`${key}\` of a client result reads data the migration cannot follow`);
      return flow(r, access, next);
    }
    case 'promise':
      if (!call) return r.todo(access, 'a promise of the operation\'s result is used in a way the migration cannot follow');
      if (key === 'then') {
        bindParameter(r, call.arguments[0], 0, shape.of);
        return;
      }
      if (key === 'catch' || key === 'finally') return flow(r, call, shape);
      return r.todo(access, `\`.${key}\` of a promise of the operation's result`);
    case 'response':
      if (key === 'json' && call) return flow(r, call, promiseOf(RESULT));
      if (key !== undefined && RESULT_PLAIN.has(key)) return;
      return r.todo(access, `\`.${key ?? '[…]'}\` of the fetch response reads the operation's result as the migration cannot follow`);
    case 'source':
      if (key === 'toPromise' && call) return flow(r, call, promiseOf(RESULT));
      return r.todo(access, `\`.${key ?? '[…]'}\` of the client's result source`);
    case 'tuple': {
      const item = key !== undefined && /^\d+$/.test(key) ? shape.items[Number(key)] : undefined;
      if (item) return flow(r, access, item);
      return;
    }
    default:
      return r.todo(access, 'the operation\'s result is used in a way the migration cannot follow');
  }
}

/** The function whose value `node` is (an arrow's expression body, a `return`). */
function returnedFrom(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  const p = node.parent;
  if (ts.isArrowFunction(p) && p.body === node) return p;
  if (ts.isReturnStatement(p)) return ts.findAncestor(p, isFunctionLike) as ts.FunctionLikeDeclaration | undefined;
  return undefined;
}

/** The `.then(fn)` call `fn` is the callback of. */
function thenCallOf(fn: ts.Node): ts.CallExpression | undefined {
  const call = outer(fn).parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== outer(fn)) return undefined;
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'then' ? call : undefined;
}

/** Where the value of `expr` (of `shape`) goes, followed until it is read or leaves what the pass can see. */
export function flow(r: Reads, expr: ts.Node, shape: Shape): void {
  const node = outer(expr);
  if (r.seen.has(node)) return;
  r.seen.add(node);
  const p = node.parent;
  if (ts.isAwaitExpression(p)) return flow(r, p, shape.kind === 'promise' ? shape.of : shape);
  if (ts.isVariableDeclaration(p) && p.initializer === node) return bindName(r, p.name, shape);
  if (ts.isPropertyAccessExpression(p) && p.expression === node) return member(r, p, p.name.text, shape);
  if (ts.isElementAccessExpression(p) && p.expression === node) return member(r, p, keyText(p.argumentExpression), shape);
  if (ts.isCallExpression(p) && p.expression === node) {
    if (shape.kind === 'fn' && shape.updates) r.updater?.(r, p, shape.updates);
    // Only `fetchMore` gives a result of the operation back (an unsubscribe, nothing).
    if (shape.kind === 'fn' && shape.updates && shape.updates !== 'fetchMore') return;
    if (shape.kind === 'fn') return flow(r, p, shape.returns);
    return r.todo(p, 'the operation\'s result is called');
  }
  if (ts.isExpressionStatement(p) || ts.isVoidExpression(p) || ts.isTypeOfExpression(p)) return;
  if (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken) return;
  if ((ts.isIfStatement(p) || ts.isWhileStatement(p) || ts.isDoStatement(p)) && p.expression === node) return;
  if (ts.isConditionalExpression(p)) return p.condition === node ? undefined : flow(r, p, shape);
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    const K = ts.SyntaxKind;
    if ([K.EqualsEqualsEqualsToken, K.ExclamationEqualsEqualsToken, K.EqualsEqualsToken, K.ExclamationEqualsToken, K.InstanceOfKeyword].includes(op)) return;
    // `data && …` passes `data` on only when it is falsy; `a ?? data`, `a || data`, `x && data` pass it on.
    if (op === K.AmpersandAmpersandToken && p.left === node) return;
    if (op === K.AmpersandAmpersandToken || op === K.BarBarToken || op === K.QuestionQuestionToken) return flow(r, p, shape);
  }
  if (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) {
    // `fetch(url, { body: JSON.stringify({ query }) })`: the body's response.
    const key = keyText(p.name);
    const literal = p.parent;
    const fetchCall = literal.parent;
    if (shape.kind === 'body' && key === 'body' && ts.isCallExpression(fetchCall) && ts.isIdentifier(fetchCall.expression) && fetchCall.expression.text === 'fetch' && fetchCall.arguments[1] === literal)
      return flow(r, fetchCall, promiseOf({ kind: 'response' }));
  }
  const fn = returnedFrom(node);
  if (fn) {
    const then = thenCallOf(fn);
    if (then) return flow(r, then, promiseOf(shape));
    // A handler's return value is dropped: `onClick={() => mutate()}`.
    if (ts.isJsxExpression(outer(fn).parent)) return;
  }
  if (ts.isCallExpression(p) && p.expression !== node && r.passes) {
    const index = p.arguments.indexOf(node as ts.Expression);
    if (index >= 0 && r.passes(r, p, index, shape)) return;
  }
  if (r.follows?.(r, node)) return;
  r.todo(node, reasonFor(p));
}

function reasonFor(p: ts.Node): string {
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) {
    const callee = p.expression.getText().slice(0, 40);
    return `the operation's result is passed to \`${callee}\`, which the migration cannot follow`;
  }
  if (ts.isReturnStatement(p) || ts.isArrowFunction(p)) return 'the operation\'s result is returned to code the migration cannot follow';
  if (ts.isJsxExpression(p) || ts.isJsxAttribute(p)) return 'the operation\'s result is passed to a component';
  if (ts.isSpreadElement(p) || ts.isSpreadAssignment(p)) return 'the operation\'s result is spread';
  return 'the operation\'s result is used where the migration cannot follow it';
}
