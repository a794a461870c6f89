/**
 * Client cache configurations keyed by type name — Apollo's `typePolicies`, Graphcache's `keys`,
 * `resolvers` and `updates` — edited as object literals: entries the v6 groups need are added
 * next to the user's, and entries a configuration keeps under the root type for a v5 root field
 * (`Query.fields.userGetAll`, `Mutation.taskRename`) move to the group type that holds the field
 * in v6 (`UserQuery.fields.getAll`, `TaskMutation.rename`). A literal the pass cannot see whole (a
 * spread, a computed key, a value from elsewhere) is reported, never guessed at.
 */
import type { FileChanges } from '../../lib/changes.js';
import { insertPropertyAfter, keyOf } from '../../lib/ast.js';
import { referencesOf } from './scope.js';
import { ts } from '../../lib/parse.js';

/** Where a v5 root field lives in v6: its group's type and the method's field name. */
export interface GroupField {
  type: string;
  method: string;
}

const bare = (e: ts.Expression): ts.Expression => {
  let n = e;
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n)) n = n.expression;
  return n;
};

/**
 * The object literal an expression is: written there, or a `const` of this file initialized with
 * one and not reassigned (`const policies = { … }; new InMemoryCache({ typePolicies: policies })`).
 */
export function literalOf(expr: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  if (!expr) return undefined;
  const e = bare(expr);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (!ts.isIdentifier(e)) return undefined;
  const sf = e.getSourceFile();
  const decl = sf.statements
    .filter(ts.isVariableStatement)
    .filter((s) => s.declarationList.flags & ts.NodeFlags.Const)
    .flatMap((s) => s.declarationList.declarations)
    .find((d) => ts.isIdentifier(d.name) && d.name.text === e.text);
  if (!decl?.initializer || !ts.isIdentifier(decl.name) || !referencesOf(decl.name)) return undefined;
  const init = bare(decl.initializer);
  return ts.isObjectLiteralExpression(init) ? init : undefined;
}

/** The value of `key` in a literal (`{ key }` shorthand included). */
export function entryValue(literal: ts.ObjectLiteralExpression, key: string): { prop: ts.ObjectLiteralElementLike; value: ts.Expression | undefined } | undefined {
  const prop = literal.properties.find((p) => keyOf(p) === key);
  if (!prop) return undefined;
  return { prop, value: ts.isPropertyAssignment(prop) ? prop.initializer : ts.isShorthandPropertyAssignment(prop) ? prop.name : undefined };
}

/** Spreads and computed keys hide entries: the literal cannot be read whole. */
export const hidesEntries = (literal: ts.ObjectLiteralExpression): boolean => literal.properties.some((p) => keyOf(p) === undefined);

/** Adds properties (`key: value` texts) at the end of a literal, in its layout; whether there were any. */
export function addProperties(ch: FileChanges, literal: ts.ObjectLiteralExpression, texts: readonly string[]): boolean {
  if (texts.length === 0) return false;
  const last = literal.properties[literal.properties.length - 1];
  if (last) insertPropertyAfter(ch, literal, last, texts.join(', '));
  else ch.replace(literal, `{ ${texts.join(', ')} }`);
  return true;
}

/** Removes properties and the commas that separate them from their neighbours (one edit per gap, so none overlap). */
function removeProperties(ch: FileChanges, literal: ts.ObjectLiteralExpression, gone: ReadonlySet<ts.ObjectLiteralElementLike>): void {
  const { properties } = literal;
  const lastKept = properties.reduce((found, p, i) => (gone.has(p) ? found : i), -1);
  if (lastKept === -1) return ch.replace({ start: literal.getStart() + 1, end: literal.getEnd() - 1 }, ' ');
  properties.forEach((p, i) => {
    // Before the last kept one, each goes with the gap up to the next property.
    if (gone.has(p) && i < lastKept) ch.replace({ start: p.getFullStart(), end: properties[i + 1]!.getFullStart() }, '');
  });
  // After it, the whole run goes from the kept one's end: its comma too.
  const tail = properties.slice(lastKept + 1);
  if (tail.length > 0) ch.replace({ start: properties[lastKept]!.getEnd(), end: tail[tail.length - 1]!.getEnd() }, '');
}

/** The entry's text under its new name: `userGetAll: policy` → `getAll: policy`, `taskRename(r) {…}` → `rename(r) {…}`. */
function renamed(ch: FileChanges, prop: ts.ObjectLiteralElementLike, name: string): string {
  if (ts.isShorthandPropertyAssignment(prop)) return `${name}: ${prop.name.text}`;
  const key = (prop as ts.PropertyAssignment | ts.MethodDeclaration).name;
  return name + ch.source.slice(key.getEnd(), prop.getEnd());
}

/** Entries of a root type taken for their groups: texts by group type, and the edit that removes them (made only once the caller can place them). */
export interface Taken {
  entries: Map<string, string[]>;
  remove(): void;
}

/**
 * The entries of `byType[root]` (or `byType[root][nested]`) that name a v5 root field, renamed to
 * the v6 method; `unseen` is told of a root entry the pass cannot read.
 */
export function rootEntries(
  ch: FileChanges,
  byType: ts.ObjectLiteralExpression,
  root: 'Query' | 'Mutation',
  nested: string | undefined,
  targetOf: (field: string) => GroupField | undefined,
  unseen: (node: ts.Node, why: string) => void,
): Taken {
  const entries = new Map<string, string[]>();
  const none = { entries, remove: () => {} };
  const entry = entryValue(byType, root);
  if (!entry) return none;
  const outer = literalOf(entry.value);
  if (!outer) return unseen(entry.prop, `its \`${root}\` entry is not written here`), none;
  let fields = outer;
  if (nested) {
    const inner = entryValue(outer, nested);
    if (!inner) return none;
    const literal = literalOf(inner.value);
    if (!literal) return unseen(inner.prop, `its \`${root}.${nested}\` entry is not written here`), none;
    fields = literal;
  }
  const gone = new Set<ts.ObjectLiteralElementLike>();
  for (const prop of fields.properties) {
    const key = keyOf(prop);
    if (key === undefined) {
      unseen(prop, `an entry of \`${root}${nested ? `.${nested}` : ''}\` is a spread or a computed key`);
      continue;
    }
    const target = targetOf(key);
    if (!target) continue;
    entries.set(target.type, [...(entries.get(target.type) ?? []), renamed(ch, prop, target.method)]);
    gone.add(prop);
  }
  return { entries, remove: () => gone.size > 0 && removeProperties(ch, fields, gone) };
}

/** What a literal keyed by type name gets for each group type. */
export interface Placement {
  types: readonly string[];
  /** Entries a type's literal gets (under `nested` when given): those taken from the root type. */
  entries(type: string): readonly string[];
  nested?: string;
  /** Properties a type's own literal gets beside its entries (`merge: true` unless it has one). */
  extra?(literal: ts.ObjectLiteralExpression): string[];
  /** The whole entry for a type the literal does not have yet. */
  fresh(type: string, entries: readonly string[]): string;
}

const keyOfText = (entry: string) => /^[\w$]+/.exec(entry)?.[0];

/**
 * The edits that give `byType` its group entries, checked before any is made: undefined (after
 * `unseen`) when a place cannot be read, so nothing of the user's moves half-way.
 */
export function placeEntries(ch: FileChanges, byType: ts.ObjectLiteralExpression, p: Placement, unseen: (node: ts.Node, why: string) => void): (() => boolean) | undefined {
  const edits: (() => boolean)[] = [];
  const added: string[] = [];
  for (const type of p.types) {
    const entries = p.entries(type);
    const own = entryValue(byType, type);
    if (!own) {
      if (hidesEntries(byType)) return unseen(byType, `it has a spread or a computed key, which may hold \`${type}\``), undefined;
      added.push(p.fresh(type, entries));
      continue;
    }
    const literal = literalOf(own.value);
    if (!literal) return unseen(own.prop, `its \`${type}\` entry is not written here`), undefined;
    const parts = p.extra?.(literal) ?? [];
    const holder = p.nested && entries.length > 0 ? entryValue(literal, p.nested) : undefined;
    const into = holder ? literalOf(holder.value) : literal;
    if (holder && !into) return unseen(holder.prop, `its \`${type}.${p.nested}\` entry is not written here`), undefined;
    const clash = entries.find((e) => into && (hidesEntries(into) || entryValue(into, keyOfText(e) ?? '')));
    if (clash) return unseen(into!, `\`${type}\` already has \`${keyOfText(clash)}\` (or a spread), and so has the root type under its v5 name`), undefined;
    if (p.nested && entries.length > 0 && !holder) parts.push(`${p.nested}: { ${entries.join(', ')} }`);
    else if (holder) edits.push(() => addProperties(ch, into!, entries));
    else parts.push(...entries);
    edits.push(() => addProperties(ch, literal, parts));
  }
  // Whether anything was added.
  return () => edits.reduce((any, edit) => edit() || any, addProperties(ch, byType, added));
}
