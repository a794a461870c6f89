/**
 * What a file imports from ergraph, and where the code uses it. Every form reaches here: named,
 * aliased, namespace and type-only imports from any entry point (`ergraph`, `ergraph/orm`, ...),
 * the project's own barrels (`import { depend } from './lib'` where lib re-exports ergraph),
 * `require()` and `await import()` bound to a name or destructured, and the file's own
 * `export { X } from 'ergraph'`. The edits that keep these imports right are `import-fixes.ts`.
 */
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
  /**
   * Aliased bindings through a barrel not known to export their new name: the binding leaves the
   * barrel's import and the new name is imported from its entry point under the same alias.
   */
  readonly detached: Map<BindingNode, string>;
  /** Whether `module` as the file writes it (an entry point, a barrel, a path alias) exports ergraph's `name` as `name`. */
  reaches(module: string, name: string): boolean;
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
    detached: new Map(),
    reaches(module, name) {
      const entry = V6_ENTRY[name] ?? ROOT;
      if (isErgraphModule(module)) return module === entry;
      const target = project.resolveModule(sf.fileName, module);
      return target !== undefined && project.reachesErgraph(target, name, name, entry);
    },
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
