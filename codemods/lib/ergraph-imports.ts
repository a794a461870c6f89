/**
 * What a file imports from ergraph, and the edits that keep those imports right after a transform
 * renamed, added or stopped using exports. Every form reaches here: named, aliased, namespace and
 * type-only imports from any entry point (`ergraph`, `ergraph/orm`, ...), the project's own
 * barrels (`import { depend } from './lib'` where lib re-exports ergraph), `require()` and
 * `await import()` bound to a name or destructured, and the file's own `export { X } from 'ergraph'`.
 */
import { coveredBy } from './edits.js';
import type { FileChanges } from './changes.js';
import { nodesOf } from './nodes.js';
import { ts } from './parse.js';
import { EMPTY_PROJECT, requiredModule, type Project } from './project.js';
import { isErgraphModule, KNOWN_NAMES, ROOT, V6_ENTRY } from './v6-exports.js';

/** The package root, where new imports go unless `V6_ENTRY` says otherwise. */
export const PACKAGE = ROOT;

export type BindingNode = ts.ImportSpecifier | ts.BindingElement;

export interface NamedBinding {
  /** The ergraph export the binding stands for. */
  imported: string;
  local: string;
  specifier: BindingNode;
  /** The statement holding it: an import declaration or the variable statement of a `require`. */
  declaration: ts.ImportDeclaration | ts.VariableStatement;
  /** The module written in the file: an ergraph entry point or a project barrel. */
  module: string;
  /** Straight from an ergraph entry point (not through a barrel): its imported name can be changed. */
  direct: boolean;
  typeOnly: boolean;
}

export interface ReExport {
  specifier: ts.ExportSpecifier;
  imported: string;
  declaration: ts.ExportDeclaration;
  module: string;
}

export interface NamespaceBinding {
  local: string;
  module: string;
  /** Straight from an ergraph entry point; otherwise a barrel that re-exports all of ergraph. */
  direct: boolean;
}

export interface ErgraphImports {
  named: NamedBinding[];
  namespaces: string[];
  namespaceBindings: NamespaceBinding[];
  /** Import declarations of ergraph entry points. */
  declarations: ts.ImportDeclaration[];
  /** `export { X as Y } from 'ergraph…'` in this file. */
  reExports: ReExport[];
  /** `require('ergraph')` / `import('ergraph')` whose result is not bound to a name or pattern: its uses are not followed. */
  opaque: ts.Node[];
  /** Whether the file reaches ergraph through `require` (then new bindings are added the same way). */
  commonJs: boolean;
  /** Exports the rewritten code uses by bare name and that must be added to the imports. */
  readonly added: Set<string>;
  /** Specifiers to rename in place (`Old as x` → `New as x`), keyed by specifier. */
  readonly renamed: Map<BindingNode, string>;
}

const isTypeOnlySpecifier = (s: ts.ImportSpecifier, decl: ts.ImportDeclaration) => s.isTypeOnly || !!decl.importClause?.isTypeOnly;

/**
 * The ergraph export an import of `name` from `module` in `file` stands for, if any: straight
 * from an ergraph entry point, or through the project's barrels. What `readErgraphImports` reads
 * from a tree, and the runner from module facts (`bindsHiddenNamesIn`).
 */
export function ergraphImportOf(project: Project, file: string, module: string, name: string): { imported: string; direct: boolean } | undefined {
  if (isErgraphModule(module)) return { imported: name, direct: true };
  const target = project.resolveModule(file, module);
  const imported = target && project.ergraphExport(target, name, KNOWN_NAMES);
  return imported ? { imported, direct: false } : undefined;
}

export function readErgraphImports(sf: ts.SourceFile, project: Project = EMPTY_PROJECT): ErgraphImports {
  const out: ErgraphImports = {
    named: [],
    namespaces: [],
    namespaceBindings: [],
    declarations: [],
    reExports: [],
    opaque: [],
    commonJs: false,
    added: new Set(),
    renamed: new Map(),
  };
  const resolveName = (module: string, name: string) => ergraphImportOf(project, sf.fileName, module, name);
  const namespaceOf = (module: string): NamespaceBinding['direct'] | undefined => {
    if (isErgraphModule(module)) return true;
    const target = project.resolveModule(sf.fileName, module);
    return target && project.isErgraphBarrel(target) ? false : undefined;
  };
  const bound = new Set<ts.Node>();
  for (const stmt of sf.statements) {
    if (ts.isImportDeclaration(stmt) && ts.isStringLiteral(stmt.moduleSpecifier)) {
      const module = stmt.moduleSpecifier.text;
      if (isErgraphModule(module)) out.declarations.push(stmt);
      const bindings = stmt.importClause?.namedBindings;
      if (!bindings) continue;
      if (ts.isNamespaceImport(bindings)) {
        const direct = namespaceOf(module);
        if (direct !== undefined) out.namespaceBindings.push({ local: bindings.name.text, module, direct });
        continue;
      }
      for (const specifier of bindings.elements) {
        const found = resolveName(module, (specifier.propertyName ?? specifier.name).text);
        if (!found) continue;
        // Spelled out rather than spread: a spread literal here took most of this function's time.
        out.named.push({ imported: found.imported, direct: found.direct, local: specifier.name.text, specifier, declaration: stmt, module, typeOnly: isTypeOnlySpecifier(specifier, stmt) });
      }
    } else if (ts.isExportDeclaration(stmt) && stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier)) {
      const module = stmt.moduleSpecifier.text;
      const clause = stmt.exportClause;
      if (!isErgraphModule(module) || !clause || !ts.isNamedExports(clause)) continue;
      for (const specifier of clause.elements)
        out.reExports.push({ specifier, imported: (specifier.propertyName ?? specifier.name).text, declaration: stmt, module });
    } else if (ts.isVariableStatement(stmt)) {
      for (const decl of stmt.declarationList.declarations) {
        const module = requiredModule(decl.initializer);
        if (!module) continue;
        if (ts.isIdentifier(decl.name)) {
          const direct = namespaceOf(module);
          if (direct !== undefined) {
            out.namespaceBindings.push({ local: decl.name.text, module, direct });
            bound.add(decl.initializer!);
          }
        } else if (ts.isObjectBindingPattern(decl.name)) {
          let any = false;
          for (const el of decl.name.elements) {
            const key = el.propertyName ?? el.name;
            if (!ts.isIdentifier(el.name) || !(ts.isIdentifier(key) || ts.isStringLiteral(key))) continue;
            const found = resolveName(module, key.text);
            if (!found) continue;
            any = true;
            out.named.push({ imported: found.imported, direct: found.direct, local: el.name.text, specifier: el, declaration: stmt, module, typeOnly: false });
          }
          if (any || isErgraphModule(module)) bound.add(decl.initializer!);
        }
        if (isErgraphModule(module) && /\brequire\s*\(/.test(decl.initializer!.getText(sf))) out.commonJs = true;
      }
    }
  }
  // require()/import() of ergraph anywhere else: its names cannot be followed statically.
  if (/\b(?:require|import)\s*\(/.test(sf.text))
    for (const node of nodesOf(sf).calls) {
      if (bound.has(node) || (node.parent && ts.isAwaitExpression(node.parent) && bound.has(node.parent))) continue;
      const module = requiredModule(node);
      if (module && isErgraphModule(module)) out.opaque.push(node);
    }
  out.namespaces = out.namespaceBindings.map((n) => n.local);
  return out;
}

/** The ergraph export an expression names (`Relationship`, `R` for an alias, `eg.Relationship`). */
export function ergraphExportOf(expr: ts.Node, imports: ErgraphImports): string | undefined {
  if (ts.isIdentifier(expr)) return imports.named.find((b) => b.local === expr.text)?.imported;
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression) && imports.namespaces.includes(expr.expression.text))
    return expr.name.text;
  return undefined;
}

/**
 * The text to write for an export in new code: an existing local name, `ns.Name` when a
 * namespace of the right entry point is there, or the bare name (then recorded in `added`).
 */
export function localFor(name: string, imports: ErgraphImports): string {
  const existing = imports.named.find((b) => b.imported === name && !b.typeOnly);
  if (existing) return existing.local;
  const entry = V6_ENTRY[name] ?? ROOT;
  const ns = imports.namespaceBindings.find((n) => (n.direct ? n.module === entry : entry === ROOT));
  if (ns) return `${ns.local}.${name}`;
  imports.added.add(name);
  return name;
}

/** Is this identifier a use of a variable (rather than a property name or a declaration)? */
export function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isExportSpecifier(p)) return false;
  if (ts.isBindingElement(p)) return false;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name === id)
    return false;
  if ((ts.isClassDeclaration(p) || ts.isFunctionDeclaration(p) || ts.isVariableDeclaration(p)) && p.name === id)
    return false;
  if (ts.isQualifiedName(p) && p.right === id) return false;
  if (ts.isPropertySignature(p) || ts.isEnumMember(p)) return false;
  return true;
}

/** Identifiers of a file by name, from the file's one shared walk. */
function identifiersNamed(sf: ts.SourceFile, name: string): readonly ts.Identifier[] {
  return nodesOf(sf).identifiers(name);
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

/** Marks each `require`/`import()` of ergraph whose names cannot be followed, when old names may hide behind it. */
export function markOpaque(ch: FileChanges, imports: ErgraphImports, oldNames: readonly string[]): void {
  const present = oldNames.filter((n) => ch.source.includes(n));
  if (present.length === 0) return;
  for (const node of imports.opaque)
    ch.manual(node, `ergraph is loaded dynamically here, so its names are not followed: replace ${present.join(', ')} by hand`);
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

/** Removes the `removed` members of a list; the whole statement when nothing would be left. */
function removeFromList(ch: FileChanges, statement: ts.Node, elements: readonly ts.Node[], removed: ReadonlySet<ts.Node>, keepsOther: boolean): void {
  const { sf, source } = ch;
  const gone = elements.filter((s) => removed.has(s));
  if (gone.length === 0) return;
  if (gone.length === elements.length && !keepsOther) {
    const whole = lineRange(source, statement.getStart(sf), statement.getEnd());
    ch.replace(whole ?? statement, '');
    return;
  }
  const indices = elements.map((s, i) => (removed.has(s) ? i : -1)).filter((i) => i >= 0);
  const ranges = indices.map((i) => {
    const own = lineRange(source, elements[i].getStart(sf), elements[i].getEnd());
    if (own) return own;
    // A run of neighbours goes with one comma: up to the next survivor, or from the previous one.
    let j = i;
    while (j + 1 < elements.length && removed.has(elements[j + 1])) j++;
    let k = i;
    while (k > 0 && removed.has(elements[k - 1])) k--;
    const next = elements[j + 1];
    if (next) return { start: elements[i].getStart(sf), end: next.getStart(sf) };
    const prev = elements[k - 1];
    return prev ? { start: prev.getEnd(), end: elements[i].getEnd() } : { start: elements[i].getStart(sf), end: elements[i].getEnd() };
  });
  mergeRanges(ranges).forEach((r) => ch.replace(r, ''));
}

function listOf(binding: NamedBinding): { statement: ts.Node; elements: readonly ts.Node[]; keepsOther: boolean } | undefined {
  if (ts.isImportSpecifier(binding.specifier)) {
    const decl = binding.declaration as ts.ImportDeclaration;
    return { statement: decl, elements: (decl.importClause!.namedBindings as ts.NamedImports).elements, keepsOther: !!decl.importClause?.name };
  }
  const pattern = binding.specifier.parent;
  const stmt = binding.declaration as ts.VariableStatement;
  return ts.isObjectBindingPattern(pattern) ? { statement: stmt.declarationList.declarations.length === 1 ? stmt : pattern.parent, elements: pattern.elements, keepsOther: false } : undefined;
}

export interface ImportFixes {
  /** Old exports whose binding goes once no use is left outside replaced text. */
  drop?: readonly string[];
  /** Old export → its v6 name, for the file's own re-exports (`export { LoaderDepend as depend } from 'ergraph'`). */
  rename?: Readonly<Record<string, string>>;
  /** Re-exports of these old names go (their users in the run import the replacement directly). */
  removeReExports?: readonly string[];
  /** Move imports and re-exports of names v6 exports from another entry point (`AutoQueryConfig` → `ergraph/orm`). */
  relocate?: boolean;
}

/**
 * Final import edits of a transform: renames recorded in `renamed`, bindings of `drop` exports
 * whose local name is no longer referenced outside replaced text, the file's own re-exports of
 * old names, names imported from the wrong entry point, and `added` exports (placed where a
 * dropped binding was, else appended to an import of their entry point, else on a new line).
 */
export function fixImports(ch: FileChanges, imports: ErgraphImports, fixes: ImportFixes | readonly string[] = {}): void {
  const { drop = [], rename = {}, removeReExports = [], relocate = false } = Array.isArray(fixes) ? { drop: fixes as readonly string[] } : (fixes as ImportFixes);
  const { sf, source } = ch;
  const entryOf = (name: string) => V6_ENTRY[name] ?? ROOT;
  const has = (name: string) => imports.named.some((b) => b.imported === name && b.local === name && !b.typeOnly);
  const toAdd = [...imports.added].filter((name) => !has(name));
  const removed = new Set<ts.Node>();
  const moved = new Map<string, string[]>();
  const movedWhole = new Set<ts.ImportDeclaration>();
  for (const binding of imports.named) {
    const rename = imports.renamed.get(binding.specifier);
    if (rename) {
      if (binding.specifier.propertyName) ch.replace(binding.specifier.propertyName, rename);
      continue;
    }
    if (drop.includes(binding.imported)) {
      const live = referencesTo(sf, binding.local).some((id) => !coveredBy(ch.edits, id.getStart(sf)));
      if (live) continue;
      // A dropped binding's place takes an added name of the same entry point, keeping the import's shape.
      const index = binding.direct ? toAdd.findIndex((n) => entryOf(n) === binding.module) : -1;
      if (index >= 0 && ts.isImportSpecifier(binding.specifier)) {
        const [replacement] = toAdd.splice(index, 1);
        ch.replace(binding.specifier, `${binding.specifier.isTypeOnly ? 'type ' : ''}${replacement}`);
      } else removed.add(binding.specifier);
      continue;
    }
    // An import from an entry point v6 does not export the name from moves to the one that does:
    // the whole declaration when all of it goes to one place, else the one specifier.
    if (relocate && binding.direct && V6_ENTRY[binding.imported] && entryOf(binding.imported) !== binding.module && ts.isImportSpecifier(binding.specifier)) {
      const decl = binding.declaration as ts.ImportDeclaration;
      const elements = (decl.importClause!.namedBindings as ts.NamedImports).elements;
      const entry = entryOf(binding.imported);
      const whole = !decl.importClause?.name && elements.every((e) => V6_ENTRY[(e.propertyName ?? e.name).text] && entryOf((e.propertyName ?? e.name).text) === entry);
      if (whole) {
        if (!movedWhole.has(decl)) {
          movedWhole.add(decl);
          const quote = source.charAt(decl.moduleSpecifier.getStart(sf));
          ch.replace(decl.moduleSpecifier, `${quote}${entry}${quote}`);
        }
        ch.note(binding.specifier, `import of ${binding.imported} moved from '${binding.module}' to '${entry}', where v6 exports it`);
        continue;
      }
      removed.add(binding.specifier);
      const text = binding.specifier.getText(sf).replace(/^type\s+/, '');
      moved.set(entry, [...(moved.get(entry) ?? []), `${binding.typeOnly ? 'type ' : ''}${text}`]);
      ch.note(binding.specifier, `import of ${binding.imported} moved from '${binding.module}' to '${entry}', where v6 exports it`);
    }
  }
  // The file's own re-exports of ergraph names.
  const removedExports = new Set<ts.Node>();
  const movedExports = new Map<string, string[]>();
  for (const re of imports.reExports) {
    const next = rename[re.imported];
    if (next) {
      const exported = re.specifier.name.text;
      ch.replace(re.specifier, exported === re.imported ? `${next} as ${exported}` : `${next} as ${exported}`);
      ch.note(re.specifier, `re-export of ${re.imported} now re-exports ${next} (v6 name) as ${exported}`);
    } else if ((drop.includes(re.imported) && !V6_ENTRY[re.imported]) || removeReExports.includes(re.imported)) {
      // A re-export is the module's public API: only names v6 no longer has go with unused imports.
      removedExports.add(re.specifier);
      ch.note(re.specifier, `re-export of ${re.imported} removed: v6 has no such export, and its users in this run were migrated`);
    } else if (relocate && V6_ENTRY[re.imported] && entryOf(re.imported) !== re.module) {
      removedExports.add(re.specifier);
      const entry = entryOf(re.imported);
      movedExports.set(entry, [...(movedExports.get(entry) ?? []), re.specifier.getText(sf)]);
    }
  }
  const lists = new Map<ts.Node, NonNullable<ReturnType<typeof listOf>>>();
  for (const binding of imports.named) {
    const list = removed.has(binding.specifier) ? listOf(binding) : undefined;
    if (list) lists.set(list.statement, list);
  }
  for (const list of lists.values()) removeFromList(ch, list.statement, list.elements, removed, list.keepsOther);
  for (const decl of new Set(imports.reExports.map((r) => r.declaration))) {
    const clause = decl.exportClause as ts.NamedExports;
    removeFromList(ch, decl, clause.elements, removedExports, false);
  }
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const extra: string[] = [];
  for (const [entry, texts] of movedExports) extra.push(`export { ${texts.join(', ')} } from '${entry}';`);
  for (const [entry, texts] of moved) {
    const fromAdded = toAdd.filter((n) => entryOf(n) === entry);
    for (const n of fromAdded) toAdd.splice(toAdd.indexOf(n), 1);
    extra.push(importLine(imports, [...texts, ...fromAdded], entry));
  }
  // Remaining added names: appended to an import of their entry point, else a new statement.
  const byEntry = new Map<string, string[]>();
  for (const name of toAdd) byEntry.set(entryOf(name), [...(byEntry.get(entryOf(name)) ?? []), name]);
  for (const [entry, names] of byEntry) {
    const target = imports.declarations.find((d) => {
      const b = d.importClause?.namedBindings;
      return (d.moduleSpecifier as ts.StringLiteral).text === entry && b && ts.isNamedImports(b) && !d.importClause?.isTypeOnly && b.elements.some((s) => !removed.has(s));
    });
    const named = target?.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      const kept = named.elements.filter((s) => !removed.has(s));
      const last = kept[kept.length - 1];
      const multiline = source.slice(named.getStart(sf), named.getEnd()).includes('\n');
      const indent = multiline ? (/^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', last.getStart(sf)) + 1))?.[0] ?? '  ') : '';
      const sep = multiline ? `,${eol}${indent}` : ', ';
      ch.insert(last.getEnd(), names.map((n) => `${sep}${n}`).join(''));
      continue;
    }
    const pattern = imports.commonJs ? requirePattern(imports, entry, removed) : undefined;
    if (pattern) {
      const kept = pattern.elements.filter((e) => !removed.has(e));
      ch.insert(kept[kept.length - 1].getEnd(), names.map((n) => `, ${n}`).join(''));
      continue;
    }
    extra.push(importLine(imports, names, entry));
  }
  if (extra.length === 0) return;
  const anchor = [...sf.statements].reverse().find((s) => ts.isImportDeclaration(s) || (imports.commonJs && ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => requiredModule(d.initializer))));
  if (anchor) ch.insert(anchor.getEnd(), extra.map((l) => `${eol}${l}`).join(''));
  else ch.insert(leadingCommentsEnd(sf), extra.map((l) => `${l}${eol}`).join(''));
}

function importLine(imports: ErgraphImports, names: readonly string[], entry: string): string {
  if (imports.commonJs && imports.declarations.length === 0) return `const { ${names.map((n) => n.replace(/^type\s+/, '')).join(', ')} } = require('${entry}');`;
  return `import { ${names.join(', ')} } from '${entry}';`;
}

function requirePattern(imports: ErgraphImports, entry: string, removed: ReadonlySet<ts.Node>): ts.ObjectBindingPattern | undefined {
  for (const b of imports.named) {
    if (!b.direct || b.module !== entry || !ts.isBindingElement(b.specifier)) continue;
    const pattern = b.specifier.parent;
    if (ts.isObjectBindingPattern(pattern) && pattern.elements.some((e) => !removed.has(e))) return pattern;
  }
  return undefined;
}

/** Where a new first statement goes: after a shebang and the file's leading comment block. */
function leadingCommentsEnd(sf: ts.SourceFile): number {
  const first = sf.statements[0];
  if (!first) return 0;
  const start = first.getStart(sf);
  return sf.text.lastIndexOf('\n', start - 1) + 1;
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
