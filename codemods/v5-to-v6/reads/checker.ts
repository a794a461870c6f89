/**
 * Reads of typed results, wherever they go. The local and cross-file passes follow a result by
 * data flow, one function into the project's own code; a result whose type the run knows (a
 * `TypedDocumentNode`, the client preset's or gql.tada's `graphql(…)`, `useQuery<UsersQuery>`, a
 * codegen result type named after the operation) is followed by the TypeScript checker instead:
 * every property read of a moved key, and every destructuring, on an expression whose type is
 * that operation's data type is a read of its data, at any depth of calls and in any file of the
 * run. Those reads get the local pass's rewrites (`reads/patterns.ts`).
 *
 * Where a typed value goes out of the checker's sight (into a value typed `any`, `unknown` or
 * another type, a spread, a read off a union with other types, a computed key) the place gets a
 * marker: the pass never stops silently.
 *
 * The program (`lib/program.ts`) is built only when the scan found a typed operation whose paths
 * move (`TypedFact`), once per run.
 */
import { isAbsolute } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { FileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import { programOf } from '../../lib/program.js';
import type { Project } from '../../lib/project.js';
import { outer } from './scope.js';
import { rewriteIn, rewriteKeyedAccess } from './keyed.js';
import { keyText, rewriteAccess, rewriteDataPattern, writtenKey } from './patterns.js';
import { readsOf } from './sites.js';
import { answerResultType, declaredResultTypes, literalKeys, moveResultType, type TypeAnswer, type TypeHit } from './result-types.js';
import { settled, type CrossHooks, type Reads, type TypedFact, type TypedHow } from './types.js';

type Move = TypedFact['moves'][number];
interface Op { moves: Move[]; open: boolean }

/** What the checker found in one file, by position in its text (the runner's parse of the same text). */
type Hit =
  /** `keys`: the literal names a computed key's type allows (`data[key]`, `key in data`). */
  | { kind: 'access' | 'pattern' | 'in'; start: number; end: number; op: number; keys?: readonly string[] }
  | { kind: 'todo'; start: number; end: number; op: number; why: string }
  | Exclude<TypeHit, { kind: 'todo' }>;

export interface CheckedRun {
  /** The source files of the program (the run's report names it). */
  files: number;
  ops: Op[];
  hits: Map<string, Hit[]>;
  /** `file\0start` of a call argument handed, typed, to a parameter whose type is the result's: the callee's reads are typed too. */
  followed: Map<string, string>;
  /** `file\0start` of a typed value whose every next place the checker sees (its type holds the result there). */
  safe: Set<string>;
  /**
   * Files of the run the checker could not read or answer for (too deeply nested to parse, a
   * type question that overflowed the stack), with why: each is that file's error, and the
   * checker still answers for the rest.
   */
  failed: Map<string, string>;
  /** `file\0start` of a type reference naming a result type → what became of that type (`reads/result-types.ts`). */
  types: Map<string, TypeAnswer>;
}

/** Each run's checker, or why it failed as a whole (asked again by every file, answered once). */
const runs = new WeakMap<readonly unknown[], CheckedRun | undefined | Error>();

/**
 * The checker's findings for the run whose scan gave `facts`; undefined (and no program) when
 * nothing typed moves. A failure no file can be blamed for throws for every file that asks: the
 * runner makes it each one's error (a file's own failure is in `failed`).
 */
export function checkedRun(facts: readonly { kind: string }[], project: Project): CheckedRun | undefined {
  if (!runs.has(facts)) {
    // The checker reads files by their paths: a run over texts without one (the API on a string) has none to give it.
    const typed = facts.filter((f): f is TypedFact => f.kind === 'typed' && isAbsolute((f as TypedFact).file));
    try {
      runs.set(facts, typed.length > 0 ? check(typed, project) : undefined);
    } catch (error) {
      runs.set(facts, error as Error);
    }
  }
  const run = runs.get(facts);
  if (run instanceof Error) throw run;
  return run;
}

/** Throws the checker's failure for `file` (its typed reads cannot be followed), if it had one. */
export function assertChecked(run: CheckedRun | undefined, file: string): void {
  const why = run?.failed.get(file);
  if (why !== undefined) throw new Error(`the TypeScript checker cannot follow the typed results in this file: ${why}`);
}

/** The node spanning exactly [start, end) (the outermost such one). */
export function nodeAt(sf: ts.SourceFile, start: number, end: number, kind?: ts.SyntaxKind): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (n: ts.Node): void => {
    if (found || n.getEnd() < end || n.pos > start) return;
    if (n.getStart(sf) === start && n.getEnd() === end && (kind === undefined || n.kind === kind)) {
      found = n;
      return;
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(sf, visit);
  return found;
}

const opaque = (t: ts.Type) => (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) !== 0;
const objectish = (t: ts.Type) => !opaque(t) && ((t.flags & ts.TypeFlags.Object) !== 0 || t.isIntersection());

/** The data type `node` names for its operation (see `TypedHow`). */
function dataTypesOf(checker: ts.TypeChecker, program: ts.Program, node: ts.Node, how: TypedHow): ts.Type[] {
  if (how.kind === 'type') return ts.isTypeNode(node) ? [checker.getTypeFromTypeNode(node)] : [];
  if (how.kind === 'document') {
    // TypedDocumentNode, the client preset's DocumentTypeDecoration and gql.tada's documents all
    // carry `__apiType?: (variables) => Result`.
    const type = checker.getNonNullableType(checker.getTypeAtLocation(node));
    const api = type.getProperty('__apiType');
    if (!api) return [];
    const fn = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(api, node));
    return fn.getCallSignatures().map((s) => s.getReturnType());
  }
  const found: ts.Type[] = [];
  for (const sf of program.getSourceFiles()) {
    if (program.isSourceFileFromExternalLibrary(sf) || !sf.text.includes(how.name)) continue;
    for (const stmt of sf.statements)
      if ((ts.isTypeAliasDeclaration(stmt) || ts.isInterfaceDeclaration(stmt)) && stmt.name.text === how.name) found.push(checker.getTypeAtLocation(stmt.name));
  }
  return found;
}

const movesKey = (op: Op) => `${op.moves.map((m) => `${m.from.join('.')}>${m.to.join('.')}`).sort().join(',')}:${op.open}`;

function check(typed: readonly TypedFact[], project: Project): CheckedRun {
  const runFiles = new Set(project.allFacts().map((f) => f.file));
  for (const f of typed) runFiles.add(f.file);
  const { program, unread } = programOf(typed.map((f) => f.file), runFiles, project);
  const checker = program.getTypeChecker();
  const failed = new Map([...unread].filter(([file]) => runFiles.has(file)));
  const ops: Op[] = [];
  const opIndex = new Map<string, number>();
  /** data type → the operations it is the result of (two different moves: its reads are marked). */
  const targets = new Map<ts.Type, Set<number>>();
  const factOps = new Map<string, number>(); // `file\0start` of a type node a fact names → its operation
  for (const f of typed) {
    const sf = program.getSourceFile(f.file);
    const node = sf && nodeAt(sf, f.at, f.end);
    if (!node) continue;
    const op: Op = { moves: f.moves, open: f.open };
    const key = movesKey(op);
    let index = opIndex.get(key);
    if (index === undefined) opIndex.set(key, (index = ops.push(op) - 1));
    if (f.how.kind === 'type') factOps.set(`${f.file}\0${f.at}`, index);
    let types: ts.Type[];
    try {
      types = dataTypesOf(checker, program, node, f.how);
    } catch (error) {
      failed.set(f.file, (error as Error).message);
      continue;
    }
    for (const type of types) {
      if (!objectish(type)) continue;
      const set = targets.get(type);
      if (set) set.add(index);
      else targets.set(type, new Set([index]));
    }
  }
  const run: CheckedRun = { files: program.getSourceFiles().filter((sf) => !sf.isDeclarationFile).length, ops, hits: new Map(), followed: new Map(), safe: new Set(), failed, types: new Map() };
  if (targets.size === 0) return run;
  const keys = new Set(ops.flatMap((op) => op.moves.map((m) => m.from[0]!)));
  const groups = new Set(ops.flatMap((op) => op.moves.map((m) => m.to[0]!)));

  /** The operation a value of `type` is the data of: a number, 'mixed' (with other types or operations), or undefined. */
  const dataOf = (type: ts.Type): number | 'mixed' | undefined => {
    const t = checker.getNonNullableType(type);
    const parts = t.isUnion() ? t.types : [t];
    const found = new Set<number>();
    let other = false;
    for (const part of parts) {
      const mine = targets.get(part);
      if (mine) for (const i of mine) found.add(i);
      else other = true;
    }
    if (found.size === 0) return undefined;
    return found.size === 1 && !other ? [...found][0]! : 'mixed';
  };
  /** Does a value of `type` hold the data: the data itself, or a client result whose `data` it is. */
  const holds = (type: ts.Type, depth = 0): boolean => {
    if (targets.has(type)) return true;
    if (type.isUnionOrIntersection()) return type.types.some((t) => holds(t, depth));
    if (depth > 0 || !objectish(type)) return false;
    const data = type.getProperty('data');
    return !!data && holds(checker.getNonNullableType(checker.getTypeOfSymbol(data)), depth + 1);
  };
  const opOf = (type: ts.Type): number => {
    const t = checker.getNonNullableType(type);
    for (const part of t.isUnionOrIntersection() ? t.types : [t]) {
      const mine = targets.get(part);
      if (mine) return [...mine][0]!;
      const data = objectish(part) ? part.getProperty('data') : undefined;
      const inner = data && dataOf(checker.getTypeOfSymbol(data));
      if (typeof inner === 'number') return inner;
    }
    return 0;
  };

  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !runFiles.has(sf.fileName)) continue;
    try {
      visitFile(sf);
    } catch (error) {
      // A type question too deep for the stack: this file's error, the others go on.
      run.hits.delete(sf.fileName);
      failed.set(sf.fileName, (error as Error).message);
    }
  }
  const types = declaredResultTypes({ checker, program, runFiles, targets, ops, facts: factOps });
  for (const [file, list] of types.hits) if (!failed.has(file)) run.hits.set(file, [...(run.hits.get(file) ?? []), ...list]);
  run.types = types.answers;
  return run;

  function visitFile(sf: ts.SourceFile): void {
    const hits: Hit[] = [];
    const file = sf.fileName;
    const span = (n: ts.Node) => ({ start: n.getStart(sf), end: n.getEnd() });
    const todo = (n: ts.Node, op: number, why: string) => hits.push({ kind: 'todo', ...span(n), op, why });
    const typeName = (t: ts.Type) => checker.typeToString(t).slice(0, 60);

    /** Does a key that can be any of `names` ask for something that moved (or may have)? */
    const asks = (names: readonly string[], op: number) => ops[op]!.open || names.some((k) => keys.has(k) || groups.has(k));
    /** A read of `key` off `of`: rewritten when `of` is an operation's data, marked when it may be. */
    const read = (access: ts.PropertyAccessExpression | ts.ElementAccessExpression, of: ts.Expression, key: string | undefined) => {
      const found = dataOf(checker.getTypeAtLocation(of));
      if (found === undefined) return;
      if (found === 'mixed') return todo(access, opOf(checker.getTypeAtLocation(of)), `a read off a value typed \`${typeName(checker.getTypeAtLocation(of))}\`, the typed result of an operation whose paths move or another value`);
      if (key === undefined && ts.isElementAccessExpression(access)) {
        // A key typed with literal names is read like those names; any other may name a moved field.
        const names = literalKeys(checker.getTypeAtLocation(access.argumentExpression));
        if (!names) return todo(access, found, `a computed read of a typed operation's data: \`${access.argumentExpression.getText(sf).slice(0, 40)}\` may name a moved field`);
        if (asks(names, found)) hits.push({ kind: 'access', ...span(access), op: found, keys: names });
        return;
      }
      if (keys.has(key!) || ops[found]!.open) hits.push({ kind: 'access', ...span(access), op: found });
    };
    /** `for (k in data)`, `k in data`: the data asked for its keys, which are the v6 groups. */
    const byKeys = (n: ts.ForInStatement | ts.BinaryExpression) => {
      const data = ts.isForInStatement(n) ? n.expression : n.right;
      const found = dataOf(checker.getTypeAtLocation(data));
      if (found === undefined) return;
      const op = found === 'mixed' ? opOf(checker.getTypeAtLocation(data)) : found;
      if (ts.isForInStatement(n)) return todo(data, op, "`for…in` over a typed operation's data lists its v6 groups, not the v5 fields");
      const names = literalKeys(checker.getTypeAtLocation(n.left));
      if (!names || found === 'mixed') return todo(n, op, `\`in\` asks a typed operation's data for \`${n.left.getText(sf).slice(0, 40)}\`, which may name a moved field`);
      if (asks(names, op)) hits.push({ kind: 'in', ...span(n), op, keys: names });
    };
    const pattern = (p: ts.ObjectBindingPattern) => {
      const type = checker.getTypeAtLocation(p);
      const found = dataOf(type);
      if (found === undefined) return;
      if (found === 'mixed') return todo(p, opOf(type), `a destructuring of a value typed \`${typeName(type)}\`, the typed result of an operation whose paths move or another value`);
      hits.push({ kind: 'pattern', ...span(p), op: found });
    };
    /** A typed value going somewhere: followed when its new place is typed to hold it too. */
    const goes = (e: ts.Expression) => {
      const type = checker.getTypeAtLocation(e);
      if (opaque(type) || !holds(checker.getNonNullableType(type))) return;
      const o = outer(e) as ts.Expression;
      if (goesOutOfSight(o, type)) return;
      run.safe.add(`${file}\0${o.getStart(sf)}`);
    };
    /** A function handed the result by name (`.then(show)`, `onCompleted: handle`) with a parameter typed to hold it: read there by the checker. */
    const callback = (id: ts.Identifier) =>
      checker.getTypeAtLocation(id).getCallSignatures().some((sig) => sig.parameters.some((p) => holds(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, id))))) && run.safe.add(`${file}\0${id.getStart(sf)}`);
    /** True when `o` (of `type`) goes where the checker loses it; the place is marked. */
    const goesOutOfSight = (o: ts.Expression, type: ts.Type): boolean => {
      const p = o.parent;
      if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === o) return false;
      if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === o) return false;
      if (ts.isVariableDeclaration(p) && p.initializer === o && !p.type) return false;
      if (ts.isSpreadAssignment(p) || ts.isSpreadElement(p) || ts.isJsxSpreadAttribute(p)) return todo(p, opOf(type), 'the typed result is spread into a value the checker cannot follow'), true;
      let there: ts.Type | undefined;
      if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.arguments?.includes(o)) {
        // The instantiated signature: `useState(data)` holds what `data` is.
        const signature = checker.getResolvedSignature(p);
        const index = p.arguments.indexOf(o);
        const last = (signature?.parameters.length ?? 0) - 1;
        const param = signature?.parameters[Math.min(index, last)];
        if (!param) return todo(o, opOf(type), `the typed result is passed to \`${p.expression.getText(sf).slice(0, 40)}\`, whose parameters the checker cannot find`), true;
        there = checker.getTypeOfSymbolAtLocation(param, p);
        // `console.log(...data: any[])`: the element of a rest parameter.
        if (signature && index >= last && ts.isParameter(param.valueDeclaration ?? p) && (param.valueDeclaration as ts.ParameterDeclaration).dotDotDotToken && checker.isArrayType(there))
          there = checker.getTypeArguments(there as ts.TypeReference)[0] ?? there;
        if (!opaque(there) && holds(checker.getNonNullableType(there))) {
          const callee = signature?.getDeclaration()?.getSourceFile().fileName;
          if (callee && runFiles.has(callee)) run.followed.set(`${file}\0${o.getStart(sf)}`, callee);
          return false;
        }
      } else there = checker.getContextualType(o);
      if (!there || holds(checker.getNonNullableType(there)) || (there.flags & ts.TypeFlags.BooleanLike) !== 0) return false;
      todo(o, opOf(type), `the typed result goes where its type is \`${typeName(there)}\`, so the checker cannot follow its reads there`);
      return true;
    };
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAccessExpression(n)) {
        if (keys.has(n.name.text) || ops.some((op) => op.open)) read(n, n.expression, n.name.text);
        goes(n);
      } else if (ts.isElementAccessExpression(n)) {
        const key = writtenKey(n.argumentExpression);
        if (key === undefined || keys.has(key)) read(n, n.expression, key);
        goes(n);
      } else if (ts.isForInStatement(n) || (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword)) {
        byKeys(n);
      } else if (ts.isObjectBindingPattern(n)) {
        if (n.elements.some((el) => { const key = keyText(el.propertyName ?? el.name); return key === undefined || keys.has(key) || !!el.dotDotDotToken; })) pattern(n);
      } else if (ts.isIdentifier(n) && isReference(n)) goes(n), callback(n);
      else if (ts.isCallExpression(n) || ts.isAwaitExpression(n)) goes(n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (hits.length > 0) run.hits.set(file, hits);
  }
}

/** An identifier standing for a value: not a declaration's name, a member's name or a type. */
function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) && p.name === id) || ts.isQualifiedName(p) || ts.isTypeReferenceNode(p)) return false;
  if ('name' in p && (p as { name?: ts.Node }).name === id && !ts.isShorthandPropertyAssignment(p)) return false;
  if (ts.isBindingElement(p) && p.propertyName === id) return false;
  if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isExportSpecifier(p) || ts.isJsxAttribute(p)) return false;
  if (ts.isJsxOpeningElement(p) || ts.isJsxClosingElement(p) || ts.isJsxSelfClosingElement(p)) return false;
  return !ts.isLabeledStatement(p) && !ts.isBreakOrContinueStatement(p);
}

/** The apply's side of the checker for one file: the `passes` it answers, and its reads rewritten or marked. */
export function typedHooks(sf: ts.SourceFile, run: CheckedRun | undefined, base: CrossHooks | undefined, followed: Set<number>, writing?: ReadonlySet<string>): CrossHooks | undefined {
  if (!run) return base;
  return {
    ...base,
    passes(r, call, index, shape) {
      const arg = call.arguments[index];
      // The data flow follows it there: the checker's marker for the same hand-off would be wrong.
      if (base?.passes?.(r, call, index, shape)) return !!arg && !!followed.add(arg.getStart(sf));
      const callee = arg && run.followed.get(`${sf.fileName}\0${arg.getStart(sf)}`);
      if (!callee || (writing && !writing.has(callee))) return false;
      r.ch.note(call, `the typed result handed to \`${call.expression.getText(sf).slice(0, 40)}\` is followed by the TypeScript checker: ${r.summary}`);
      return true;
    },
    resultType: (r, node) => answerResultType(sf, run.types, writing, r, node),
    follows(r, node) {
      // Under `--since` the files the value reaches may not be written: the data flow's marker stays.
      if (writing || !run.safe.has(`${sf.fileName}\0${node.getStart(sf)}`)) return false;
      r.ch.note(node, `the typed result is followed from here by the TypeScript checker: ${r.summary}`);
      return true;
    },
  };
}

/** The edit an access or pattern rewrite makes lies in this range: an edit already there means another pass moved it. */
function rewritten(ch: FileChanges, node: ts.Node): boolean {
  const start = ts.isPropertyAccessExpression(node) ? node.name.getStart(ch.sf) : ts.isElementAccessExpression(node) ? node.expression.getEnd() : node.getStart(ch.sf);
  const end = node.getEnd();
  return ch.edits.some((e) => e.start < end && e.end > start);
}

/**
 * Rewrites or marks the reads the checker found in this file. `marked` are the lines the other
 * read passes already marked (one marker per line says it), `markedAt` the starts of the nodes
 * they marked (a read they left for the user stays as it is); `followed` the values they followed
 * into other functions (the checker's marker for the same hand-off would be wrong).
 */
export function moveTypedReads(ch: FileChanges, run: CheckedRun | undefined, schema: GraphQLSchema | undefined, marked: ReadonlySet<number>, followed: ReadonlySet<number>, markedAt: ReadonlySet<number>): void {
  const sf = ch.sf;
  const hits = run?.hits.get(sf.fileName);
  if (!run || !hits) return;
  const reads = new Map<number, Reads>();
  const readsFor = (op: number) => {
    let r = reads.get(op);
    if (!r) reads.set(op, (r = readsOf(ch, run.ops[op]!.moves, run.ops[op]!.open, schema)));
    return r;
  };
  for (const hit of hits) {
    const r = readsFor(hit.op);
    const node = nodeAt(sf, hit.start, hit.end);
    if (!node) {
      // The runner's text is not the one the program read from disk (a step before wrote it).
      r.todo(sf.statements.find((s) => s.getEnd() >= hit.start) ?? sf, 'the TypeScript checker found a read of a typed result here that the migration could not place');
      continue;
    }
    if (hit.kind === 'todo') {
      if (!marked.has(sf.getLineAndCharacterOfPosition(hit.start).line) && !followed.has(hit.start) && !settled.has(node)) r.todo(node, hit.why);
      continue;
    }
    if (rewritten(ch, node) || markedAt.has(hit.start)) continue;
    if (hit.kind === 'members' || hit.kind === 'index' || hit.kind === 'keys') moveResultType(r, node, hit);
    else if (hit.kind === 'pattern' && ts.isObjectBindingPattern(node)) rewriteDataPattern(r, node);
    else if (hit.kind === 'in' && ts.isBinaryExpression(node)) rewriteIn(r, node, hit.keys);
    else if (ts.isPropertyAccessExpression(node)) rewriteAccess(r, node, node.name.text);
    else if (ts.isElementAccessExpression(node)) {
      const key = writtenKey(node.argumentExpression);
      if (key === undefined) rewriteKeyedAccess(r, node, hit.keys);
      else rewriteAccess(r, node, key);
    }
  }
}
