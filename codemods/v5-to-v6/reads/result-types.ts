/**
 * Result types follow their reads (issue 43.5). When the reads of a typed result move
 * (`data.userGetAll` → `data.User.userGetAll`), the types the user wrote for that result must move
 * too, or the migrated code no longer compiles:
 *
 * - a type literal written where the result is typed (`request<{ added: T }>(…)`, `gql<…>`,
 *   `TypedDocumentNode<{ … }, V>`) is rewritten there (`useSite`);
 * - an interface or type alias of the user's own (`interface UsersData { userGetAll: U[] }`,
 *   however many files name it: `request<UsersData>`, `page: UsersData`) is rewritten at its
 *   declaration when every use of it is one the migration answers for (`declaredResultTypes`, run
 *   by the checker pass): it types only results whose fields move the same way, no object literal
 *   is written to it in the v5 shape, nothing extends it, takes `keyof` it or picks its keys.
 *   Otherwise its declaration gets a marker saying why;
 * - `X['userGetAll']` → `X['User']['userGetAll']` where X is such a type, or a generated one;
 * - a generated type (GraphQL Code Generator, gql.tada, Relay) is left to its generator: the
 *   marker names the command that regenerates it from the v6 schema.
 */
import { dirname, relative } from 'node:path';
import { ts } from '../../lib/parse.js';
import { rewriteDataType } from './patterns.js';
import type { Reads } from './types.js';

/** What the checker pass says of a type reference naming a result type: moved at its declaration, marked there, or a reason for the use's marker. */
export type TypeAnswer = { kind: 'moved'; file: string } | { kind: 'marked'; file: string } | { kind: 'why'; why: string };

export type TypeHit =
  | { kind: 'members'; start: number; end: number; op: number }
  | { kind: 'index'; start: number; end: number; op: number; keys: readonly string[] }
  /** `Pick<X, 'userGetAll'>` → `Pick<X, 'User'>`: the key list's text in the v6 shape. */
  | { kind: 'keys'; start: number; end: number; op: number; text: string }
  | { kind: 'todo'; start: number; end: number; op: number; why: string };

/** Calls that type the result of the document they run: a type argument there is a result type. */
const CLIENT_CALLS = new Set(['request', 'rawRequest', 'query', 'mutate', 'subscribe', 'watchQuery', 'readQuery', 'writeQuery', 'updateQuery', 'readFragment', 'useQuery', 'useLazyQuery', 'useSuspenseQuery', 'useBackgroundQuery', 'useMutation', 'useSubscription', 'gql', 'graphql']);

/** The command that regenerates a generated file's types, or undefined for a file a person wrote. */
export function generatorOf(sf: ts.SourceFile): string | undefined {
  const file = sf.fileName.split('\\').join('/');
  if (/\/__generated__\/[^/]*\.graphql\.[jt]s$/.test(file)) return 'npx relay-compiler';
  if (/graphql-env\.d\.ts$/.test(file)) return 'npx gql.tada generate output';
  // GraphQL Code Generator's typescript plugin writes these helpers into every output.
  if (/^export type (Exact|Scalars|Maybe)\b/m.test(sf.text) || /^\s*(\/\/|\/\*)[^\n]*\bgenerated\b/i.test(sf.text)) return 'npx graphql-codegen';
  return undefined;
}

/** Codegen's shape: a result type whose `__typename` is a root type's name. */
const rootTypename = (members: ts.NodeArray<ts.TypeElement>) =>
  members.some((m) => ts.isPropertySignature(m) && m.name.getText() === '__typename' && !!m.type && /^['"](Query|Mutation|Subscription)['"]$/.test(m.type.getText()));

/**
 * A type written where the result of a moved document is typed (`node`), on behalf of the read
 * pass: a literal is rewritten, a named type is what the checker pass says, else marked at `at`.
 */
export function useSite(r: Reads, type: ts.TypeNode, at: ts.Node, what: string): void {
  if (ts.isTypeLiteralNode(type)) return void rewriteDataType(r, type);
  const answer = r.resultType?.(r, type);
  if (answer === 'handled') return;
  r.todo(at, `${what} \`${type.getText(r.sf).slice(0, 60)}\` describes the v5 result: ${answer ?? 'regenerate it (or write the v6 shape)'}`);
}

interface Candidate {
  symbol: ts.Symbol;
  name: string;
  ops: Set<number>;
  /** The declaration's members, when the migration can write them (an interface, or an alias of an object type). */
  body?: ts.InterfaceDeclaration | ts.TypeLiteralNode;
  sf?: ts.SourceFile;
  generator?: string;
  /** Why it cannot move, once known. */
  unsafe?: string;
}

export interface ResultTypeRun {
  checker: ts.TypeChecker;
  program: ts.Program;
  runFiles: ReadonlySet<string>;
  targets: ReadonlyMap<ts.Type, ReadonlySet<number>>;
  /** Each operation's moves (`userGetAll` → `User.userGetAll`). */
  ops: readonly { moves: readonly { from: readonly string[]; to: readonly string[] }[] }[];
  /** `file\0start` of each type node a typed fact names, and its operation. */
  facts: ReadonlyMap<string, number>;
}

/** Where `n` is, named from the declaration `from` of the type whose marker says it. */
const lineFrom = (from: ts.SourceFile | undefined, sf: ts.SourceFile, n: ts.Node) =>
  `${(from ? relative(dirname(from.fileName), sf.fileName) : sf.fileName).split('\\').join('/')}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;

/** The candidate a type stands for: its alias's or interface's declaration. */
const symbolOf = (type: ts.Type) => type.aliasSymbol ?? type.getSymbol();

/**
 * The user's own result types: each moved at its declaration or marked there, and the indexed
 * accesses into result types rewritten. Returns the answers for type references naming them
 * (`file\0start` of the reference).
 */
export function declaredResultTypes(run: ResultTypeRun): { answers: Map<string, TypeAnswer>; hits: Map<string, TypeHit[]> } {
  const { checker, program } = run;
  /** The v5 keys each operation moves, and the group each goes to. */
  const moves = run.ops.map((op) => new Map(op.moves.map((m) => [m.from[0]!, m.to[0]!])));
  const hits = new Map<string, TypeHit[]>();
  const hit = (file: string, h: TypeHit) => void (hits.get(file)?.push(h) ?? hits.set(file, [h]));
  const candidates = new Map<ts.Symbol, Candidate>();
  for (const [type, ops] of run.targets) {
    const symbol = symbolOf(type);
    const decls = symbol?.declarations ?? [];
    if (!symbol || decls.some((d) => ts.isTypeLiteralNode(d))) continue;
    let c = candidates.get(symbol);
    if (!c) {
      c = { symbol, name: symbol.name, ops: new Set() };
      candidates.set(symbol, c);
      const decl = decls[0];
      const sf = decl?.getSourceFile();
      c.sf = sf;
      const body = decl && (ts.isInterfaceDeclaration(decl) ? decl : ts.isTypeAliasDeclaration(decl) && ts.isTypeLiteralNode(decl.type) ? decl.type : undefined);
      if (!sf || !run.runFiles.has(sf.fileName) || sf.isDeclarationFile) c.generator = sf ? generatorOf(sf) ?? '' : '';
      else if ((c.generator = generatorOf(sf)) !== undefined || (body && rootTypename(body.members))) c.generator ??= 'npx graphql-codegen';
      else if (decls.length > 1) c.unsafe = 'it is declared more than once';
      else if (!body) c.unsafe = 'it is not written as an object type the migration can rewrite';
      else if (ts.isInterfaceDeclaration(body) && body.heritageClauses?.length) c.unsafe = 'it extends another type';
      else c.body = body;
    }
    for (const op of ops) c.ops.add(op);
  }
  for (const c of candidates.values()) if (c.ops.size > 1) c.unsafe ??= 'it types the results of operations whose fields move differently';
  const own = [...candidates.values()].filter((c) => c.generator === undefined);
  const answers = new Map<string, TypeAnswer>();
  /** `file\0start` of each type reference naming an own candidate. */
  const refs = new Map<string, Candidate>();
  const files = program.getSourceFiles().filter((sf) => run.runFiles.has(sf.fileName) && !sf.isDeclarationFile);
  const movedKeys = new Set(moves.flatMap((m) => [...m.keys()]));

  // Every reference to an own candidate, and what it asks of the type.
  for (const sf of files) {
    const named = own.filter((c) => sf.text.includes(c.name));
    const keyed = [...movedKeys].some((k) => sf.text.includes(k));
    if (named.length === 0 && !keyed) continue;
    const names = new Set(named.map((c) => c.name));
    const visit = (n: ts.Node): void => {
      if (ts.isIdentifier(n) && names.has(n.text)) reference(sf, n);
      else if (keyed && ts.isObjectLiteralExpression(n)) literal(sf, n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  function candidateOf(id: ts.Identifier): Candidate | undefined {
    let symbol = checker.getSymbolAtLocation(id);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol && candidates.get(symbol);
  }

  function reference(sf: ts.SourceFile, id: ts.Identifier): void {
    const c = candidateOf(id);
    if (!c || c.generator !== undefined) return;
    const p = id.parent;
    if (ts.isExpressionWithTypeArguments(p)) c.unsafe ??= `${lineFrom(c.sf, sf, p)} extends it`;
    if (!ts.isTypeReferenceNode(p)) return;
    refs.set(`${sf.fileName}\0${p.getStart(sf)}`, c);
    const ref = p;
    const up = ref.parent;
    if (ts.isTypeOperatorNode(up) && up.operator === ts.SyntaxKind.KeyOfKeyword) c.unsafe ??= `${lineFrom(c.sf, sf, up)} takes \`keyof\` it`;
    else if (ts.isIndexedAccessTypeNode(up) && up.objectType === ref && !literalKeys(checker.getTypeFromTypeNode(up.indexType)))
      c.unsafe ??= `${lineFrom(c.sf, sf, up)} reads it with a key the migration cannot name`;
    else if (ts.isTypeReferenceNode(up) && up.typeArguments?.includes(ref) && !run.facts.has(`${sf.fileName}\0${ref.getStart(sf)}`) && up.typeArguments.some((a) => a !== ref && (ts.isLiteralTypeNode(a) || ts.isUnionTypeNode(a))))
      c.unsafe ??= `${lineFrom(c.sf, sf, up)} names its keys`;
    else if ((ts.isCallExpression(up) || ts.isNewExpression(up) || ts.isTaggedTemplateExpression(up)) && up.typeArguments?.includes(ref)) {
      const callee = ts.isTaggedTemplateExpression(up) ? up.tag : up.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const fact = run.facts.get(`${sf.fileName}\0${ref.getStart(sf)}`);
      if (fact === undefined ? ts.isTaggedTemplateExpression(up) || (name !== undefined && CLIENT_CALLS.has(name)) : !c.ops.has(fact))
        c.unsafe ??= `${lineFrom(c.sf, sf, up)} also types the result of a document whose fields do not move this way`;
    }
  }

  /** An object literal with a moved key, written to a candidate: in the v5 shape, which the type would no longer accept. */
  function literal(sf: ts.SourceFile, lit: ts.ObjectLiteralExpression): void {
    if (!lit.properties.some((p) => p.name && movedKeys.has(p.name.getText(sf).replace(/^['"]|['"]$/g, '')))) return;
    const there = checker.getContextualType(lit);
    if (!there) return;
    for (const part of there.isUnion() ? there.types : [there]) {
      const c = candidates.get(symbolOf(part)!);
      if (c && c.generator === undefined) c.unsafe ??= `${lineFrom(c.sf, sf, lit)} writes a value of it in the v5 shape`;
    }
  }

  for (const c of own) {
    const op = [...c.ops][0]!;
    const decl = c.body ?? c.symbol.declarations?.[0];
    if (!decl || !c.sf) continue;
    const sf = c.sf;
    if (c.unsafe === undefined) hit(sf.fileName, { kind: 'members', start: c.body!.getStart(sf), end: c.body!.getEnd(), op });
    else {
      const at = ts.isTypeLiteralNode(decl) ? decl.parent : decl;
      hit(sf.fileName, { kind: 'todo', start: at.getStart(sf), end: at.getEnd(), op, why: `the type \`${c.name}\` describes the v5 result, and the migration cannot move it: ${c.unsafe}; write it in the v6 shape` });
    }
  }
  for (const [key, c] of refs) answers.set(key, { kind: c.unsafe === undefined ? 'moved' : 'marked', file: c.sf!.fileName });

  // `X['userGetAll']` where X is a result type that changes shape (moved here, or regenerated).
  for (const sf of files) {
    if (generatorOf(sf) !== undefined || ![...movedKeys].some((k) => sf.text.includes(k))) continue;
    const visit = (n: ts.Node): void => {
      if (ts.isIndexedAccessTypeNode(n)) indexed(sf, n);
      else if (ts.isTypeReferenceNode(n) && !(ts.isIndexedAccessTypeNode(n.parent) && n.parent.objectType === n)) picked(sf, n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  /** `Pick<X, K>` or `Omit<X, K>` of the standard library over a result type X, and whether K names a key that moves (or one the migration cannot name). */
  function utility(n: ts.Node): { pick: boolean; base: ts.TypeNode; keys: string[] | undefined; ops: ReadonlySet<number>; moves: boolean } | undefined {
    if (!ts.isTypeReferenceNode(n) || !ts.isIdentifier(n.typeName) || !/^(Pick|Omit)$/.test(n.typeName.text) || n.typeArguments?.length !== 2) return undefined;
    const decls = checker.getSymbolAtLocation(n.typeName)?.declarations;
    if (!decls?.every((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()))) return undefined;
    const [base, key] = n.typeArguments as unknown as [ts.TypeNode, ts.TypeNode];
    const ops = run.targets.get(checker.getTypeFromTypeNode(base));
    if (!ops) return undefined;
    const keys = literalKeys(checker.getTypeFromTypeNode(key));
    const groups = new Set(run.ops.flatMap((_, op) => [...moves[op]!.values()]));
    return { pick: n.typeName.text === 'Pick', base, keys, ops, moves: !keys || keys.some((k) => movedKeys.has(k) || groups.has(k)) };
  }

  /**
   * A `Pick` or `Omit` naming moved keys: a `Pick` of whole groups is written with the groups'
   * names (`Pick<X, 'userGetAll'>` → `Pick<X, 'User'>` when `userGetAll` is all that moves into
   * `User`), which is the same type once X has the v6 shape; anything else is marked.
   */
  function picked(sf: ts.SourceFile, n: ts.Node): void {
    const u = utility(n);
    if (!u?.moves || !ts.isTypeReferenceNode(n)) return;
    const op = [...u.ops][0]!;
    const base = candidates.get(symbolOf(checker.getTypeFromTypeNode(u.base))!);
    const key = n.typeArguments![1]!;
    const groups = u.keys && new Set(u.keys.map((k) => moves[op]!.get(k)).filter((g) => g !== undefined));
    const whole = groups && u.pick && u.ops.size === 1 && base?.unsafe === undefined && ![...moves[op]!].some(([k, g]) => groups.has(g) && !u.keys!.includes(k)) && !u.keys!.some((k) => [...moves[op]!.values()].includes(k));
    if (whole) {
      const quote = sf.text[key.getStart(sf)] === '"' ? '"' : "'";
      const text = [...new Set(u.keys!.map((k) => moves[op]!.get(k) ?? k))].map((k) => `${quote}${k}${quote}`).join(' | ');
      hit(sf.fileName, { kind: 'keys', start: key.getStart(sf), end: key.getEnd(), op, text });
      answers.set(`${sf.fileName}\0${n.getStart(sf)}`, { kind: 'moved', file: sf.fileName });
      return;
    }
    hit(sf.fileName, { kind: 'todo', start: n.getStart(sf), end: n.getEnd(), op, why: `\`${n.getText(sf).slice(0, 60)}\` names keys of a result type that move to v6 groups: write it in the v6 shape` });
  }

  function indexed(sf: ts.SourceFile, n: ts.IndexedAccessTypeNode): void {
    const through = utility(n.objectType);
    // `Omit<X, '__typename'>['userGetAll']` reads X's key; through a `Pick` or `Omit` naming moved keys it is marked, through a `Pick` of keys that stay it reads nothing that moves.
    if (through?.pick && !through.moves) return;
    if (through?.moves)
      return hit(sf.fileName, { kind: 'todo', start: n.getStart(sf), end: n.getEnd(), op: [...through.ops][0]!, why: `\`${n.getText(sf).slice(0, 60)}\` reads a result type with a key that may have moved: write it in the v6 shape` });
    const type = checker.getTypeFromTypeNode(through?.base ?? n.objectType);
    const ops = run.targets.get(type);
    if (!ops) return;
    const c = candidates.get(symbolOf(type)!);
    if (c?.unsafe !== undefined) return;
    const keys = literalKeys(checker.getTypeFromTypeNode(n.indexType));
    const op = [...ops][0]!;
    const groups = new Set(keys?.map((k) => moves[op]!.get(k)));
    if (keys && groups.size === 1 && !groups.has(undefined)) return hit(sf.fileName, { kind: 'index', start: n.getStart(sf), end: n.getEnd(), op, keys });
    if (!keys || groups.size > 1 || keys.some((k) => moves[op]!.has(k)))
      hit(sf.fileName, { kind: 'todo', start: n.getStart(sf), end: n.getEnd(), op, why: `\`${n.getText(sf).slice(0, 60)}\` reads a result type with a key that may have moved: write it in the v6 shape` });
  }

  // Generated types: their uses' markers name the command that regenerates them.
  for (const sf of files) {
    const gen = [...candidates.values()].filter((c) => c.generator && sf.text.includes(c.name));
    if (gen.length === 0) continue;
    const names = new Set(gen.map((c) => c.name));
    const visit = (n: ts.Node): void => {
      if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) && names.has(n.typeName.text)) {
        const c = candidateOf(n.typeName);
        if (c?.generator) answers.set(`${sf.fileName}\0${n.getStart(sf)}`, { kind: 'why', why: `regenerate it from the v6 schema (\`${c.generator}\`)` });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { answers, hits };
}

/** The names a key's type allows: a string or number literal, or a union of them (`'userGetAll' | 'taskGetAll'`, `keyof UsersQuery`). */
export function literalKeys(type: ts.Type): string[] | undefined {
  const parts = type.isUnion() ? type.types : [type];
  const keys = parts.map((t) => (t.isStringLiteral() || t.isNumberLiteral() ? String(t.value) : undefined));
  return keys.every((k) => k !== undefined) ? (keys as string[]) : undefined;
}

/** The checker pass's hit on a result type: its declaration's members, or an indexed access. */
export function moveResultType(r: Reads, node: ts.Node, hit: Exclude<TypeHit, { kind: 'todo' }>): void {
  if (hit.kind === 'members' && (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node))) rewriteDataType(r, node);
  else if (hit.kind === 'index' && ts.isIndexedAccessTypeNode(node)) rewriteIndexedType(r, node, hit.keys);
  else if (hit.kind === 'keys') r.ch.replace(node, hit.text), r.ch.note(node, `picked keys in the v6 shape: ${r.summary}`);
  else r.todo(node, 'the TypeScript checker found a type of a typed result here that the migration could not place: write it in the v6 shape');
}

/**
 * The `resultType` hook of a file's read pass: a type reference (or a union of them with
 * `undefined`/`null`) naming result types the checker pass moved or marked at declarations this
 * run writes needs no marker of its own; a generated one gets its generator's command.
 */
export function answerResultType(sf: ts.SourceFile, answers: ReadonlyMap<string, TypeAnswer>, writing: ReadonlySet<string> | undefined, r: Reads, node: ts.TypeNode): 'handled' | string | undefined {
  const nullish = (t: ts.TypeNode) => t.kind === ts.SyntaxKind.UndefinedKeyword || (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
  const parts = ts.isUnionTypeNode(node) ? node.types.filter((t) => !nullish(t)) : [node];
  const found = parts.map((p) => answers.get(`${sf.fileName}\0${p.getStart(sf)}`));
  if (found.length === 0 || found.some((a) => a === undefined)) return undefined;
  for (const a of found) if (a?.kind === 'why') return a.why;
  // Under `--since` a declaration outside the files written stays as it is: the marker goes here.
  for (const a of found) if (a && a.kind !== 'why' && writing && !writing.has(a.file)) return `its declaration (${relative(dirname(sf.fileName), a.file).split('\\').join('/')}) is not among the files this run writes: write it in the v6 shape`;
  if (found.every((a) => a!.kind === 'moved')) r.ch.note(node, `the type moves with its reads: ${r.summary}`);
  return 'handled';
}

/** `X['userGetAll']` → `X['User']['userGetAll']`: the group's step written before the key's, in the key's quotes. */
function rewriteIndexedType(r: Reads, n: ts.IndexedAccessTypeNode, keys: readonly string[]): void {
  const to = r.moves.get(keys[0]!)!;
  const index = n.indexType;
  const quote = ts.isLiteralTypeNode(index) && r.sf.text[index.getStart(r.sf)] === '"' ? '"' : "'";
  r.ch.insert(n.objectType.getEnd(), `[${quote}${to[0]}${quote}]`);
  if (keys.length === 1 && to[1] !== keys[0]) r.ch.replace(index, `${quote}${to[1]}${quote}`);
  r.ch.note(n, `type read in the v6 shape: ${r.summary}`);
}
