/**
 * v3 relationship declarations: what they declare (shared by `scan` and `apply`, so a `LoadBy` in
 * one file can find the relationship name derived in another) and how they are rewritten.
 */
import {
  camel,
  enclosingClass,
  findProp,
  insertPropertyAfter,
  keyOf,
  lowerFirst,
  newExpressionsOf,
  optionsArg,
  renameKeys,
  stringValue,
  targetClass,
  unsafeOptions,
  valueOf,
  type Prop,
} from '../lib/ast.js';
import type { FileChanges } from '../lib/changes.js';
import { ergraphExportOf, localFor, type ErgraphImports } from '../lib/ergraph-imports.js';
import { ts } from '../lib/parse.js';
import { quoted } from '../lib/style.js';
import { commentsIn, reindented } from '../lib/comments.js';
import { EMPTY_PROJECT, type Project } from '../lib/project.js';

export const OPTION_RENAMES: Record<string, string> = {
  field: 'fk',
  targetKls: 'target',
  fieldFn: 'fkFn',
  fieldNoneDefault: 'fkNoneDefault',
  fieldNoneDefaultFactory: 'fkNoneDefaultFactory',
  defaultFieldName: 'name',
};

export const RELATIONSHIP_MARKERS = ['__ergraph_relationships__', '__pydantic_resolve_relationships__'];
const MARKERS = ['__relationships__', ...RELATIONSHIP_MARKERS];

/** One relationship as `LoadBy` needs to know it. */
export interface RelationshipFact {
  kind: 'relationship';
  file: string;
  owner?: string;
  /** The file declaring the owner class, when the run's module graph knows it (aliases and barrels followed). */
  ownerFile?: string;
  fk?: string;
  biz?: string;
  name?: string;
}

/** The entity class whose relationship list holds `node` (class marker or `new Entity({ kls })`). */
export function ownerOf(node: ts.Node, imports: ErgraphImports, project: Project = EMPTY_PROJECT): { name: string; file?: string } | undefined {
  const list = node.parent;
  if (!list || !ts.isArrayLiteralExpression(list)) return undefined;
  const holder = list.parent;
  const file = node.getSourceFile().fileName;
  if (ts.isPropertyDeclaration(holder) && ts.isIdentifier(holder.name) && MARKERS.includes(holder.name.text)) {
    const name = enclosingClass(holder)?.name?.text;
    return name ? { name, file } : undefined;
  }
  if (ts.isPropertyAssignment(holder) && keyOf(holder) === 'relationships') {
    const obj = holder.parent;
    const call = obj.parent;
    if (ts.isNewExpression(call) && ergraphExportOf(call.expression, imports) === 'Entity') {
      const kls = findProp(obj, 'kls');
      const value = kls && valueOf(kls);
      return value ? classRef(value, project) : undefined;
    }
  }
  return undefined;
}

/** The class an expression names (`Task`, an alias, `models.Task`), followed through the project's imports. */
export function classRef(expr: ts.Expression, project: Project): { name: string; file?: string } | undefined {
  const file = expr.getSourceFile().fileName;
  if (ts.isIdentifier(expr)) return project.classOf(file, expr.text) ?? { name: expr.text };
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression))
    return project.classOfMember(file, expr.expression.text, expr.name.text) ?? { name: expr.name.text };
  return undefined;
}

function optionValue(obj: ts.ObjectLiteralExpression, ...keys: string[]): ts.Expression | undefined {
  for (const key of keys) {
    const prop = findProp(obj, key);
    if (prop) return valueOf(prop);
  }
  return undefined;
}

/** v3 left the field name optional; v4 requires one. Derived the way v3 named the field. */
export function deriveName(fk: string | undefined, target: ts.Expression | undefined): string | undefined {
  const cls = target && targetClass(target);
  if (fk && !cls?.list) {
    const m = /^(.+?)(?:Id|_id|ID)$/.exec(fk);
    if (m) return camel(m[1]);
  }
  if (cls) return lowerFirst(cls.name) + (cls.list ? 's' : '');
  return undefined;
}

interface LinkPlan {
  link: ts.NewExpression;
  opts: ts.ObjectLiteralExpression;
  biz?: string;
  name?: string;
  derived: boolean;
}

export interface Declaration {
  node: ts.NewExpression;
  exportName: 'Relationship' | 'MultipleRelationship';
  opts?: ts.ObjectLiteralExpression;
  unsafe?: string;
  facts: RelationshipFact[];
  /** Relationship: the name to add when it has none. */
  derivedName?: string;
  links: LinkPlan[];
}

function planLinks(mr: ts.ObjectLiteralExpression, imports: ErgraphImports): LinkPlan[] | string {
  const linksValue = optionValue(mr, 'links');
  if (!linksValue || !ts.isArrayLiteralExpression(linksValue)) return 'links is not an array literal';
  const fk = stringValue(optionValue(mr, 'field', 'fk'));
  const target = optionValue(mr, 'targetKls', 'target');
  const plans: LinkPlan[] = [];
  for (const el of linksValue.elements) {
    if (!ts.isNewExpression(el) || ergraphExportOf(el.expression, imports) !== 'Link') return 'a link is not `new Link({...})`';
    const opts = optionsArg(el);
    if (!opts) return 'Link options are not an object literal';
    const unsafe = unsafeOptions(opts);
    if (unsafe) return unsafe;
    const biz = stringValue(optionValue(opts, 'biz'));
    const explicit = optionValue(opts, 'defaultFieldName', 'name');
    if (explicit && stringValue(explicit) === undefined) return 'a Link name is not a string literal';
    const name = stringValue(explicit) ?? (biz ? camel(biz) : deriveName(fk, target));
    if (!name) return 'a Link has no defaultFieldName and no name can be derived';
    plans.push({ link: el, opts, biz, name, derived: !explicit });
  }
  return plans;
}

export function declarations(sf: ts.SourceFile, imports: ErgraphImports, project: Project = EMPTY_PROJECT): Declaration[] {
  return newExpressionsOf(sf, imports, ['Relationship', 'MultipleRelationship']).map(({ node, exportName }) => {
    const decl: Declaration = { node, exportName: exportName as Declaration['exportName'], facts: [], links: [] };
    const opts = optionsArg(node);
    const owner = ownerOf(node, imports, project);
    if (!opts) {
      decl.unsafe = 'options are not an object literal';
      return decl;
    }
    decl.opts = opts;
    decl.unsafe = unsafeOptions(opts);
    const fk = stringValue(optionValue(opts, 'field', 'fk'));
    const base = { kind: 'relationship' as const, file: sf.fileName, owner: owner?.name, ownerFile: owner?.file, fk };
    if (exportName === 'Relationship') {
      const explicit = optionValue(opts, 'defaultFieldName', 'name');
      const name = explicit ? stringValue(explicit) : deriveName(fk, optionValue(opts, 'targetKls', 'target'));
      if (!explicit && !decl.unsafe) decl.derivedName = name;
      decl.facts.push({ ...base, name });
      return decl;
    }
    if (decl.unsafe) return decl;
    if (!ts.isArrayLiteralExpression(node.parent)) {
      decl.unsafe = 'MultipleRelationship outside an array literal cannot be split';
      return decl;
    }
    const links = planLinks(opts, imports);
    if (typeof links === 'string') decl.unsafe = links;
    else {
      decl.links = links;
      decl.facts.push(...links.map((l) => ({ ...base, biz: l.biz, name: l.name })));
    }
    return decl;
  });
}

const OLD_KEYS = Object.keys(OPTION_RENAMES);

function renamedProp(sf: ts.SourceFile, prop: Prop): string {
  const key = keyOf(prop) ?? '';
  const next = OPTION_RENAMES[key] ?? key;
  const value = valueOf(prop);
  return `${next}: ${value ? value.getText(sf) : ''}`;
}

/**
 * Which link a comment inside a MultipleRelationship belongs to: the link it is in, the one it
 * ends the line of (`new Link({...}), // owner`), else the next one; -1 for the
 * MultipleRelationship's own options (outside the links array).
 */
function commentOwners(source: string, links: readonly ts.Node[], sf: ts.SourceFile, array: ts.Expression | undefined): (c: { start: number; end: number }) => number {
  return (c) => {
    if (!array || c.start < array.getStart(sf) || c.end > array.getEnd()) return -1;
    for (let i = 0; i < links.length; i++) {
      const end = links[i].getEnd();
      if (c.start < end) return i;
      const next = links[i + 1];
      const between = source.slice(end, c.start);
      if (!between.includes('\n') || !next) return i;
      if (c.start < next.getStart(sf)) return i + 1;
    }
    return links.length - 1;
  };
}

/** One v4 Relationship per link: the MultipleRelationship's own options, then the link's. */
function splitMultiple(ch: FileChanges, decl: Declaration, imports: ErgraphImports): void {
  const { sf, source } = ch;
  const opts = decl.opts as ts.ObjectLiteralExpression;
  const common = opts.properties.filter((p) => keyOf(p) !== 'links').map((p) => renamedProp(sf, p));
  const relationship = localFor('Relationship', imports);
  const lineStart = source.lastIndexOf('\n', decl.node.getStart(sf) - 1) + 1;
  const indent = /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? '';
  const parts = decl.links.map((plan) => {
    const own = plan.opts.properties
      .filter((p) => !['biz', 'defaultFieldName', 'name'].includes(keyOf(p) ?? ''))
      .map((p) => renamedProp(sf, p));
    return `new ${relationship}({ ${[...common, `name: ${quoted(plan.name!)}`, ...own].join(', ')} })`;
  });
  const copied = [...opts.properties.filter((p) => keyOf(p) !== 'links'), ...decl.links.flatMap((l) => [...l.opts.properties])]
    .map(valueOf)
    .filter((v): v is ts.Expression => v !== undefined)
    .map((v) => ({ start: v.getStart(sf), end: v.getEnd() }));
  const kept = commentsIn(source, decl.node.getStart(sf), decl.node.getEnd()).filter(
    (c) => !copied.some((r) => c.start >= r.start && c.end <= r.end),
  );
  // Comments between options have no place in the generated text: they go above it, in order,
  // each above the part it describes (a link's JSDoc above that link's relationship), the
  // MultipleRelationship's own ones above the first.
  const owner = commentOwners(source, decl.links.map((l) => l.link), sf, optionValue(opts, 'links'));
  const above = parts.map(() => [] as string[]);
  for (const c of kept) above[Math.max(0, owner(c))].push(reindented(source.slice(c.start, c.end), indent));
  const text = parts.map((part, i) => above[i].map((c) => `${c}\n${indent}`).join('') + part);
  ch.replace(decl.node, text.join(`,\n${indent}`));
  for (const plan of decl.links)
    if (plan.derived) ch.note(plan.link, `Relationship name '${plan.name}' derived from the Link (no defaultFieldName); check it`);
  ch.note(decl.node, `MultipleRelationship split into ${decl.links.length} Relationship entries`);
}

export function rewriteDeclarations(ch: FileChanges, decls: readonly Declaration[], imports: ErgraphImports): void {
  for (const decl of decls) {
    const staticKeys = decl.opts?.properties.map(keyOf) ?? [];
    const needsWork =
      decl.exportName === 'MultipleRelationship' ||
      staticKeys.some((k) => k !== undefined && OLD_KEYS.includes(k)) ||
      !staticKeys.includes('name');
    if (decl.unsafe) {
      if (needsWork) ch.manual(decl.node, `${decl.exportName}: ${decl.unsafe}`);
      continue;
    }
    if (decl.exportName === 'MultipleRelationship') {
      splitMultiple(ch, decl, imports);
      continue;
    }
    const opts = decl.opts as ts.ObjectLiteralExpression;
    renameKeys(ch, opts, OPTION_RENAMES);
    if (staticKeys.includes('name') || staticKeys.includes('defaultFieldName')) continue;
    if (!decl.derivedName) {
      ch.manual(decl.node, 'Relationship has no defaultFieldName and no name can be derived: add `name`');
      continue;
    }
    const anchor =
      findProp(opts, 'targetKls') ?? findProp(opts, 'target') ?? findProp(opts, 'field') ?? findProp(opts, 'fk');
    const after = anchor ?? opts.properties[opts.properties.length - 1];
    const text = `name: '${decl.derivedName}'`;
    if (after) insertPropertyAfter(ch, opts, after, text);
    else ch.replace(opts, `{ ${text} }`);
    ch.note(decl.node, `Relationship name '${decl.derivedName}' derived (v3 had no defaultFieldName); check it`);
  }
}
