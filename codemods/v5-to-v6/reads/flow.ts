/**
 * Local data flow from a client call to the reads of `data`: through `await`, `.then`, variables,
 * destructuring, callback parameters and the members each client's result has. Anything else the
 * value reaches (a call of the user's, a `return`, a JSX prop, a spread) is a place the pass
 * cannot follow: it gets a marker, never a guess.
 */
import { ts } from '../../lib/parse.js';
import { keysOf } from './keys.js';
import { rewriteIn, rewriteKeyedAccess } from './keyed.js';
import { keyText, rewriteAccess, rewriteDataPattern, writtenKey } from './patterns.js';
import { isCallback, isFunctionLike, outer, referencesOf, scopeOf, valueOf } from './scope.js';
import { DATA, orStandIn, promiseOf, RESULT, type Reads, type Shape } from './types.js';

/** Members of a client result that carry no data of the operation. */
const RESULT_PLAIN = new Set([
  'loading', 'error', 'errors', 'networkStatus', 'called', 'client', 'variables', 'fetching', 'stale', 'operation',
  'extensions', 'hasNext', 'startPolling', 'stopPolling', 'reset', 'observable', 'ok', 'status', 'statusText', 'headers',
  // TanStack Query's
  'isLoading', 'isPending', 'isError', 'isSuccess', 'isFetching', 'isRefetching', 'isFetched', 'isFetchedAfterMount',
  'isStale', 'isPaused', 'isPlaceholderData', 'isLoadingError', 'isRefetchError', 'fetchStatus', 'dataUpdatedAt',
  'errorUpdatedAt', 'failureCount', 'failureReason', 'errorUpdateCount',
]);

const TANSTACK = /^@tanstack\/[\w-]*query/;
/** TanStack Query's calls taking `{ queryFn }`: what each gives back of the data `queryFn` resolves to. */
const QUERY_FN_CALLS: Record<string, 'result' | 'data' | 'none'> = {
  useQuery: 'result', useSuspenseQuery: 'result', fetchQuery: 'data', ensureQueryData: 'data', prefetchQuery: 'none',
};

/**
 * `useQuery({ queryKey, queryFn: () => request(URL, Q), select })` (TanStack Query, graphql-request's
 * usual partner): `select` receives the data; without it, the hook's result holds it as `data`
 * (`fetchQuery` resolves to it). With a `select`, the hook's data is what `select` returns.
 */
function queryFnOf(r: Reads, fn: ts.Node, shape: Shape): boolean {
  // `queryFn: () => …` or `queryFn() { … }`
  const holder = ts.isMethodDeclaration(fn) ? fn : outer(fn).parent;
  if (!(holder === fn || (ts.isPropertyAssignment(holder) && holder.initializer === outer(fn))) || keyText((holder as ts.PropertyAssignment | ts.MethodDeclaration).name) !== 'queryFn') return false;
  const literal = holder.parent;
  const call = outer(literal).parent;
  if (!ts.isObjectLiteralExpression(literal) || !ts.isCallExpression(call) || call.arguments[0] !== outer(literal)) return false;
  const callee = call.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  const gives = name === undefined ? undefined : QUERY_FN_CALLS[name];
  const from = ts.isIdentifier(callee) ? r.importedFrom.get(callee.text) : [...r.importedFrom.values()].find((m) => TANSTACK.test(m));
  if (!gives || !from || !TANSTACK.test(from)) return false;
  const data = shape.kind === 'promise' ? shape.of : shape;
  // The hook's result holds the data as `data`: of the operation's data only (a `rawRequest` result would nest it).
  if (gives === 'result' && data.kind !== 'data') return false;
  for (const p of literal.properties) {
    const key = keyText(p.name);
    if (key === 'select') bindParameter(r, valueOf(p), 0, data);
    else if (key === 'initialData' || key === 'placeholderData') r.todo(p, `\`${key}\` gives the query data in the v5 shape`);
  }
  const selects = literal.properties.some((p) => keyText(p.name) === 'select');
  if (gives === 'result' && !selects) flow(r, call, RESULT);
  if (gives === 'data' && !selects) flow(r, call, promiseOf(data));
  return true;
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
  if (shape.kind === 'data') return rewriteDataPattern(r, name, shape.fallback);
  if (shape.kind !== 'result') return r.todo(name, 'this destructuring is not of a known client result');
  for (const element of name.elements) {
    if (element.dotDotDotToken) return r.todo(element, 'a rest element of a client result carries its data');
    const key = keyText(element.propertyName ?? element.name);
    if (key === undefined) return r.todo(element, 'a computed key of a client result');
    const next = resultMember(key);
    if (next === 'plain') continue;
    if (!next) return r.todo(element, `\`${key}\` of a client result reads data the migration cannot follow`);
    // `{ data = {} }`: the default stands in for the data.
    bindName(r, element.name, element.initializer ? orStandIn(next) : next);
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

/** `any`, `unknown`, or a union of them with `null`/`undefined`: a type naming no field. */
function untyped(type: ts.TypeNode): boolean {
  if (type.kind === ts.SyntaxKind.AnyKeyword || type.kind === ts.SyntaxKind.UnknownKeyword || type.kind === ts.SyntaxKind.UndefinedKeyword) return true;
  if (ts.isLiteralTypeNode(type)) return type.literal.kind === ts.SyntaxKind.NullKeyword;
  return ts.isUnionTypeNode(type) && type.types.every(untyped);
}

/**
 * `{ data?: any; loading: boolean }`: a result's type whose data is untyped and whose other
 * members carry no data names nothing of the v5 shape, so there is nothing to regenerate (issue 43.6).
 */
function untypedResult(type: ts.TypeNode): boolean {
  if (!ts.isTypeLiteralNode(type)) return false;
  return type.members.every((m) => {
    const key = keyText(m.name);
    if (key === 'data' || key === 'previousData') return ts.isPropertySignature(m) && (!m.type || untyped(m.type));
    return key !== undefined && resultMember(key) === 'plain';
  });
}

/** A parameter's type for a value of `shape` that names nothing of the v5 shape: nothing to rewrite or regenerate. */
export const namesNoField = (type: ts.TypeNode, shape: 'data' | 'result'): boolean => untyped(type) || (shape === 'result' && untypedResult(type));

/** The callback's first (or `index`th) parameter receives `shape`. */
export function bindParameter(r: Reads, callback: ts.Node | undefined, index: number, shape: Shape): void {
  if (!callback) return;
  let fn: ts.Node = callback;
  while (ts.isParenthesizedExpression(fn)) fn = fn.expression;
  if (!isCallback(fn)) {
    // A callback whose parameter is typed with the result: the checker follows it there.
    if (ts.isIdentifier(fn) && !r.follows?.(r, fn)) r.todo(fn, `\`${fn.text}\` receives the operation's result`);
    return;
  }
  const param = fn.parameters[index];
  if (param) bindName(r, param.name, param.initializer ? orStandIn(shape) : shape);
}

/** Reads of `key` off a value of `shape` at `access` (a property or element access). */
function member(r: Reads, access: ts.PropertyAccessExpression | ts.ElementAccessExpression, key: string | undefined, shape: Shape): void {
  const call = ts.isCallExpression(outer(access).parent) && (outer(access).parent as ts.CallExpression).expression === outer(access) ? (outer(access).parent as ts.CallExpression) : undefined;
  switch (shape.kind) {
    case 'data':
      if (key === undefined && ts.isElementAccessExpression(access)) return rewriteKeyedAccess(r, access, keysOf(access.argumentExpression), shape.fallback);
      return rewriteAccess(r, access, key!, shape.fallback);
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
    case 'watch': {
      if (key === 'subscribe' && call) return subscribed(r, call);
      if (key === 'getCurrentResult' && call) return flow(r, call, RESULT);
      const next = key === undefined ? undefined : resultMember(key);
      if (next === 'plain' || (key !== undefined && WATCH_PLAIN.has(key))) return;
      if (next) return flow(r, access, next);
      return r.todo(access, `\`.${key ?? '[…]'}\` of the watched query`);
    }
    case 'tuple': {
      const item = key !== undefined && /^\d+$/.test(key) ? shape.items[Number(key)] : undefined;
      if (item) return flow(r, access, item);
      return;
    }
    default:
      return r.todo(access, 'the operation\'s result is used in a way the migration cannot follow');
  }
}

/** Members of Apollo's `ObservableQuery` that carry no data of the operation. */
const WATCH_PLAIN = new Set(['setVariables', 'reobserve', 'options', 'queryName', 'hasObservers', 'stop']);

/** `watched.subscribe(next)` or `.subscribe({ next })`: each result goes to `next`; the subscription it returns holds no data. */
function subscribed(r: Reads, call: ts.CallExpression): void {
  const observer = call.arguments[0];
  if (observer && ts.isObjectLiteralExpression(observer)) {
    for (const p of observer.properties) {
      const key = keyText(p.name);
      if (key === 'next') bindParameter(r, valueOf(p), 0, RESULT);
      else if (key !== 'error' && key !== 'complete') r.todo(p, 'an observer of the watched query the migration cannot follow');
    }
    return;
  }
  bindParameter(r, observer, 0, RESULT);
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
  if (ts.isElementAccessExpression(p) && p.expression === node) return member(r, p, writtenKey(p.argumentExpression), shape);
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
  // The other branch, or the other side of `??`, `||`, `&&`, may stand in for the data.
  if (ts.isConditionalExpression(p)) return p.condition === node ? undefined : flow(r, p, orStandIn(shape));
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    const K = ts.SyntaxKind;
    if ([K.EqualsEqualsEqualsToken, K.ExclamationEqualsEqualsToken, K.EqualsEqualsToken, K.ExclamationEqualsToken, K.InstanceOfKeyword].includes(op)) return;
    // `data && …` passes `data` on only when it is falsy; `a ?? data`, `a || data`, `x && data` pass it on.
    if (op === K.AmpersandAmpersandToken && p.left === node) return;
    if (op === K.AmpersandAmpersandToken || op === K.BarBarToken || op === K.QuestionQuestionToken) return flow(r, p, orStandIn(shape));
    // `'userGetAll' in data`: asks for a key, as a read does. Of a client result it asks for `data`, `loading`…: nothing moved there.
    if (op === K.InKeyword && p.right === node && shape.kind === 'data') return rewriteIn(r, p, keysOf(p.left));
    if (op === K.InKeyword && p.right === node && shape.kind === 'result') return;
  }
  // `useEffect(() => …, [data])`: a dependency list compares the value, it reads nothing of it.
  if (ts.isArrayLiteralExpression(p) && isDependencyList(p)) return;
  if (ts.isArrayLiteralExpression(p) && allElement(r, p, node, shape)) return;
  const listing = listsKeys(p, node);
  if (listing && shape.kind === 'data') return r.todo(node, `${listing} the operation's data lists its v6 groups (${[...r.groups].map((g) => `\`${g}\``).join(', ')}), not the v5 fields`);
  if (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) {
    // `fetch(url, { body: JSON.stringify({ query }) })`: the body's response.
    const key = keyText(p.name);
    const literal = p.parent;
    const fetchCall = literal.parent;
    if (shape.kind === 'body' && key === 'body' && ts.isCallExpression(fetchCall) && isFetch(fetchCall) && fetchCall.arguments[1] === literal)
      return flow(r, fetchCall, promiseOf({ kind: 'response' }));
  }
  const clone = cloneOf(node);
  if (clone) return flow(r, clone, shape);
  const serializer = serializedBy(node);
  if (serializer && (shape.kind === 'data' || shape.kind === 'result'))
    return r.ch.note(node, `the operation's result is serialized whole by \`${serializer}\`: whoever reads that JSON reads the v6 shape (${r.summary})`);
  const fn = returnedFrom(node);
  if (fn) {
    if (r.returns?.(fn, shape)) return;
    if (queryFnOf(r, fn, shape)) return;
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

/**
 * `fetch(url, init)` (also `window.fetch`), and Hono's `app.request(path, init)`: a `Response` of
 * the body sent. Anything else called `request` with a body gives what that response is read as
 * (`.json()`); a member a `Response` does not have is marked.
 */
function isFetch(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text === 'fetch';
  return ts.isPropertyAccessExpression(callee) && (callee.name.text === 'fetch' || callee.name.text === 'request');
}

const CONSOLE = /^console\.(?:log|info|warn|error|debug|dir|table|trace)$/;

/**
 * `const [a, b] = await Promise.all([request(URL, A), request(URL, B)])`: element `i` of the list
 * is bound to the pattern's element `i`, each on its own (the elements may be different
 * documents, with different moves). Any other use of the list (a rest element that collects it,
 * `.then`, allSettled's `{ value }`) is left to the marker.
 */
function allElement(r: Reads, list: ts.Node, node: ts.Node, shape: Shape): boolean {
  const call = outer(list).parent;
  if (!ts.isArrayLiteralExpression(list) || !ts.isCallExpression(call) || call.arguments[0] !== outer(list) || call.expression.getText() !== 'Promise.all') return false;
  const i = list.elements.indexOf(node as ts.Expression);
  if (i < 0 || list.elements.slice(0, i + 1).some(ts.isSpreadElement)) return false;
  let at: ts.Node = outer(call);
  if (ts.isAwaitExpression(at.parent)) at = outer(at.parent);
  const decl = at.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== at || !ts.isArrayBindingPattern(decl.name)) return false;
  const elements = decl.name.elements;
  if (elements.slice(0, i + 1).some((e) => !ts.isOmittedExpression(e) && e.dotDotDotToken)) return false;
  const element = elements[i];
  const value = shape.kind === 'promise' ? shape.of : shape;
  if (element && !ts.isOmittedExpression(element)) bindName(r, element.name, element.initializer ? orStandIn(value) : value);
  return true;
}

const HOOKS_WITH_DEPENDENCIES = /^(?:React\.)?use(?:Effect|LayoutEffect|InsertionEffect|Memo|Callback|ImperativeHandle)$/;

function isDependencyList(list: ts.Node): boolean {
  const call = outer(list).parent;
  if (!ts.isCallExpression(call) || call.arguments[call.arguments.length - 1] !== outer(list)) return false;
  return HOOKS_WITH_DEPENDENCIES.test(call.expression.getText());
}

/** `structuredClone(data)`, `JSON.parse(JSON.stringify(data))`: a copy with the same keys, read as the value itself. */
function cloneOf(node: ts.Node): ts.CallExpression | undefined {
  const call = node.parent;
  if (!ts.isCallExpression(call) || call.arguments[0] !== node) return undefined;
  const callee = call.expression.getText();
  if (callee === 'structuredClone') return call;
  if (callee !== 'JSON.stringify' || call.arguments.length !== 1) return undefined;
  const parse = outer(call).parent;
  return ts.isCallExpression(parse) && parse.expression.getText() === 'JSON.parse' && parse.arguments.length === 1 && parse.arguments[0] === outer(call) ? parse : undefined;
}

/**
 * The call writing the value at `node` out whole as JSON or text (`JSON.stringify(data)`,
 * `console.log(result)`, `c.json(data)`), itself or as a member of an object or array literal
 * written out so: its name, or undefined. No read of a key happens here; who reads that JSON
 * later is out of the run's sight.
 */
function serializedBy(node: ts.Node): string | undefined {
  let value = node;
  for (;;) {
    const p = value.parent;
    if ((ts.isPropertyAssignment(p) && p.initializer === value) || ts.isShorthandPropertyAssignment(p)) value = outer(p.parent);
    else if (ts.isArrayLiteralExpression(p)) value = outer(p);
    else break;
  }
  const call = value.parent;
  if (!ts.isCallExpression(call) || !call.arguments.includes(value as ts.Expression)) return undefined;
  const callee = call.expression.getText();
  if (callee === 'JSON.stringify' && call.arguments[0] === value) return callee;
  if (CONSOLE.test(callee)) return callee;
  // Hono's `c.json(data)`, Express's `res.json(data)`, `Response.json(data)`.
  if (ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'json' && call.arguments[0] === value) return callee.slice(0, 40);
  return undefined;
}

/** `for (k in data)`, `Object.keys(data)` (`values`, `entries`): what reads the data by its keys, named for the marker. */
function listsKeys(p: ts.Node, node: ts.Node): string | undefined {
  if (ts.isForInStatement(p) && p.expression === node) return '`for…in` over';
  if (!ts.isCallExpression(p) || p.arguments[0] !== node) return undefined;
  const callee = p.expression.getText();
  return /^Object\.(?:keys|values|entries|getOwnPropertyNames)$/.test(callee) ? `\`${callee}\` of` : undefined;
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
