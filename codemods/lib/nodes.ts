/**
 * Every node of a file the transforms look for, collected in one walk and shared: each step used
 * to walk the whole tree for each kind of node it wanted (a dozen walks per file in a chain).
 *
 * The same walk sets the parent links (`parseSource` asks TypeScript for a tree without them):
 * TypeScript's own pass (`setParentNodes`) is a second full walk that allocates a work list per
 * node, about a tenth of a codemod run's allocations (bench/codemods.ts).
 */
import { ts } from './typescript.js';

/** The index while one walk fills it. */
interface Building {
  news: ts.NewExpression[];
  calls: ts.CallExpression[];
  tagged: ts.TaggedTemplateExpression[];
  classes: ts.ClassDeclaration[];
  properties: ts.PropertyDeclaration[];
  accesses: ts.PropertyAccessExpression[];
  /** Method/property signatures and method declarations (MCP tool types). */
  members: (ts.MethodSignature | ts.MethodDeclaration | ts.PropertySignature)[];
  /** String literals and templates without substitutions (quote style, string keys). */
  strings: (ts.StringLiteral | ts.NoSubstitutionTemplateLiteral)[];
  /** Statements and class properties that end in `;` when the file writes them (the cases of `record`): how many do, how many do not. */
  semicolons: { ended: number; open: number };
  /** The identifiers spelled `name`, in tree order (a filter per name for a file's first few names, then one map of all: `FILTERED_NAMES`). */
  identifiers(name: string): readonly ts.Identifier[];
  /** Every identifier, in tree order. */
  allIdentifiers: readonly ts.Identifier[];
}

/**
 * A tree's nodes by kind. Read-only once built: an empty list is one shared frozen array, and the
 * others are exact-length copies (see `trimmed`).
 */
export type NodeIndex = { readonly [K in keyof Building]: Building[K] extends (infer T)[] ? readonly T[] : Building[K] };

type Parented = { parent: ts.Node };

// Read once: `ts.SyntaxKind` is a getter on the package's exports, called per node otherwise.
const K = ts.SyntaxKind;
const forEachChild = ts.forEachChild;

/**
 * Data that lives as long as the object it belongs to (a run's trees, scripts), kept on the object
 * (under one symbol, in a map by slot). Not a WeakMap: with a run's thousands of young trees as keys and
 * their nodes in the values, the scavenger's ephemeron work cost more than the data itself
 * (2,000 files: parse and index 72 ms, 93 ms more with the index in a WeakMap).
 */
export interface Slot<K extends object, T> {
  get(owner: K): T | undefined;
  set(owner: K, value: T): void;
}

// One property holding a map of every slot, not a property per slot: the one store site shared by
// all slots saw a different key each time, and that generic path cost ~1% of a codemod run.
// A named property, not a symbol: adding the symbol-keyed one turned every SourceFile into a
// dictionary (V8 allows fewer fast properties on an add through a computed key): 2.7 kB more per
// held tree (2,000 generated files: 5.4 MB more for the scavenger to copy) and a hash lookup for
// every field TypeScript and the steps read from it (test/codemods/parse.test.ts, "held trees").
type Slotted = { __ergraphSlots?: Map<symbol, unknown> };

export function slot<K extends object, T>(name: string): Slot<K, T> {
  const key = Symbol(name);
  return {
    get: (owner) => (owner as Slotted).__ergraphSlots?.get(key) as T | undefined,
    set: (owner, value) => {
      const slots = (owner as Slotted).__ergraphSlots;
      if (slots) slots.set(key, value);
      else (owner as Slotted).__ergraphSlots = new Map([[key, value]]);
    },
  };
}

const cache = slot<ts.SourceFile, NodeIndex>('ergraph.nodes');

// The walk's state lives in module variables rather than closures: one callback for every node
// instead of one closure per node.
let parent: ts.Node;
let index: Building;
let ids: ts.Identifier[];
let text: string;

/** Counts a statement that ends in a semicolon when the file writes them (the style pass reads the counts). */
function countSemicolon(node: ts.Node): void {
  if (text.charCodeAt(node.end - 1) === 59) index.semicolons.ended++;
  else index.semicolons.open++;
}

function record(node: ts.Node): void {
  switch (node.kind) {
    case K.Identifier:
      ids.push(node as ts.Identifier);
      break;
    case K.NewExpression:
      index.news.push(node as ts.NewExpression);
      break;
    case K.CallExpression:
      index.calls.push(node as ts.CallExpression);
      break;
    case K.TaggedTemplateExpression:
      index.tagged.push(node as ts.TaggedTemplateExpression);
      break;
    case K.ClassDeclaration:
      if ((node as ts.ClassDeclaration).name) index.classes.push(node as ts.ClassDeclaration);
      break;
    case K.PropertyDeclaration:
      index.properties.push(node as ts.PropertyDeclaration);
      countSemicolon(node);
      break;
    case K.StringLiteral:
    case K.NoSubstitutionTemplateLiteral:
      index.strings.push(node as ts.StringLiteral);
      break;
    // Statements that end in `;` when the file writes them (and PropertyDeclaration, above).
    case K.ExpressionStatement:
    case K.VariableStatement:
    case K.ImportDeclaration:
    case K.ExportDeclaration:
    case K.ExportAssignment:
    case K.ReturnStatement:
    case K.ThrowStatement:
    case K.BreakStatement:
    case K.ContinueStatement:
    case K.TypeAliasDeclaration:
    case K.ImportEqualsDeclaration:
      countSemicolon(node);
      break;
    case K.PropertyAccessExpression:
      index.accesses.push(node as ts.PropertyAccessExpression);
      break;
    case K.MethodSignature:
    case K.MethodDeclaration:
    case K.PropertySignature:
      index.members.push(node as ts.MethodSignature);
      break;
  }
}

/** JSDoc subtrees get parents as TypeScript gives them (they hold no node a transform looks for). */
function parentOnly(child: ts.Node): undefined {
  (child as unknown as Parented).parent = parent;
  const saved = parent;
  parent = child;
  forEachChild(child, parentOnly);
  parent = saved;
  return undefined;
}

function visit(child: ts.Node): undefined {
  (child as unknown as Parented).parent = parent;
  record(child);
  const docs = (child as { jsDoc?: ts.Node[] }).jsDoc;
  const saved = parent;
  parent = child;
  if (docs) for (const doc of docs) parentOnly(doc);
  forEachChild(child, visit);
  parent = saved;
  return undefined;
}

const NONE = Object.freeze([]) as unknown as never[];

/**
 * Names looked up by a filter over the file's identifiers before they are all mapped by name at
 * once: the steps ask a file about a few names, but the read-site pass asks about every document
 * it moves (its variable, its codegen type), and a file of thousands of documents would filter
 * once per name. One index answers both, rather than a second map of every identifier held
 * beside it per file from scan to apply.
 */
const FILTERED_NAMES = 16;

/**
 * A list grown by `push` keeps its spare capacity (17 slots for one element) as long as the tree
 * is held, and a run holds its trees from first parse to apply: exact copies, and one shared empty
 * list, made the held state of 2,000 generated files 1.9 MB smaller (60.3 MB to 58.4 MB) for the
 * scavenger to copy.
 */
const trimmed = <T>(list: readonly T[]): T[] => (list.length === 0 ? NONE : list.slice());

function trimLists(built: Building): void {
  built.news = trimmed(built.news);
  built.calls = trimmed(built.calls);
  built.tagged = trimmed(built.tagged);
  built.classes = trimmed(built.classes);
  built.properties = trimmed(built.properties);
  built.accesses = trimmed(built.accesses);
  built.members = trimmed(built.members);
  built.strings = trimmed(built.strings);
}

/**
 * Sets every parent link of a tree parsed without them and indexes its nodes, in one walk.
 * Afterwards the tree is what `createSourceFile(..., setParentNodes: true)` returns.
 */
export function linkAndIndex(sf: ts.SourceFile): NodeIndex {
  const all: ts.Identifier[] = [];
  const byName = new Map<string, ts.Identifier[]>();
  let whole = false;
  const built: Building = {
    news: [],
    calls: [],
    tagged: [],
    classes: [],
    properties: [],
    accesses: [],
    members: [],
    strings: [],
    semicolons: { ended: 0, open: 0 },
    allIdentifiers: all,
    identifiers(name) {
      let found = byName.get(name);
      if (found) return found;
      if (whole) return NONE;
      if (byName.size < FILTERED_NAMES) byName.set(name, (found = built.allIdentifiers.filter((id) => id.text === name)));
      else {
        whole = true;
        byName.clear();
        for (const id of built.allIdentifiers) {
          const list = byName.get(id.text);
          if (list) list.push(id);
          else byName.set(id.text, [id]);
        }
        found = byName.get(name) ?? NONE;
      }
      return found;
    },
  };
  const [savedParent, savedIndex, savedIds, savedText] = [parent, index, ids, text];
  parent = sf;
  index = built;
  ids = all;
  text = sf.text;
  try {
    ts.forEachChild(sf, visit);
  } finally {
    [parent, index, ids, text] = [savedParent, savedIndex, savedIds, savedText];
  }
  trimLists(built);
  built.allIdentifiers = trimmed(all);
  cache.set(sf, built);
  return built;
}

/** The index of a tree from `parseSource` (or any parented tree: it is built on first use). */
export function nodesOf(sf: ts.SourceFile): NodeIndex {
  return cache.get(sf) ?? linkAndIndex(sf);
}
