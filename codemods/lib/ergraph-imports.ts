/**
 * What a file imports from 'ergraph', and the edits that keep those imports right after a
 * transform renamed, added or stopped using exports. Only ES imports are understood; a file
 * that reaches ergraph through `require` is not rewritten (its identifiers are not bound here).
 */
import { coveredBy } from './edits.js';
import type { FileChanges } from './changes.js';
import { ts } from './parse.js';

export const PACKAGE = 'ergraph';

export interface NamedBinding {
  imported: string;
  local: string;
  specifier: ts.ImportSpecifier;
  declaration: ts.ImportDeclaration;
}

export interface ErgraphImports {
  named: NamedBinding[];
  namespaces: string[];
  declarations: ts.ImportDeclaration[];
  /** Exports the rewritten code uses by bare name and that must be added to the imports. */
  readonly added: Set<string>;
  /** Specifiers to rename in place (`Old as x` → `New as x`), keyed by specifier. */
  readonly renamed: Map<ts.ImportSpecifier, string>;
}

export function readErgraphImports(sf: ts.SourceFile): ErgraphImports {
  const named: NamedBinding[] = [];
  const namespaces: string[] = [];
  const declarations: ts.ImportDeclaration[] = [];
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
    if (stmt.moduleSpecifier.text !== PACKAGE) continue;
    declarations.push(stmt);
    const bindings = stmt.importClause?.namedBindings;
    if (!bindings) continue;
    if (ts.isNamespaceImport(bindings)) namespaces.push(bindings.name.text);
    else
      for (const specifier of bindings.elements)
        named.push({
          imported: (specifier.propertyName ?? specifier.name).text,
          local: specifier.name.text,
          specifier,
          declaration: stmt,
        });
  }
  return { named, namespaces, declarations, added: new Set(), renamed: new Map() };
}

/** The ergraph export an expression names (`Relationship`, `R` for an alias, `eg.Relationship`). */
export function ergraphExportOf(expr: ts.Node, imports: ErgraphImports): string | undefined {
  if (ts.isIdentifier(expr)) return imports.named.find((b) => b.local === expr.text)?.imported;
  if (
    ts.isPropertyAccessExpression(expr) &&
    ts.isIdentifier(expr.expression) &&
    imports.namespaces.includes(expr.expression.text)
  )
    return expr.name.text;
  return undefined;
}

/**
 * The text to write for an export in new code: an existing local name, `ns.Name`, or the bare
 * name (then recorded in `added` so the import is created).
 */
export function localFor(name: string, imports: ErgraphImports): string {
  const existing = imports.named.find((b) => b.imported === name && !b.specifier.isTypeOnly);
  if (existing) return existing.local;
  const [ns] = imports.namespaces;
  if (ns) return `${ns}.${name}`;
  imports.added.add(name);
  return name;
}

/** Is this identifier a use of a variable (rather than a property name or a declaration)? */
export function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p)) return false;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name === id)
    return false;
  if ((ts.isClassDeclaration(p) || ts.isFunctionDeclaration(p) || ts.isVariableDeclaration(p)) && p.name === id)
    return false;
  if (ts.isQualifiedName(p) && p.right === id) return false;
  if (ts.isPropertySignature(p) || ts.isEnumMember(p)) return false;
  return true;
}

/** Identifiers of a file by name, built on first use: transforms ask about many names per file. */
const identifierIndex = new WeakMap<ts.SourceFile, Map<string, ts.Identifier[]>>();

function identifiersNamed(sf: ts.SourceFile, name: string): ts.Identifier[] {
  let index = identifierIndex.get(sf);
  if (!index) {
    const built = new Map<string, ts.Identifier[]>();
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) {
        const list = built.get(node.text);
        if (list) list.push(node);
        else built.set(node.text, [node]);
      }
      node.forEachChild(visit);
    };
    visit(sf);
    identifierIndex.set(sf, (index = built));
  }
  return index.get(name) ?? [];
}

export function referencesTo(sf: ts.SourceFile, local: string): ts.Identifier[] {
  return identifiersNamed(sf, local).filter(isReference);
}

/** Uses of an ergraph export through a namespace import: `eg.Name`. */
export function namespaceUses(sf: ts.SourceFile, imports: ErgraphImports, name: string): ts.PropertyAccessExpression[] {
  if (imports.namespaces.length === 0) return [];
  return identifiersNamed(sf, name)
    .map((id) => id.parent)
    .filter(
      (p): p is ts.PropertyAccessExpression =>
        ts.isPropertyAccessExpression(p) && p.name.text === name && ergraphExportOf(p, imports) === name,
    );
}

function lineRange(source: string, start: number, end: number): { start: number; end: number } | undefined {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const newline = source.indexOf('\n', end);
  const lineEnd = newline === -1 ? source.length : newline + 1;
  const before = source.slice(lineStart, start);
  const after = source.slice(end, newline === -1 ? source.length : newline);
  return /^\s*$/.test(before) && /^\s*,?\s*$/.test(after) ? { start: lineStart, end: lineEnd } : undefined;
}

/**
 * The range that removes one element of a comma-separated list together with its comma: whole
 * lines when the element sits on lines of its own, else the element and the comma beside it.
 */
export function removalRange(
  source: string,
  elements: readonly ts.Node[],
  index: number,
  sf: ts.SourceFile,
): { start: number; end: number } {
  const el = elements[index];
  const start = el.getStart(sf);
  const end = el.getEnd();
  const ownLines = lineRange(source, start, end);
  if (ownLines) return ownLines;
  const next = elements[index + 1];
  if (next) return { start, end: next.getStart(sf) };
  const prev = elements[index - 1];
  if (prev) return { start: prev.getEnd(), end };
  return { start, end };
}

/**
 * Final import edits of a transform: renames recorded in `renamed`, specifiers of `dropIfUnused`
 * exports whose local name is no longer referenced outside replaced text, and `added` exports
 * (placed where a dropped specifier was, else appended, else in a new import line).
 */
export function fixImports(ch: FileChanges, imports: ErgraphImports, dropIfUnused: readonly string[]): void {
  const { sf, source } = ch;
  const toAdd = [...imports.added].filter((name) => !imports.named.some((b) => b.imported === name && b.local === name));
  const removed = new Set<ts.ImportSpecifier>();
  for (const binding of imports.named) {
    const rename = imports.renamed.get(binding.specifier);
    if (rename) {
      if (binding.specifier.propertyName) ch.replace(binding.specifier.propertyName, rename);
      continue;
    }
    if (!dropIfUnused.includes(binding.imported)) continue;
    const live = referencesTo(sf, binding.local).some((id) => !coveredBy(ch.edits, id.getStart(sf)));
    if (live) continue;
    const replacement = toAdd.shift();
    if (replacement) ch.replace(binding.specifier, `${binding.specifier.isTypeOnly ? 'type ' : ''}${replacement}`);
    else removed.add(binding.specifier);
  }
  for (const decl of imports.declarations) {
    const bindings = decl.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const elements = bindings.elements;
    const gone = elements.filter((s) => removed.has(s));
    if (gone.length === 0) continue;
    if (gone.length === elements.length && !decl.importClause?.name) {
      const whole = lineRange(source, decl.getStart(sf), decl.getEnd());
      ch.replace(whole ?? decl, '');
      continue;
    }
    const indices = elements.map((s, i) => (removed.has(s) ? i : -1)).filter((i) => i >= 0);
    const ranges = indices.map((i) => {
      const own = lineRange(source, elements[i].getStart(sf), elements[i].getEnd());
      if (own) return own;
      // A run of neighbours goes with one comma: up to the next survivor, or from the previous one.
      let j = i;
      while (removed.has(elements[j + 1] as ts.ImportSpecifier)) j++;
      let k = i;
      while (k > 0 && removed.has(elements[k - 1])) k--;
      const next = elements[j + 1];
      if (next) return { start: elements[i].getStart(sf), end: next.getStart(sf) };
      const prev = elements[k - 1];
      return prev ? { start: prev.getEnd(), end: elements[i].getEnd() } : { start: elements[i].getStart(sf), end: elements[i].getEnd() };
    });
    mergeRanges(ranges).forEach((r) => ch.replace(r, ''));
  }
  if (toAdd.length === 0) return;
  const target = imports.declarations.find((d) => {
    const b = d.importClause?.namedBindings;
    return b && ts.isNamedImports(b) && !d.importClause?.isTypeOnly && b.elements.some((s) => !removed.has(s));
  });
  const named = target?.importClause?.namedBindings;
  if (named && ts.isNamedImports(named)) {
    const kept = named.elements.filter((s) => !removed.has(s));
    const last = kept[kept.length - 1];
    const multiline = source.slice(named.getStart(sf), named.getEnd()).includes('\n');
    const indent = multiline ? (/^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', last.getStart(sf)) + 1))?.[0] ?? '  ') : '';
    const sep = multiline ? `,\n${indent}` : ', ';
    ch.insert(last.getEnd(), toAdd.map((n) => `${sep}${n}`).join(''));
    return;
  }
  const lastImport = [...sf.statements].reverse().find(ts.isImportDeclaration);
  const line = `import { ${toAdd.join(', ')} } from '${PACKAGE}';`;
  if (lastImport) ch.insert(lastImport.getEnd(), `\n${line}`);
  else ch.insert(0, `${line}\n`);
}

function mergeRanges(ranges: { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const r of sorted) {
    const prev = out[out.length - 1];
    if (prev && r.start <= prev.end) prev.end = Math.max(prev.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
