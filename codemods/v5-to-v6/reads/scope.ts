/**
 * Names and scopes as the read-site pass reads them without a type checker: which identifiers
 * refer to the variable a declaration introduces (`referencesOf`), and which declaration an
 * identifier refers to (`declarationFor`). Approximations on the safe side: a name they cannot
 * tell apart is `undefined`, and the caller marks the place.
 */
import { nodesOf } from '../../lib/nodes.js';
import { ts } from '../../lib/parse.js';

const WRAPPERS = (n: ts.Node) =>
  ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n) || ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n);

/** The node a value really reaches: `(x as T)!` is `x`. */
export function outer(node: ts.Node): ts.Node {
  let n = node;
  while (n.parent && WRAPPERS(n.parent)) n = n.parent;
  return n;
}

export function isFunctionLike(n: ts.Node): n is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n);
}

/** A function written in place as a value (`x: () => …`, `x: function () {}`, `x() {}`): a callback. */
export const isCallback = (n: ts.Node): n is ts.FunctionLikeDeclaration => ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n);

/** An options property's value: `key: value`, `key() {}` itself, the name of `{ key }`; undefined for a spread or an accessor. */
export const valueOf = (p: ts.ObjectLiteralElementLike): ts.Node | undefined =>
  ts.isPropertyAssignment(p) ? p.initializer : ts.isMethodDeclaration(p) ? p : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;

/** Where a name declared at `decl` is visible (an approximation on the safe side: a `var` in a block counts as the block's). */
export function scopeOf(decl: ts.Node): ts.Node {
  let n: ts.Node | undefined = decl.parent;
  const param = ts.isParameter(decl) || (decl.parent && ts.findAncestor(decl, ts.isParameter));
  while (n) {
    if (param && isFunctionLike(n)) return n;
    if (!param && (ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n) || ts.isCaseBlock(n) || ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n) || (isFunctionLike(n) && !ts.isBlock(n)))) return n;
    n = n.parent;
  }
  return decl.getSourceFile();
}

export function isDeclarationName(id: ts.Identifier): boolean {
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

/** The declaration's name `ref` refers to, when the pass can tell (a declaration of the file). */
export function declarationFor(ref: ts.Identifier): ts.Identifier | undefined {
  return nodesOf(ref.getSourceFile()).identifiers(ref.text).find((id) => isDeclarationName(id) && !!referencesOf(id)?.includes(ref));
}
