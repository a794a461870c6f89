/**
 * Functions that take an operation's data and return the data to store in its place: Apollo's
 * `fetchMore({ updateQuery: (prev, { fetchMoreResult }) => next })` (the load-more path),
 * `subscribeToMore({ updateQuery })`, a query result's `updateQuery(prev => next)`, and
 * `cache.updateQuery({ query }, data => next)` of Apollo and Graphcache. In v6 both ends move:
 * `prev` and `fetchMoreResult` are read in the v6 shape (their reads are rewritten), and what the
 * function returns is written back with the v6 document, so a returned literal takes the v6 shape
 * too — `{ ...prev, userGetAll: [...] }` becomes `{ ...prev, User: { ...prev.User, __typename:
 * 'UserQuery', userGetAll: [...] } }`. A migrated app whose returned object still put the list at
 * the v5 key stored a group without it, and crashed on the next load-more. A return the pass cannot
 * rewrite is marked with the exact v6 shape to return.
 */
import { ts } from '../../lib/parse.js';
import { keyText } from './patterns.js';
import { bindName, flow } from './flow.js';
import { isCallback, outer, referencesOf } from './scope.js';
import { DATA, type Reads, type Updater } from './types.js';
import { groupTypeOf, writeDataLiteral } from './writes.js';

const bare = (e: ts.Expression): ts.Expression => {
  let n = e;
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n)) n = n.expression;
  return n;
};

/** What a function returns: an arrow's expression body, or each `return` of its own (not of functions inside it). */
function returnsOf(fn: ts.FunctionLikeDeclaration): ts.Expression[] {
  if (fn.body && !ts.isBlock(fn.body)) return [fn.body];
  const found: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isReturnStatement(n)) {
      if (n.expression) found.push(n.expression);
    } else if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  return found;
}

/** `{ ...prev, User: { ...prev.User, userGetAll: … } }`: the v6 shape an updater returns, for a marker. */
function v6Return(r: Reads, prev: string): string {
  const groups = new Map<string, string[]>();
  for (const [key, to] of r.moves) groups.set(to[0]!, [...(groups.get(to[0]!) ?? []), to.slice(1).join('.') || key]);
  const inner = [...groups].map(([group, leaves]) => `${group}: { ...${prev}.${group}, ${leaves.map((l) => `${l}: …`).join(', ')} }`);
  return `{ ...${prev}, ${inner.join(', ')} }`;
}

/** The updater a call is given: `fetchMore`/`subscribeToMore` options' `updateQuery`, `updateQuery(fn)`, `cache.updateQuery(options, fn)`. */
function updaterOf(r: Reads, call: ts.CallExpression, via: Updater): ts.Node | undefined {
  if (via === 'updateQuery') return call.arguments[0];
  if (via === 'cache') return call.arguments[1];
  const options = call.arguments[0] && bare(call.arguments[0]);
  if (!options || !ts.isObjectLiteralExpression(options)) {
    if (options) r.todo(options, `the options of \`${via}\` are not written here: an \`updateQuery\` in them gets and returns the data in the v6 shape`);
    return undefined;
  }
  const prop = options.properties.find((p) => keyText(p.name) === 'updateQuery');
  if (!prop) return undefined;
  // Another document's result (`fetchMore({ query: OTHER })`) is not this one's to move.
  if (via === 'fetchMore' && options.properties.some((p) => keyText(p.name) === 'query'))
    return r.todo(prop, '`fetchMore` runs another `query` here: its `updateQuery` reads that one\'s result and returns this one\'s data in the v6 shape'), undefined;
  return ts.isPropertyAssignment(prop) ? prop.initializer : ts.isMethodDeclaration(prop) ? prop : ts.isShorthandPropertyAssignment(prop) ? prop.name : undefined;
}

/**
 * `fetchMoreResult` of the updater's second parameter, destructured or read off it: the data of the
 * same document. Its names now (for the returns), its reads bound after them.
 */
function fetchMoreResult(r: Reads, param: ts.ParameterDeclaration | undefined, known: Set<string>): () => void {
  if (!param) return () => {};
  if (ts.isObjectBindingPattern(param.name)) {
    const elements = param.name.elements.filter((e) => keyText(e.propertyName ?? e.name) === 'fetchMoreResult');
    for (const e of elements) if (ts.isIdentifier(e.name)) known.add(e.name.text);
    return () => elements.forEach((e) => bindName(r, e.name, DATA));
  }
  const name = param.name;
  if (!ts.isIdentifier(name)) return () => {};
  return () => {
    for (const ref of referencesOf(name) ?? []) {
      const access = outer(ref).parent;
      if (ts.isPropertyAccessExpression(access) && access.name.text === 'fetchMoreResult') flow(r, access, DATA);
    }
  };
}

const LOGICAL = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

/** The data's own names inside an expression, where they are not read from (`prev`, not `prev.x`). */
function handedOn(expr: ts.Node, known: ReadonlySet<string>, seen: Set<ts.Node>): void {
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && known.has(n.text)) {
      const at = outer(n);
      const p = at.parent;
      if (!((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === at)) seen.add(at);
    }
    ts.forEachChild(n, visit);
  };
  visit(expr);
}

export function updaterCall(r: Reads, call: ts.CallExpression, via: Updater): void {
  let fn = updaterOf(r, call, via);
  while (fn && ts.isParenthesizedExpression(fn)) fn = fn.expression;
  if (!fn) return;
  if (!isCallback(fn))
    return r.todo(fn, `the updater gets the data in the v6 shape and must return it in the v6 shape: ${v6Return(r, 'prev')}`);
  const [prev, more] = fn.parameters;
  const known = new Set<string>();
  if (prev && ts.isIdentifier(prev.name)) known.add(prev.name.text);
  const bindMore = via === 'fetchMore' ? fetchMoreResult(r, more, known) : () => {};
  // What it returns first: the data it hands back as it is, and the spreads its literals start
  // from, are this data already, not reads the flow below should mark.
  const groupType = groupTypeOf(r.schema);
  const returned = (e: ts.Expression): void => {
    const value = bare(e);
    if (ts.isConditionalExpression(value)) return returned(value.whenTrue), returned(value.whenFalse);
    // `d && { … }` gives `d` back only when it is empty; `a ?? b`, `a || b` give either.
    if (ts.isBinaryExpression(value) && LOGICAL.has(value.operatorToken.kind)) {
      if (value.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken) returned(value.left);
      return returned(value.right);
    }
    if (ts.isObjectLiteralExpression(value)) return writeDataLiteral(r, value, groupType, known);
    if ((ts.isIdentifier(value) && (known.has(value.text) || value.text === 'undefined')) || value.kind === ts.SyntaxKind.NullKeyword) return void r.seen.add(outer(value));
    r.todo(value, `the updater returns data stored with the v6 document: return it in the v6 shape, ${v6Return(r, prev && ts.isIdentifier(prev.name) ? prev.name.text : 'prev')}`);
    // That marker says what the data handed on whole inside it (`Object.assign({}, prev, …)`) must become; its reads still move.
    handedOn(value, known, r.seen);
  };
  for (const e of returnsOf(fn)) returned(e);
  if (prev) bindName(r, prev.name, DATA);
  bindMore();
}
