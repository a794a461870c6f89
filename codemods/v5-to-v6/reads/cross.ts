/**
 * Read sites across functions and files. The read-site pass follows a result within one file; the
 * run's scan gives it what other files know:
 *
 * - `pass`: file B hands the result of an operation whose paths move to a function of the
 *   project's own (`render(data)`, declared in B or imported from C). The function's file rewrites
 *   the reads of that parameter when every call of the function in the run passes a result with
 *   the same moves; otherwise it marks the parameter. The caller leaves the call unmarked only when
 *   such a fact names it (the callee's file then answers for it, one way or the other).
 * - `refs`: every use of an imported function in a file that passes it a result, so the callee can
 *   tell that each call of it is one of those.
 * - `doc`: file A exports a document whose paths move; every module importing it follows its
 *   reads as if it were its own document.
 *
 * The call targets and imports are resolved with the run's module graph (`lib/project.ts`, built
 * from one parse of every file anyway), not a TypeScript program: the question is which
 * declaration a name refers to, which the graph answers without type-checking the tree. A caller
 * outside the run, a namespace or `require` import of the callee's module, a default export, a
 * name declared twice: each leaves the marker as before.
 */
import { dirname, relative } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { FileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import { EMPTY_PROJECT, type Project } from '../../lib/project.js';
import type { MovedPath } from '../../../compat/v6-form/document.js';
import { declarationOf, importBinding } from './declarations.js';
import { bindName, namesNoField } from './flow.js';
import { outer, referencesOf } from './scope.js';
import { useSite } from './result-types.js';
import type { MovedField } from './cache.js';
import { describeMoves, moveImportedReads, readsOf } from './sites.js';
import type { ClientOf } from './clients.js';
import { DATA, RESULT, type CrossHooks, type Reads, type Shape, type TypedFact } from './types.js';

/** A declaration as the module graph names it: the file and its top-level name. */
export interface Origin {
  file: string;
  name: string;
}

type Move = Pick<MovedPath, 'from' | 'to'>;

export type CrossFact =
  | { kind: 'pass'; file: string; at: number; index: number; target: Origin; shape: 'data' | 'result'; moves: Move[]; open: boolean }
  | { kind: 'refs'; file: string; local: string; target: Origin; calls: number[]; other: number }
  | { kind: 'doc'; file: string; name: string; moves: Move[]; open: boolean }
  /** Root query fields the file's documents moved: a `cache.modify` elsewhere may name them by a variable. */
  | { kind: 'moved'; file: string; fields: MovedField[] }
  /** A client of the project's own the file declares (`reads/clients.ts`): a call of `name` (its method `member`) with a document as its `index`th argument gives `returns`. */
  | ({ kind: 'client'; file: string } & ClientOf)
  | TypedFact;

const movesOf = (r: Reads): Move[] => [...r.moves].map(([key, to]) => ({ from: [key], to: [...to] }));
/** A file as another file's marker names it: relative, with `/`, the same on every machine. */
const nameFrom = (here: string, file: string) => relative(dirname(here), file).split('\\').join('/') || file;
const sameOrigin = (a: Origin | undefined, b: Origin) => !!a && a.file === b.file && a.name === b.name;
const movesKey = (moves: readonly Move[]) => moves.map((m) => `${m.from.join('.')}>${m.to.join('.')}`).sort().join(',');

/** The declaration `module`'s exported `name` stands for, as seen from `from`. */
export function originOf(project: Project, from: string, module: string, name: string): Origin | undefined {
  const file = project.resolveModule(from, module);
  return file ? project.declarationOf(file, name) : undefined;
}

/** Every import of the run by the declaration it reaches, built once per run: asked per callee, a walk of every module made a run quadratic. */
interface ImportIndex {
  byOrigin: Map<string, { file: string; local: string }[]>;
  /** module file → the modules importing it as a whole (`import * as`, `require`). */
  wholes: Map<string, string[]>;
}
const importIndexes = new WeakMap<Project, ImportIndex>();
export const originKey = (o: Origin) => `${o.file}\0${o.name}`;

function importIndexOf(project: Project): ImportIndex {
  let index = importIndexes.get(project);
  if (index) return index;
  index = { byOrigin: new Map(), wholes: new Map() };
  for (const facts of project.allFacts()) {
    for (const local of Object.keys(facts.imports)) {
      const { module, name } = facts.imports[local]!;
      const origin = originOf(project, facts.file, module, name);
      if (!origin) continue;
      const list = index.byOrigin.get(originKey(origin));
      if (list) list.push({ file: facts.file, local });
      else index.byOrigin.set(originKey(origin), [{ file: facts.file, local }]);
    }
    for (const local of Object.keys(facts.namespaces)) {
      const target = project.resolveModule(facts.file, facts.namespaces[local]!);
      if (!target) continue;
      const list = index.wholes.get(target);
      if (list) list.push(facts.file);
      else index.wholes.set(target, [facts.file]);
    }
  }
  importIndexes.set(project, index);
  return index;
}

/**
 * The run's modules binding `origin` by an import, and one that reaches it where its uses cannot
 * be listed (a namespace import or `require` of its module, or of a barrel exporting it).
 */
function importersOf(project: Project, origin: Origin): { importers: { file: string; local: string }[]; hidden?: string } {
  const index = importIndexOf(project);
  let hidden: string | undefined;
  for (const [target, files] of index.wholes) {
    if (target === origin.file || sameOrigin(project.declarationOf(target, origin.name), origin)) {
      hidden = files[0];
      break;
    }
  }
  return { importers: index.byOrigin.get(originKey(origin)) ?? [], hidden };
}

type Pass = Extract<CrossFact, { kind: 'pass' }>;
type Refs = Extract<CrossFact, { kind: 'refs' }>;
type Doc = Extract<CrossFact, { kind: 'doc' }>;

/** The facts by what each file asks of them, built once per run (every file asks). */
interface FactIndex {
  /** `file\0at\0index` of each call handing a result. */
  calls: Map<string, Pass>;
  /** callee (`file\0name`) → the calls handing it a result. */
  byTarget: Map<string, Pass[]>;
  /** callee file → its names that get a result. */
  callees: Map<string, Set<string>>;
  refs: Map<string, Refs>;
  docs: Map<string, Doc>;
  /** v5 name → the field, once however many documents move it. */
  moved: Map<string, MovedField>;
}
const factIndexes = new WeakMap<readonly CrossFact[], FactIndex>();

function indexOf(facts: readonly CrossFact[]): FactIndex {
  let index = factIndexes.get(facts);
  if (index) return index;
  index = { calls: new Map(), byTarget: new Map(), callees: new Map(), refs: new Map(), docs: new Map(), moved: new Map() };
  for (const f of facts) {
    if (f.kind === 'pass') {
      index.calls.set(`${f.file}\0${f.at}\0${f.index}`, f);
      const key = originKey(f.target);
      const list = index.byTarget.get(key);
      if (list) list.push(f);
      else index.byTarget.set(key, [f]);
      const names = index.callees.get(f.target.file);
      if (names) names.add(f.target.name);
      else index.callees.set(f.target.file, new Set([f.target.name]));
    } else if (f.kind === 'refs') index.refs.set(`${f.file}\0${f.local}`, f);
    else if (f.kind === 'doc') index.docs.set(originKey(f), f);
    else if (f.kind === 'moved') {
      for (const field of f.fields) if (!index.moved.has(field.from)) index.moved.set(field.from, field);
    }
  }
  factIndexes.set(facts, index);
  return index;
}

/** The identifier a call's callee names, when it is a plain name. */
function calleeId(call: ts.CallExpression): ts.Identifier | undefined {
  let callee: ts.Expression = call.expression;
  while (ts.isParenthesizedExpression(callee) || ts.isNonNullExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) ? callee : undefined;
}

/** Is `ref` the callee of a call (`render(…)`)? The call, if so. */
function callOf(ref: ts.Node): ts.CallExpression | undefined {
  const node = outer(ref);
  const p = node.parent;
  return ts.isCallExpression(p) && p.expression === node ? p : undefined;
}

/**
 * The scan's side: hooks for the read-site pass's dry run over one file's documents, collecting
 * the facts above into `out`.
 */
export function scanHooks(sf: ts.SourceFile, project: Project, out: CrossFact[]): CrossHooks {
  const file = sf.fileName;
  const recorded = new Set<string>();
  return {
    scanning: true,
    passes(r, call, index, shape) {
      if (shape.kind !== 'data' && shape.kind !== 'result') return false;
      const id = calleeId(call);
      if (!id) return false;
      const local = declarationOf(sf, id.text);
      let target: Origin | undefined;
      if (local) target = { file, name: id.text };
      else {
        const imported = project.facts(file)?.imports[id.text];
        const binding = importBinding(sf, id.text);
        target = imported && binding ? originOf(project, file, imported.module, imported.name) : undefined;
        if (target && binding && !recorded.has(id.text)) {
          recorded.add(id.text);
          const refs = referencesOf(binding) ?? [];
          const calls = refs.flatMap((ref) => callOf(ref)?.getStart(sf) ?? []);
          out.push({ kind: 'refs', file, local: id.text, target, calls, other: referencesOf(binding) ? refs.length - calls.length : 1 });
        }
      }
      // Only a name that refers to that declaration here: a shadowing one is not the function.
      const declared = local?.id ?? importBinding(sf, id.text);
      if (!target || !declared || !referencesOf(declared)?.includes(id)) return false;
      out.push({ kind: 'pass', file, at: call.getStart(sf), index, target, shape: shape.kind, moves: movesOf(r), open: r.open });
      return true;
    },
    exports(r, local) {
      out.push({ kind: 'doc', file, name: local, moves: movesOf(r), open: r.open });
      return true;
    },
    typed(r, node, how) {
      const at = node.getStart(sf);
      const key = `${at}\0${how.kind}\0${'name' in how ? how.name : ''}`;
      if (recorded.has(key)) return;
      recorded.add(key);
      out.push({ kind: 'typed', file, at, end: node.getEnd(), how, moves: movesOf(r), open: r.open });
    },
  };
}

/** The apply's side: the call sites and exported documents the facts follow into other code. */
export function applyHooks(sf: ts.SourceFile, project: Project, facts: readonly CrossFact[], writing?: ReadonlySet<string>, alone?: boolean): CrossHooks | undefined {
  if (facts.length === 0) return undefined;
  const file = sf.fileName;
  // Under `--since` a file the run does not write keeps its reads: the marker stays at this end.
  const written = (other: string) => !writing || writing.has(other);
  return {
    passes(r, call, index) {
      const at = call.getStart(sf);
      const fact = indexOf(facts).calls.get(`${file}\0${at}\0${index}`);
      if (!fact || !written(fact.target.file)) return false;
      r.ch.note(call, `the result handed to \`${fact.target.name}\` (${nameFrom(file, fact.target.file)}) is followed there: ${r.summary}`);
      return true;
    },
    exports(r, local) {
      if (!indexOf(facts).docs.has(originKey({ file, name: local }))) return false;
      const { importers, hidden } = importersOf(project, { file, name: local });
      if (hidden || !importers.every((i) => written(i.file))) return false;
      // Nothing the run holds imports it: its readers, if any, are outside the paths the run was
      // given (dead code, another package), not at a line of the run: one note for the report.
      // A file migrated alone (the API on one text, jscodeshift) cannot tell: its export keeps the marker.
      if (importers.length === 0) {
        if (alone || project === EMPTY_PROJECT) return false;
        r.ch.note(declarationOf(r.sf, local)?.node ?? r.sf, `exported document \`${local}\`: nothing in this run imports it; code outside the run that does must move its reads: ${r.summary}`);
        return true;
      }
      r.ch.note(r.sf, `exported document \`${local}\`: its reads are followed in ${importers.map((i) => nameFrom(file, i.file)).join(', ')}`);
      return true;
    },
  };
}

/** Files the facts give work in: the callees' files and the importers of exported documents. */
export function touchedFiles(facts: readonly CrossFact[], project: Project): Set<string> {
  const files = new Set<string>();
  for (const f of facts) {
    if (f.kind === 'pass') files.add(f.target.file);
    else if (f.kind === 'doc') for (const { file } of importersOf(project, { file: f.file, name: f.name }).importers) files.add(file);
  }
  return files;
}

/**
 * Why the calls of `target` do not all pass a result with the same moves at `index`, or undefined
 * when they do. `local` are its references in its own file.
 */
function unproven(project: Project, facts: readonly CrossFact[], target: Origin, index: number, local: readonly ts.Identifier[], sf: ts.SourceFile): string | undefined {
  const known = indexOf(facts);
  const passes = (known.byTarget.get(originKey(target)) ?? []).filter((p) => p.index === index);
  const passed = (file: string, at: number) => sameOrigin(known.calls.get(`${file}\0${at}\0${index}`)?.target, target);
  const kinds = new Set(passes.map((p) => `${p.shape}:${movesKey(p.moves)}:${p.open}`));
  if (kinds.size > 1) return 'it is called with the results of different operations';
  for (const ref of local) {
    if (ts.isExportSpecifier(ref.parent)) continue;
    const call = callOf(ref);
    if (!call) return `\`${target.name}\` is used at line ${sf.getLineAndCharacterOfPosition(ref.getStart(sf)).line + 1} other than by a call`;
    if (!passed(target.file, call.getStart(sf))) return `it is also called at line ${sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1} with another value`;
  }
  const { importers, hidden } = importersOf(project, target);
  if (hidden) return `${hidden} imports its module as a whole`;
  for (const { file, local: name } of importers) {
    const refs = known.refs.get(`${file}\0${name}`);
    const there = nameFrom(target.file, file);
    if (!refs) return `${there} imports it and does not hand it such a result`;
    if (refs.other > 0) return `${there} uses it other than by calls`;
    if (refs.calls.some((at) => !passed(file, at))) return `${there} also calls it with another value`;
  }
  return undefined;
}

/** A parameter's type, written for the v5 result: an inline one of the data is rewritten, a named one marked. */
function parameterType(r: Reads, type: ts.TypeNode | undefined, shape: 'data' | 'result'): void {
  if (!type || namesNoField(type, shape)) return;
  if (shape === 'data') return useSite(r, type, type, 'the type');
  r.todo(type, `the type \`${type.getText(r.sf).slice(0, 60)}\` describes the v5 result: regenerate it (or write the v6 shape)`);
}

/** The parameter `index` of a function the run hands results to, rewritten or marked. */
function moveParameterReads(ch: FileChanges, project: Project, facts: readonly CrossFact[], name: string, schema: GraphQLSchema | undefined, hooks: CrossHooks | undefined): void {
  const sf = ch.sf;
  const target = { file: sf.fileName, name };
  const passes = indexOf(facts).byTarget.get(originKey(target)) ?? [];
  const decl = declarationOf(sf, name);
  const where = (p: (typeof passes)[number]) => (p.file === target.file ? 'this file' : nameFrom(target.file, p.file));
  for (const index of [...new Set(passes.map((p) => p.index))].sort()) {
    const mine = passes.filter((p) => p.index === index);
    const first = mine[0]!;
    const param = decl?.fn?.parameters[index];
    const summary = [...new Set(mine.map((p) => describeMoves(p.moves)))].join('; ');
    const mark = (node: ts.Node, why: string) => ch.manual(node, `\`${name}\` receives the result of an operation whose paths move (from ${where(first)}), but ${why}; move its reads: ${summary}`);
    if (!decl) {
      ch.manual(sf.statements[0] ?? sf, `\`${name}\` receives the result of an operation whose paths move, but the migration cannot find its declaration; move its reads: ${summary}`);
      continue;
    }
    if (!decl.fn || !param || param.dotDotDotToken) {
      mark(decl.node, 'it is not a function whose parameter the migration can follow');
      continue;
    }
    const local = referencesOf(decl.id);
    const why = local ? unproven(project, facts, target, index, local, sf) : `\`${name}\` is declared more than once here`;
    if (why) {
      mark(param, why);
      continue;
    }
    const r = readsOf(ch, first.moves, first.open, schema, hooks);
    bindName(r, param.name, first.shape === 'data' ? DATA : (RESULT as Shape));
    parameterType(r, param.type, first.shape);
    ch.note(param, `reads of the result handed to \`${name}\` moved: ${r.summary}`);
  }
}

/** This file's part of what other files found: callees' parameters and imported documents. */
export function moveCrossFileReads(ch: FileChanges, project: Project, facts: readonly CrossFact[], schema: GraphQLSchema | undefined, hooks?: CrossHooks): void {
  if (facts.length === 0) return;
  const sf = ch.sf;
  const file = sf.fileName;
  const index = indexOf(facts);
  for (const name of index.callees.get(file) ?? []) moveParameterReads(ch, project, facts, name, schema, hooks);
  if (index.docs.size === 0) return;
  const mine = project.facts(file);
  if (!mine) return;
  for (const local of Object.keys(mine.imports)) {
    const { module, name } = mine.imports[local]!;
    const origin = originOf(project, file, module, name);
    const doc = origin && index.docs.get(originKey(origin));
    if (!doc) continue;
    const r = readsOf(ch, doc.moves, doc.open, schema, hooks);
    const binding = importBinding(sf, local);
    const refs = binding && referencesOf(binding);
    if (!refs) {
      r.todo(binding ?? sf.statements[0] ?? sf, `the document \`${local}\` imported from ${nameFrom(file, doc.file)} is bound in a way the migration cannot follow`);
      continue;
    }
    moveImportedReads(r, refs);
  }
}

/** The root query fields the run's documents moved (for files holding none of their own). */
export function movedInRun(facts: readonly CrossFact[]): readonly MovedField[] {
  return facts.length > 0 ? [...indexOf(facts).moved.values()] : [];
}
