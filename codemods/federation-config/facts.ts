/**
 * What the federation transform learns from each file: entity classes and their declarations,
 * old `AutoQueryConfig` entries, and DTO-level orders. `apply` plans from the facts of all files,
 * so the file that loses a declaration and the file that gains it agree.
 */
import { findProp, keyOf, newExpressionsOf, optionsArg, stringValue, unsafeOptions, valueOf } from '../lib/ast.js';
import { ergraphExportOf, isReference, type ErgraphImports } from '../lib/ergraph-imports.js';
import { nodesOf } from '../lib/nodes.js';
import { ts } from '../lib/parse.js';
import { EMPTY_PROJECT, type Project } from '../lib/project.js';
import { classRef } from '../v3-to-v4/relationships.js';
import { leadingComments } from '../lib/comments.js';

/** Text of a moved expression, with the places that name ergraph exports (rewritten for the destination). */
export interface PortableText {
  text: string;
  /** Indentation of the line the text starts on, so continuation lines can be re-indented. */
  indent: string;
  refs: { start: number; end: number; exportName: string }[];
  /** Comments above the moved declaration (a JSDoc of the entry or static): they move with it. */
  comments?: string[];
}

export type FederationFact =
  | { kind: 'class'; file: string; name: string; keys?: string[]; orders?: string; subsetOf?: string }
  | { kind: 'autoQuery'; file: string; start: number; unsafe?: string; keys: { entity: string; keys: string[]; comments?: string[] }[]; pages: { entity: string; orders: PortableText }[] }
  | { kind: 'dtoOrders'; file: string; start: number; dto: string; entity: string; orders?: PortableText };

/** Normalised for comparison: the same orders written with other spacing are the same orders. */
export function sameText(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

/**
 * The expression as portable text, or undefined when it names anything but ergraph exports and
 * literals (a local constant would not exist in the entity's file).
 */
export function portable(expr: ts.Expression, sf: ts.SourceFile, imports: ErgraphImports): PortableText | undefined {
  const base = expr.getStart(sf);
  const refs: PortableText['refs'] = [];
  let dynamic = false;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && imports.namespaces.includes(node.expression.text)) {
      refs.push({ start: node.getStart(sf) - base, end: node.getEnd() - base, exportName: node.name.text });
      return;
    }
    if (ts.isIdentifier(node) && isReference(node)) {
      const exportName = ergraphExportOf(node, imports);
      if (exportName) refs.push({ start: node.getStart(sf) - base, end: node.getEnd() - base, exportName });
      else if (node.text !== 'undefined') dynamic = true;
      return;
    }
    node.forEachChild(visit);
  };
  visit(expr);
  const lineStart = sf.text.lastIndexOf('\n', base - 1) + 1;
  const indent = /^[ \t]*/.exec(sf.text.slice(lineStart))?.[0] ?? '';
  return dynamic ? undefined : { text: expr.getText(sf), indent, refs };
}

/** The comments above a moved declaration, as text (they travel in facts to the destination file). */
export function commentTexts(node: ts.Node, sf: ts.SourceFile): string[] | undefined {
  const found = leadingComments(node, sf).map((c) => sf.text.slice(c.start, c.end));
  return found.length > 0 ? found : undefined;
}

function withComments(text: PortableText | undefined, node: ts.Node, sf: ts.SourceFile): PortableText | undefined {
  return text && { ...text, comments: commentTexts(node, sf) };
}

function stringArray(expr: ts.Expression | undefined): string[] | undefined {
  if (!expr || !ts.isArrayLiteralExpression(expr)) return undefined;
  const values = expr.elements.map((e) => stringValue(e as ts.Expression));
  return values.every((v): v is string => v !== undefined) ? values : undefined;
}

function staticMember(cls: ts.ClassLikeDeclaration, name: string): ts.PropertyDeclaration | undefined {
  return cls.members.find(
    (m): m is ts.PropertyDeclaration =>
      ts.isPropertyDeclaration(m) &&
      ts.isIdentifier(m.name) &&
      m.name.text === name &&
      !!m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword),
  );
}

/** The source entity of a subset class: `extends DefineSubset(E, ...)` or `DefineSubset(new SubsetConfig({ kls: E }))`. */
export function subsetSource(cls: ts.ClassLikeDeclaration, imports: ErgraphImports, project: Project = EMPTY_PROJECT): string | undefined {
  const heritage = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  if (!heritage || !ts.isCallExpression(heritage) || ergraphExportOf(heritage.expression, imports) !== 'DefineSubset') return undefined;
  const [first] = heritage.arguments;
  if (first && ts.isNewExpression(first) && ergraphExportOf(first.expression, imports) === 'SubsetConfig') {
    const opts = optionsArg(first);
    const kls = opts && findProp(opts, 'kls');
    const value = kls && valueOf(kls);
    return value ? classRef(value, project)?.name : undefined;
  }
  // The entity's own name, whatever alias or barrel brought it here.
  return first ? classRef(first, project)?.name : undefined;
}

export function classes(sf: ts.SourceFile): readonly ts.ClassDeclaration[] {
  return nodesOf(sf).classes;
}

export { staticMember };

function readAutoQuery(node: ts.NewExpression, sf: ts.SourceFile, imports: ErgraphImports): FederationFact | undefined {
  const opts = optionsArg(node);
  const fact = { kind: 'autoQuery' as const, file: sf.fileName, start: node.getStart(sf), keys: [] as { entity: string; keys: string[]; comments?: string[] }[], pages: [] as { entity: string; orders: PortableText }[] };
  if (!opts) return node.arguments?.length ? { ...fact, unsafe: 'AutoQueryConfig options are not an object literal' } : undefined;
  const batchKeys = findProp(opts, 'batchKeys');
  const batchPages = findProp(opts, 'batchPages');
  const unsafe = unsafeOptions(opts);
  if (unsafe) return { ...fact, unsafe: `AutoQueryConfig: ${unsafe}` };
  if (!batchKeys && !batchPages) return undefined;
  const keysValue = batchKeys && valueOf(batchKeys);
  if (batchKeys) {
    if (!keysValue || !ts.isObjectLiteralExpression(keysValue)) return { ...fact, unsafe: 'batchKeys is not an object literal' };
    for (const prop of keysValue.properties) {
      const entity = keyOf(prop);
      const keys = stringArray(valueOf(prop));
      if (!entity || !keys) return { ...fact, unsafe: 'batchKeys entries must be `Entity: [string literals]`' };
      fact.keys.push({ entity, keys, comments: commentTexts(prop, sf) });
    }
  }
  const pagesValue = batchPages && valueOf(batchPages);
  if (batchPages) {
    if (!pagesValue || !ts.isObjectLiteralExpression(pagesValue)) return { ...fact, unsafe: 'batchPages is not an object literal' };
    for (const prop of pagesValue.properties) {
      const entity = keyOf(prop);
      const value = valueOf(prop);
      const orders = value && portable(value, sf, imports);
      if (!entity || !orders) return { ...fact, unsafe: 'batchPages entries must be `Entity: new BatchPageConfig(...)` built from literals' };
      fact.pages.push({ entity, orders: { ...orders, comments: commentTexts(prop, sf) } });
    }
  }
  return fact;
}

export function scanFederation(sf: ts.SourceFile, imports: ErgraphImports, project: Project = EMPTY_PROJECT): FederationFact[] {
  const facts: FederationFact[] = [];
  for (const cls of classes(sf)) {
    const keys = staticMember(cls, '__federation_keys__');
    const orders = staticMember(cls, '__pagination_orders__');
    const subsetOf = subsetSource(cls, imports, project);
    facts.push({
      kind: 'class',
      file: sf.fileName,
      name: cls.name!.text,
      keys: keys && stringArray(keys.initializer),
      orders: orders?.initializer && !subsetOf ? orders.initializer.getText(sf) : undefined,
      subsetOf,
    });
    if (subsetOf && orders?.initializer)
      facts.push({
        kind: 'dtoOrders',
        file: sf.fileName,
        start: orders.getStart(sf),
        dto: cls.name!.text,
        entity: subsetOf,
        orders: withComments(portable(orders.initializer, sf, imports), orders, sf),
      });
  }
  for (const { node } of newExpressionsOf(sf, imports, ['AutoQueryConfig'])) {
    const fact = readAutoQuery(node, sf, imports);
    if (fact) facts.push(fact);
  }
  return facts;
}
