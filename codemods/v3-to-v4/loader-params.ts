/**
 * v3 `loaderFilters` was an object keyed by loader class name (`{ UserLoader: { active: true } }`);
 * v4's `loaderParams` is a `Map` keyed by the loader class itself. An object literal whose keys
 * are loader classes (in scope, or exported by one module of the run, then imported) becomes `new Map([[UserLoader, { active: true }]])`, also when it is
 * the initializer of a `const` used only there; anything else is left for a human.
 */
import { dirname, relative } from 'node:path';
import type { FileChanges } from '../lib/changes.js';
import { referencesTo } from '../lib/ergraph-imports.js';
import { nodesOf } from '../lib/nodes.js';
import { ts } from '../lib/parse.js';
import { EMPTY_PROJECT, type Project } from '../lib/project.js';

const WHY = 'loaderParams is a Map keyed by loader class: write new Map([[LoaderClass, params]]) for this loaderFilters value';

/** Names a file binds at its top level: imports and declarations (what a Map key may name). */
function boundNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  for (const stmt of sf.statements) {
    if (ts.isImportDeclaration(stmt) && stmt.importClause && !stmt.importClause.isTypeOnly) {
      const clause = stmt.importClause;
      if (clause.name) names.add(clause.name.text);
      const b = clause.namedBindings;
      if (b && ts.isNamespaceImport(b)) names.add(b.name.text);
      else if (b) for (const s of b.elements) if (!s.isTypeOnly) names.add(s.name.text);
    } else if ((ts.isClassDeclaration(stmt) || ts.isFunctionDeclaration(stmt)) && stmt.name) names.add(stmt.name.text);
    else if (ts.isVariableStatement(stmt)) for (const d of stmt.declarationList.declarations) bind(d.name);
  }
  return names;
}

/** `const x = <init>` declaring `id`'s name in this file, when it is the only declaration and `id` its only use. */
function onlyUseOfConst(sf: ts.SourceFile, id: ts.Identifier): ts.VariableDeclaration | undefined {
  const decls = nodesOf(sf)
    .identifiers(id.text)
    .map((n) => n.parent)
    .filter((p): p is ts.VariableDeclaration => ts.isVariableDeclaration(p) && p.name.kind === ts.SyntaxKind.Identifier && (p.name as ts.Identifier).text === id.text);
  if (decls.length !== 1) return undefined;
  const [decl] = decls;
  const isConst = (decl.parent.flags & ts.NodeFlags.Const) !== 0;
  const uses = referencesTo(sf, id.text);
  return isConst && uses.length === 1 && uses[0] === id ? decl : undefined;
}

/** The one project module exporting a class of this name, if exactly one does. */
function exportingModule(project: Project, name: string): string | undefined {
  const found = project.classExporters(name);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Imports loader classes a v3 file named only as keys (v3 keyed by name, so the file needed no
 * import): appended to an import of their module when there is one, else a new import line
 * written in the style of the file's other relative imports.
 */
function importClasses(ch: FileChanges, project: Project, wanted: ReadonlyMap<string, string>): void {
  const { sf, source } = ch;
  const relativeImports = sf.statements.filter((s): s is ts.ImportDeclaration => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('.'));
  const byModule = new Map<string, string[]>();
  for (const [name, module] of wanted) byModule.set(module, [...(byModule.get(module) ?? []), name]);
  const lines: string[] = [];
  for (const [module, names] of byModule) {
    const existing = relativeImports.find((d) => {
      const b = d.importClause?.namedBindings;
      return !d.importClause?.isTypeOnly && b && ts.isNamedImports(b) && b.elements.length > 0 && project.resolveModule(sf.fileName, (d.moduleSpecifier as ts.StringLiteral).text) === module;
    });
    if (existing) {
      const elements = (existing.importClause!.namedBindings as ts.NamedImports).elements;
      ch.insert(elements[elements.length - 1]!.getEnd(), names.map((n) => `, ${n}`).join(''));
      continue;
    }
    let spec = relative(dirname(sf.fileName), module).split('\\').join('/').replace(/\.[cm]?[jt]sx?$/, '').replace(/\/index$/, '');
    if (!spec.startsWith('.')) spec = `./${spec}`;
    if (relativeImports.some((d) => /\.[cm]?js$/.test((d.moduleSpecifier as ts.StringLiteral).text))) spec += '.js';
    lines.push(`import { ${names.join(', ')} } from '${spec}';`);
  }
  if (lines.length === 0) return;
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const last = [...sf.statements].reverse().find(ts.isImportDeclaration);
  if (last) ch.insert(last.getEnd(), lines.map((l) => `${eol}${l}`).join(''));
  else ch.insert(0, lines.map((l) => `${l}${eol}`).join(''));
}

/**
 * Rewrites an object literal keyed by loader classes in scope into a `new Map(...)` in place
 * (braces and keys only, so values, comments and layout stay); false when its keys are not that.
 */
function toMap(ch: FileChanges, obj: ts.ObjectLiteralExpression, bound: ReadonlySet<string>, project: Project): boolean {
  const { sf, source } = ch;
  const props: ts.PropertyAssignment[] = [];
  const toImport = new Map<string, string>();
  for (const prop of obj.properties) {
    if (!ts.isPropertyAssignment(prop) || !ts.isIdentifier(prop.name)) return false;
    const key = prop.name.text;
    if (!bound.has(key)) {
      const module = exportingModule(project, key);
      if (!module || module === sf.fileName) return false;
      toImport.set(key, module);
    }
    props.push(prop);
  }
  importClasses(ch, project, toImport);
  if (props.length === 0) {
    ch.replace(obj, 'new Map()');
    return true;
  }
  // Two loader classes are unrelated types: TypeScript infers a Map's key type from the first
  // entry only, so a typed file names the key union (a JavaScript file cannot).
  const keys = [...new Set(props.map((p) => (p.name as ts.Identifier).text))];
  const typed = /\.[cm]?tsx?$/.test(sf.fileName) && keys.length > 1;
  const typeArgs = typed ? `<${keys.map((k) => `typeof ${k}`).join(' | ')}, Record<string, unknown>>` : '';
  const open = obj.getStart(sf);
  const close = obj.getEnd() - 1;
  const oneLine = !source.slice(open, obj.getEnd()).includes('\n');
  const first = props[0]!.getStart(sf);
  const last = obj.properties.hasTrailingComma ? source.indexOf(',', props[props.length - 1]!.getEnd()) + 1 : props[props.length - 1]!.getEnd();
  ch.replace({ start: open, end: oneLine ? first : open + 1 }, `new Map${typeArgs}([`);
  for (const prop of props) {
    ch.replace({ start: prop.name.getStart(sf), end: prop.initializer.getStart(sf) }, `[${(prop.name as ts.Identifier).text}, `);
    ch.insert(prop.getEnd(), ']');
  }
  ch.replace({ start: oneLine ? last : close, end: close + 1 }, '])');
  return true;
}

export function rewriteLoaderFilters(ch: FileChanges, value: ts.Expression, project: Project = EMPTY_PROJECT): void {
  const { sf } = ch;
  let target: ts.Expression = value;
  if (ts.isIdentifier(value)) {
    const decl = onlyUseOfConst(sf, value);
    if (decl?.initializer) target = decl.initializer;
  }
  while (ts.isParenthesizedExpression(target)) target = target.expression;
  if (ts.isNewExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === 'Map') return;
  if (!ts.isObjectLiteralExpression(target) || !toMap(ch, target, boundNames(sf), project)) ch.manual(value, WHY);
}
