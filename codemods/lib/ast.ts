/** Small questions about object literals and calls that every transform asks. */
import type { FileChanges } from './changes.js';
import { ergraphExportOf, type ErgraphImports } from './ergraph-imports.js';
import { nodesOf } from './nodes.js';
import { ts } from './parse.js';

export type Prop = ts.ObjectLiteralElementLike;

/** The static key of a property, or undefined for computed keys and spreads. */
export function keyOf(prop: Prop): string | undefined {
  if (ts.isSpreadAssignment(prop)) return undefined;
  const name = prop.name;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** Why an options object cannot be rewritten key by key, if it cannot. */
export function unsafeOptions(obj: ts.ObjectLiteralExpression): string | undefined {
  for (const prop of obj.properties) {
    if (ts.isSpreadAssignment(prop)) return 'spread options cannot be migrated safely';
    if (keyOf(prop) === undefined) return 'computed option keys cannot be migrated safely';
  }
  return undefined;
}

export function findProp(obj: ts.ObjectLiteralExpression, key: string): Prop | undefined {
  return obj.properties.find((p) => keyOf(p) === key);
}

/** The value expression of a property (`x` for the shorthand `{ x }`). */
export function valueOf(prop: Prop): ts.Expression | undefined {
  if (ts.isPropertyAssignment(prop)) return prop.initializer;
  if (ts.isShorthandPropertyAssignment(prop)) return prop.name;
  return undefined;
}

/** Renames a key in place; a shorthand `{ old }` becomes `{ next: old }`. */
export function renameKey(ch: FileChanges, prop: Prop, next: string): void {
  if (ts.isShorthandPropertyAssignment(prop)) ch.replace(prop.name, `${next}: ${prop.name.text}`);
  else if (!ts.isSpreadAssignment(prop)) ch.replace(prop.name, next);
}

/** Renames every key listed in `renames`; returns whether anything was renamed. */
export function renameKeys(ch: FileChanges, obj: ts.ObjectLiteralExpression, renames: Record<string, string>): boolean {
  let renamed = false;
  for (const prop of obj.properties) {
    const key = keyOf(prop);
    if (key !== undefined && Object.hasOwn(renames, key)) {
      renameKey(ch, prop, renames[key]);
      renamed = true;
    }
  }
  return renamed;
}

/** `new <ergraph export>(...)` expressions of the given export names. */
export function newExpressionsOf(
  sf: ts.SourceFile,
  imports: ErgraphImports,
  names: readonly string[],
): { node: ts.NewExpression; exportName: string }[] {
  const found: { node: ts.NewExpression; exportName: string }[] = [];
  for (const node of nodesOf(sf).news) {
    const exportName = ergraphExportOf(node.expression, imports);
    if (exportName && names.includes(exportName)) found.push({ node, exportName });
  }
  return found;
}

export function callsOf(
  sf: ts.SourceFile,
  imports: ErgraphImports,
  names: readonly string[],
): { node: ts.CallExpression; exportName: string }[] {
  const found: { node: ts.CallExpression; exportName: string }[] = [];
  for (const node of nodesOf(sf).calls) {
    const exportName = ergraphExportOf(node.expression, imports);
    if (exportName && names.includes(exportName)) found.push({ node, exportName });
  }
  return found;
}

/** The single object-literal argument of a call/new, if that is its shape. */
export function optionsArg(node: ts.CallExpression | ts.NewExpression): ts.ObjectLiteralExpression | undefined {
  const [first, ...rest] = node.arguments ?? [];
  return first && rest.length === 0 && ts.isObjectLiteralExpression(first) ? first : undefined;
}

/** Name of the class an expression is (`Task`, `() => Task`, `[Task]`, `() => [Task]`, `'mod:Task'`). */
export function targetClass(expr: ts.Expression): { name: string; list: boolean } | undefined {
  let e: ts.Expression = expr;
  if (ts.isArrowFunction(e) && !ts.isBlock(e.body)) e = e.body;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  let list = false;
  if (ts.isArrayLiteralExpression(e) && e.elements.length === 1) {
    list = true;
    e = e.elements[0];
  }
  if (ts.isIdentifier(e)) return { name: e.text, list };
  if (ts.isPropertyAccessExpression(e)) return { name: e.name.text, list };
  if (ts.isStringLiteral(e)) return { name: e.text.split(':').pop() ?? e.text, list };
  return undefined;
}

export function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** `owned_tasks` / `owned-tasks` → `ownedTasks`. */
export function camel(s: string): string {
  return s.replace(/[-_]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[-_]+/, '');
}

/** The enclosing class of a node, if any. */
export function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) if (ts.isClassLike(p)) return p;
  return undefined;
}

/** Quote style of the file's first string literal, so new strings look like their neighbours. */
export function quoteOf(sf: ts.SourceFile): string {
  const m = /(['"])(?:ergraph)\1/.exec(sf.text);
  return m ? m[1] : "'";
}

/** Leading whitespace of the line a position is on. */
export function indentAt(source: string, pos: number): string {
  const lineStart = source.lastIndexOf('\n', pos - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? '';
}

/**
 * Inserts `text` (one `key: value` property) right after `after` in an object literal, following
 * the object's layout: its own line in a multi-line object, `, text` on a single line.
 */
export function insertPropertyAfter(
  ch: FileChanges,
  obj: ts.ObjectLiteralExpression,
  after: Prop,
  text: string,
): void {
  const { sf, source } = ch;
  const multiline = source.slice(obj.getStart(sf), obj.getEnd()).includes('\n');
  const index = obj.properties.indexOf(after);
  const hasComma = index < obj.properties.length - 1 || obj.properties.hasTrailingComma;
  if (!multiline) {
    ch.insert(after.getEnd(), `, ${text}`);
    return;
  }
  const indent = indentAt(source, after.getStart(sf));
  if (hasComma) {
    const comma = source.indexOf(',', after.getEnd());
    ch.insert(comma + 1, `\n${indent}${text},`);
  } else ch.insert(after.getEnd(), `,\n${indent}${text}`);
}

/** Text of a string literal expression, if it is one. */
export function stringValue(expr: ts.Expression | undefined): string | undefined {
  return expr && (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) ? expr.text : undefined;
}
