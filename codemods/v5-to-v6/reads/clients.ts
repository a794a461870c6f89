/**
 * The project's own clients (issue 43.4): a function whose document parameter reaches a client the
 * read-site pass knows (Apollo, urql, graphql-request, a `fetch` or Hono `app.request` body,
 * `GraphQLHandler.execute`, or another such function) and which returns what that client gives (its
 * result, `.data`, the parsed JSON). Its callers' reads then move as for the client itself.
 *
 * Proven by the read-site pass run over the function with no moves and every data key unknown
 * (`open`): the parameter's uses must all lead to a client, the result must reach a `return` of the
 * function untouched; any marker the pass would leave (a read of a key, a hand-off, a use it cannot
 * follow) is no proof, and the caller keeps its marker. Functions of the caller's file are probed
 * where they are called; those of other files by the scan of their file, which records what each
 * exported one gives (`client` facts, `reads/cross.ts`).
 */
import { fileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import { keyText } from './patterns.js';
import { declarationFor, referencesOf } from './scope.js';
import { DATA, promiseOf, RESULT, type Reads, type Shape } from './types.js';

/** What a call of an imported client gives (`local` imported here, its method `member`), from the facts of the run. */
export type Lookup = (sf: ts.SourceFile, local: string, member: string | undefined, index: number) => Shape | undefined;

/** What the probe needs of the read-site pass (`sites.ts`, which asks this module in turn): where a use of the document leads, and a file's imports. */
export interface Probe {
  follow(r: Reads, use: ts.Node): void;
  imports(sf: ts.SourceFile): ReadonlyMap<string, string>;
  imported?: Lookup;
}

/** What a function gives when it is called with a document as its `index`th argument: proven once per function, parameter and view of the other files. */
const proven = new WeakMap<object, WeakMap<ts.Node, Map<string, Shape | null>>>();
const NO_IMPORTS = {};
/** Thrown by the probe's marker: the first place the pass cannot follow ends the proof. */
const UNPROVEN = Symbol('unproven');

const isAsync = (fn: ts.FunctionLikeDeclaration) => !!ts.getModifiers(fn)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
export const sameShape = (a: Shape, b: Shape) => JSON.stringify(a) === JSON.stringify(b);

/** What a call of `fn` gives when its parameter `index` is a document, or undefined when it is not a client of the run. */
export function clientShape(fn: ts.FunctionLikeDeclaration, index: number, probe: Probe, key?: string): Shape | undefined {
  const view = probe.imported ?? NO_IMPORTS;
  let mine = proven.get(view);
  if (!mine) proven.set(view, (mine = new WeakMap()));
  let known = mine.get(fn);
  if (!known) mine.set(fn, (known = new Map()));
  const at = key === undefined ? String(index) : `${index}.${key}`;
  if (known.has(at)) return known.get(at) ?? undefined;
  // A function reaching itself proves nothing.
  known.set(at, null);
  const shape = probeOf(fn, index, probe, key);
  known.set(at, shape ?? null);
  return shape;
}

function probeOf(fn: ts.FunctionLikeDeclaration, index: number, probe: Probe, key?: string): Shape | undefined {
  const param = fn.parameters[index];
  if (!fn.body || !param || param.dotDotDotToken) return undefined;
  const refs = key === undefined ? (ts.isIdentifier(param.name) ? referencesOf(param.name) : undefined) : keyedUses(param.name, key);
  if (!refs || refs.length === 0) return undefined;
  const sf = fn.getSourceFile();
  let returned: Shape | undefined;
  let twice = false;
  const r: Reads = {
    sf,
    ch: fileChanges(sf),
    moves: new Map(),
    groups: new Set(),
    // Every key of the data unknown: a read of one in the function is no proof of a client.
    open: true,
    summary: '',
    importedFrom: probe.imports(sf),
    component: false,
    seen: new Set(),
    probing: true,
    todo: () => {
      throw UNPROVEN;
    },
    client: (_, call, i, key) => callShape(call, i, probe, key),
    returns(from, shape) {
      if (from !== fn) return false;
      const value = isAsync(fn) ? promiseOf(shape) : shape;
      if (returned && !sameShape(returned, value)) twice = true;
      returned ??= value;
      return true;
    },
  };
  try {
    for (const ref of refs) probe.follow(r, ref);
  } catch (error) {
    if (error === UNPROVEN) return undefined;
    throw error;
  }
  return twice ? undefined : returned;
}

/**
 * Where an options parameter's `key` (the document, `gqlFetch({ query: DOC })`) is used in the
 * function: each `opts.query`, or the references of `{ query }` destructured. Undefined when the
 * options object itself goes anywhere else (handed on whole, it may carry the document out of sight).
 */
function keyedUses(name: ts.BindingName, key: string): ts.Node[] | undefined {
  if (ts.isObjectBindingPattern(name)) {
    const element = name.elements.find((e) => keyText(e.propertyName ?? e.name) === key);
    return element && !element.dotDotDotToken && ts.isIdentifier(element.name) ? referencesOf(element.name) : undefined;
  }
  if (!ts.isIdentifier(name)) return undefined;
  const uses: ts.Node[] = [];
  for (const ref of referencesOf(name) ?? []) {
    const p = ref.parent;
    if (!ts.isPropertyAccessExpression(p) || p.expression !== ref) return undefined;
    if (p.name.text === key) uses.push(p);
  }
  return uses;
}

/** The function a name of this file declares: `function f`, `const f = (…) => …`, `const f = function …`. */
function functionOf(id: ts.Identifier): ts.FunctionLikeDeclaration | undefined {
  const p = id.parent;
  if (ts.isFunctionDeclaration(p) && p.name === id) return p.body ? p : undefined;
  if (!ts.isVariableDeclaration(p) || p.name !== id || !(ts.getCombinedNodeFlags(p) & ts.NodeFlags.Const)) return undefined;
  let init = p.initializer;
  while (init && ts.isParenthesizedExpression(init)) init = init.expression;
  return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
}

/** The method `name` of a class or object literal: a method, or a property holding an arrow or function. */
function memberOf(holder: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression, name: string): ts.FunctionLikeDeclaration | undefined {
  const members: readonly ts.Node[] = ts.isObjectLiteralExpression(holder) ? holder.properties : holder.members;
  for (const m of members) {
    const key = (m as { name?: ts.Node }).name;
    if (!key || !(ts.isIdentifier(key) || ts.isStringLiteral(key)) || key.text !== name) continue;
    if (ts.isMethodDeclaration(m)) return m.body ? m : undefined;
    let init = ts.isPropertyDeclaration(m) || ts.isPropertyAssignment(m) ? m.initializer : undefined;
    while (init && ts.isParenthesizedExpression(init)) init = init.expression;
    return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
  }
  return undefined;
}

/** The import binding `id` refers to, by its local name. */
const importedName = (id: ts.Identifier): string | undefined => {
  const decl = declarationFor(id);
  const p = decl?.parent;
  return decl && p && (ts.isImportSpecifier(p) || ts.isImportClause(p)) ? decl.text : undefined;
};

/** What the callee of `call` is: a function of this file, or an imported name (and the method called on it). */
type Callee = { fn: ts.FunctionLikeDeclaration } | { local: string; member?: string };

function calleeOf(call: ts.CallExpression): Callee | undefined {
  let callee: ts.Expression = call.expression;
  while (ts.isParenthesizedExpression(callee) || ts.isNonNullExpression(callee)) callee = callee.expression;
  if (ts.isIdentifier(callee)) {
    const decl = declarationFor(callee);
    const fn = decl && functionOf(decl);
    if (fn) return { fn };
    const local = importedName(callee);
    return local ? { local } : undefined;
  }
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const member = callee.name.text;
  let receiver: ts.Expression = callee.expression;
  while (ts.isParenthesizedExpression(receiver) || ts.isNonNullExpression(receiver)) receiver = receiver.expression;
  // `this.request(doc)` in a method of the class declaring `request`.
  if (receiver.kind === ts.SyntaxKind.ThisKeyword) {
    const cls = ts.findAncestor(callee, ts.isClassLike);
    const fn = cls && memberOf(cls, member);
    return fn ? { fn } : undefined;
  }
  let init: ts.Expression | undefined = receiver;
  if (ts.isIdentifier(receiver)) {
    const local = importedName(receiver);
    if (local) return { local, member };
    const decl = declarationFor(receiver);
    const p = decl?.parent;
    if (!p || !ts.isVariableDeclaration(p) || !(ts.getCombinedNodeFlags(p) & ts.NodeFlags.Const)) return undefined;
    init = p.initializer;
  }
  while (init && ts.isParenthesizedExpression(init)) init = init.expression;
  // `const api = { request(doc) {…} }`
  if (init && ts.isObjectLiteralExpression(init)) {
    const fn = memberOf(init, member);
    return fn ? { fn } : undefined;
  }
  // `const api = new Api(…)`: the class of this file, or one imported.
  if (!init || !ts.isNewExpression(init) || !ts.isIdentifier(init.expression)) return undefined;
  const cls = declarationFor(init.expression);
  if (cls && ts.isClassDeclaration(cls.parent)) {
    const fn = memberOf(cls.parent, member);
    return fn ? { fn } : undefined;
  }
  const imported = importedName(init.expression);
  return imported ? { local: imported, member } : undefined;
}

/** What `call` gives when the document is its `index`th argument and its callee is a client of the project's own. */
export function callShape(call: ts.CallExpression, index: number, probe: Probe, key?: string): Shape | undefined {
  const callee = calleeOf(call);
  if (!callee) return undefined;
  if ('fn' in callee) return clientShape(callee.fn, index, probe, key);
  // The scans of other files record clients by their document parameter only.
  return key === undefined ? probe.imported?.(call.getSourceFile(), callee.local, callee.member, index) : undefined;
}

/** A client's callee in another file, and what the client gives for each shape that callee may give. */
export interface Via {
  target: { file: string; name: string };
  member?: string;
  index: number;
  table: [Shape, Shape][];
}

/** A client this file declares at its top level, as the scan records it for the other files of the run: what it gives, or what it gives through another file's. */
export interface ClientOf {
  name: string;
  member?: string;
  index: number;
  returns?: Shape;
  via?: Via;
}

/** What another file's client may give, each tried when a client here calls one: the results of the clients the pass knows, and promises of them. */
const CANDIDATES: readonly Shape[] = ([DATA, RESULT, { kind: 'response' }, { kind: 'source' }] as Shape[]).flatMap((s) => [s, promiseOf(s)]);

/**
 * Whether `fn` is a client through one client of another file (a wrapper of an imported wrapper):
 * the scan of this file does not know what that one gives, so it records what this one gives
 * for each shape it could give; the run's facts settle it (`reads/cross.ts`).
 */
function through(fn: ts.FunctionLikeDeclaration, index: number, probe: Probe, origin: (sf: ts.SourceFile, local: string) => Via['target'] | undefined): Via | undefined {
  let wanted: { local: string; member?: string; index: number } | undefined;
  let several = false;
  const asking: Probe = {
    ...probe,
    imported(_, local, member, i) {
      if (wanted && (wanted.local !== local || wanted.member !== member || wanted.index !== i)) several = true;
      wanted ??= { local, member, index: i };
      return undefined;
    },
  };
  if (clientShape(fn, index, asking) || !wanted || several) return undefined;
  const target = origin(fn.getSourceFile(), wanted.local);
  if (!target) return undefined;
  const table: [Shape, Shape][] = [];
  for (const given of CANDIDATES) {
    const assumed: Probe = { ...probe, imported: (_, local, member, i) => (local === wanted!.local && member === wanted!.member && i === wanted!.index ? given : undefined) };
    const returns = clientShape(fn, index, assumed);
    if (returns) table.push([given, returns]);
  }
  return table.length > 0 ? { target, member: wanted.member, index: wanted.index, table } : undefined;
}

/**
 * The clients of the file another file can import: its top-level functions, the methods of its
 * classes, and the methods of its top-level instances and object literals. `origin` names the
 * declaration an imported name of the file stands for.
 */
export function clientsOf(sf: ts.SourceFile, probe: Probe, origin: (sf: ts.SourceFile, local: string) => Via['target'] | undefined): ClientOf[] {
  const found: ClientOf[] = [];
  const each = (name: string, fn: ts.FunctionLikeDeclaration | undefined, member?: string) => {
    if (!fn) return;
    fn.parameters.forEach((_, index) => {
      const returns = clientShape(fn, index, probe);
      const via = returns ? undefined : through(fn, index, probe, origin);
      if (returns || via) found.push({ name, ...(member === undefined ? {} : { member }), index, ...(returns ? { returns } : { via }) });
    });
  };
  const methods = (name: string, holder: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression) => {
    const members: readonly ts.Node[] = ts.isObjectLiteralExpression(holder) ? holder.properties : holder.members;
    for (const m of members) {
      const key = (m as { name?: ts.Node }).name;
      if (key && (ts.isIdentifier(key) || ts.isStringLiteral(key))) each(name, memberOf(holder, key.text), key.text);
    }
  };
  for (const stmt of sf.statements) {
    if (ts.isFunctionDeclaration(stmt) && stmt.name) each(stmt.name.text, functionOf(stmt.name));
    else if (ts.isClassDeclaration(stmt) && stmt.name) methods(stmt.name.text, stmt);
    else if (ts.isVariableStatement(stmt))
      for (const decl of stmt.declarationList.declarations) {
        if (!ts.isIdentifier(decl.name)) continue;
        const fn = functionOf(decl.name);
        if (fn) {
          each(decl.name.text, fn);
          continue;
        }
        let init = decl.initializer;
        while (init && ts.isParenthesizedExpression(init)) init = init.expression;
        if (init && ts.isObjectLiteralExpression(init) && stmt.declarationList.flags & ts.NodeFlags.Const) methods(decl.name.text, init);
        if (init && ts.isNewExpression(init) && ts.isIdentifier(init.expression) && stmt.declarationList.flags & ts.NodeFlags.Const) {
          const cls = declarationFor(init.expression);
          if (cls && ts.isClassDeclaration(cls.parent)) methods(decl.name.text, cls.parent);
        }
      }
  }
  return found;
}
