/**
 * Federation configuration (section 9.5): `AutoQueryConfig({ batchKeys, batchPages })` becomes
 * `static __federation_keys__` / `static __pagination_orders__` on the entity classes, wherever
 * they are declared; `SubsetConfig({ federationJoinKey })` becomes `federationKey` only when the
 * entity has several keys; DTO-level orders move to the source entity.
 */
import { findProp, indentAt, newExpressionsOf, optionsArg, renameKey, stringValue, unsafeOptions, valueOf } from '../lib/ast.js';
import { notingOtherFiles } from '../lib/alone.js';
import { lineStartOf, type FileChanges } from '../lib/changes.js';
import { commentsIn, leadingComments, reindented } from '../lib/comments.js';
import { quoted } from '../lib/style.js';
import { localFor, type ErgraphImports } from '../lib/ergraph-imports.js';
import { removalRange } from '../lib/import-fixes.js';
import { slot } from '../lib/nodes.js';
import { SCRIPT_EXTENSIONS, ts } from '../lib/parse.js';
import type { Project } from '../lib/project.js';
import { scriptTransform } from '../script-steps.js';
import { meta } from './meta.js';
import { classRef } from '../v3-to-v4/relationships.js';
import { classes, scanFederation, staticMember, subsetSource, type FederationFact, type PortableText } from './facts.js';
import { planFederation, siteKey, type Plan } from './plan.js';

/** The moved text with ergraph names as the destination imports them; records the exports it uses. */
function render(text: PortableText, imports: ErgraphImports, used: Set<string>, indent: string): string {
  let out = text.text;
  // Names resolved in reading order (new imports then appear in that order), replaced from the end.
  const refs = [...text.refs].sort((a, b) => a.start - b.start).map((ref) => ({ ...ref, local: localFor(ref.exportName, imports) }));
  for (const ref of refs.reverse()) {
    used.add(ref.exportName);
    out = out.slice(0, ref.start) + ref.local + out.slice(ref.end);
  }
  // Continuation lines follow the destination's indentation (template literals keep theirs).
  if (out.includes('`')) return out;
  return out
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(text.indent) ? indent + line.slice(text.indent.length) : line))
    .join('\n');
}

/** Removes a class member or an object property together with its line when it has one. */
function removeWhole(ch: FileChanges, list: readonly ts.Node[], node: ts.Node): void {
  ch.replace(removalRange(ch.source, list, list.indexOf(node), ch.sf), '');
}

function removeOldAutoQuery(ch: FileChanges, plan: Plan, imports: ErgraphImports): void {
  for (const { node } of newExpressionsOf(ch.sf, imports, ['AutoQueryConfig'])) {
    const opts = optionsArg(node);
    if (!opts) continue;
    const problem = plan.problems.get(siteKey(ch.sf.fileName, node.getStart(ch.sf)));
    const old = ['batchKeys', 'batchPages'].map((k) => findProp(opts, k)).filter((p) => p !== undefined);
    if (problem) {
      ch.manual(node, `${problem} (move batchKeys/batchPages to __federation_keys__/__pagination_orders__ on the entity)`);
      continue;
    }
    if (old.length === 0 || unsafeOptions(opts)) continue;
    // Comments that moved with an entry go; any other in the removed text stays where it was.
    const kept = (start: number, end: number) => commentsIn(ch.source, start, end).map((c) => ch.source.slice(c.start, c.end)).filter((c) => !plan.carried.has(c));
    if (old.length === opts.properties.length) {
      const left = kept(opts.getStart(ch.sf) + 1, opts.getEnd() - 1);
      const indent = indentAt(ch.source, opts.getStart(ch.sf));
      ch.replace(opts, left.length === 0 ? '{}' : `{\n${left.map((c) => `${indent}  ${reindented(c, `${indent}  `)}\n`).join('')}${indent}}`);
    } else
      for (const prop of old) {
        const range = removalRange(ch.source, opts.properties, opts.properties.indexOf(prop), ch.sf);
        const left = kept(range.start, range.end);
        const indent = indentAt(ch.source, prop.getStart(ch.sf));
        const atLineStart = lineStartOf(ch.source, range.start) === range.start;
        ch.replace(range, atLineStart ? left.map((c) => `${indent}${reindented(c, indent)}\n`).join('') : '');
      }
    ch.note(node, 'batchKeys/batchPages moved to the entity classes');
  }
}

function insertStatics(ch: FileChanges, plan: Plan, imports: ErgraphImports, used: Set<string>, project: Project): void {
  const { sf, source } = ch;
  for (const cls of classes(sf)) {
    const entity = plan.entities.get(cls.name!.text);
    if (!entity || entity.file !== sf.fileName || subsetSource(cls, imports, project)) continue;
    const lines: string[] = [];
    const first = cls.members[0];
    const classIndent = indentAt(source, cls.getStart(sf));
    const indent = first ? indentAt(source, first.getStart(sf)) : `${classIndent}  `;
    const names: string[] = [];
    // The comments of the entry or DTO static they come from go above them.
    const comments = (list: readonly string[] | undefined) => (list ?? []).map((c) => reindented(c, indent));
    if (entity.addKeys && !staticMember(cls, '__federation_keys__')) {
      lines.push(...comments(entity.addKeyComments), `static __federation_keys__ = [${entity.addKeys.map(quoted).join(', ')}];`);
      names.push('__federation_keys__');
    }
    if (entity.addOrders && !staticMember(cls, '__pagination_orders__')) {
      lines.push(...comments(entity.addOrders.comments), `static __pagination_orders__ = ${render(entity.addOrders, imports, used, indent)};`);
      names.push('__pagination_orders__');
    }
    if (lines.length === 0) continue;
    const statics = cls.members.filter((m) => ts.isPropertyDeclaration(m) && m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword));
    const anchor = statics[statics.length - 1];
    if (anchor) ch.insert(anchor.getEnd(), lines.map((l) => `\n${indent}${l}`).join(''));
    else if (first) ch.insert(first.getStart(sf), lines.map((l) => `${l}\n${indent}`).join(''));
    else {
      const open = source.indexOf('{', cls.members.pos - 1);
      const close = cls.getEnd() - 1;
      ch.replace({ start: open, end: close + 1 }, `{\n${lines.map((l) => `${indent}${l}\n`).join('')}${classIndent}}`);
    }
    ch.note(cls, `${cls.name!.text}: ${names.join(', ')} added from the old federation configuration`);
  }
}

function rewriteDtoOrders(ch: FileChanges, plan: Plan, imports: ErgraphImports, project: Project): void {
  for (const cls of classes(ch.sf)) {
    const member = subsetSource(cls, imports, project) ? staticMember(cls, '__pagination_orders__') : undefined;
    if (!member) continue;
    const problem = plan.problems.get(siteKey(ch.sf.fileName, member.getStart(ch.sf)));
    if (problem) ch.manual(member, problem);
    else {
      removeWhole(ch, cls.members, member);
      // Its JSDoc moved to the entity with it (when the entity took these orders from here).
      const above = leadingComments(member, ch.sf);
      const first = above[0];
      if (first && above.every((c) => plan.carried.has(ch.source.slice(c.start, c.end))) && /^[ \t]*$/.test(ch.source.slice(lineStartOf(ch.source, first.start), first.start)))
        ch.replace({ start: lineStartOf(ch.source, first.start), end: lineStartOf(ch.source, member.getStart(ch.sf)) }, '');
      ch.note(member, `__pagination_orders__ of ${cls.name!.text} is read from its source entity now`);
    }
  }
}

function rewriteJoinKeys(ch: FileChanges, plan: Plan, imports: ErgraphImports, project: Project): void {
  for (const { node } of newExpressionsOf(ch.sf, imports, ['SubsetConfig'])) {
    const opts = optionsArg(node);
    const joinKey = opts && findProp(opts, 'federationJoinKey');
    if (!opts || !joinKey) continue;
    const unsafe = unsafeOptions(opts);
    const kls = findProp(opts, 'kls');
    const klsValue = kls && valueOf(kls);
    const entityName = klsValue && classRef(klsValue, project)?.name;
    const keys = entityName ? plan.entities.get(entityName)?.keys : undefined;
    const key = stringValue(valueOf(joinKey));
    if (unsafe || !keys || key === undefined || !keys.includes(key)) {
      const why = unsafe ?? (!keys ? 'the federation keys of its entity are unknown' : `'${key ?? '?'}' is not one of the keys [${keys.join(', ')}]`);
      ch.manual(joinKey, `federationJoinKey: ${why}; use federationKey only when the entity has several keys`);
    } else if (keys.length > 1) renameKey(ch, joinKey, 'federationKey');
    else {
      removeWhole(ch, opts.properties, joinKey);
      ch.note(joinKey, `federationJoinKey '${key}' dropped: the entity's single federation key is derived`);
    }
  }
}

/** Order names a file's moved orders use: their imports stay although the old uses went. */
const usedBy = slot<ts.SourceFile, Set<string>>('ergraph.federation-config.used');
const ORDER_NAMES = ['BatchPageConfig', 'PageOrder', 'OrderTerm'];

const CLASS = /\bclass\b/;
// The two word tests below are `includes`, not one regular expression of both words: asked of
// every file of a run, V8 searched a two-word alternation at about half the speed (2,121 files
// of real code: 24 and 20 ms a run as patterns, 16 and 11 ms as `includes`).
/** What this step edits wherever it stands, class or not. */
const ownWork = (source: string) => source.includes('AutoQueryConfig') || source.includes('federationJoinKey');
/** Where facts move keys or orders to entity classes in other files: `AutoQueryConfig` and DTO orders. */
const movesToClasses = (source: string) => source.includes('AutoQueryConfig') || source.includes('__pagination_orders__');
/**
 * What this step edits in a file with a class when nothing moves to classes (so no text has DTO
 * orders): unused order names (dropped), and a name imported from a wrong entry point
 * (`relocate`): wrong means an `ergraph/...` subpath, as every name it moves but AutoQueryConfig
 * is exported from the root.
 */
const CLASS_EDITS = new RegExp(`${ORDER_NAMES.join('|')}|ergraph/`);
const wantsAnywhere = (source: string) => CLASS.test(source) || ownWork(source);

const transform = scriptTransform<FederationFact>(
  {
    ...meta,
    extensions: SCRIPT_EXTENSIONS,
  },
  {
    // Any class may be an entity another file's AutoQueryConfig or DTO orders move keys to.
    wants: wantsAnywhere,
    // Within a run that has neither, a class takes nothing: only a class file whose own text this
    // step edits stays wanted (the order names it imports, or an import from a wrong entry point,
    // which the import pass moves). 308 of 2,121 files of real code were parsed with
    // parent links and held only for their classes.
    wantsInRun(texts) {
      for (const text of texts) if (movesToClasses(text)) return wantsAnywhere;
      return (source) => ownWork(source) || (CLASS.test(source) && CLASS_EDITS.test(source));
    },
    scan: ({ sf, imports, project }) => scanFederation(sf, imports, project),
    apply({ sf, imports, project }, { facts, options, changes }) {
      // The entity classes a config names may be declared in files a lone run does not see.
      const ch = notingOtherFiles(changes, options.alone, 'federation-config', /not found among the migrated files|keys of its entity are unknown/);
      const plan = planFederation(facts.length > 0 ? facts : scanFederation(sf, imports, project));
      removeOldAutoQuery(ch, plan, imports);
      const used = new Set<string>();
      usedBy.set(sf, used);
      insertStatics(ch, plan, imports, used, project);
      rewriteDtoOrders(ch, plan, imports, project);
      rewriteJoinKeys(ch, plan, imports, project);
    },
    // v6 exports AutoQueryConfig from 'ergraph/orm' only: imports of it (and of any name from a
    // wrong entry point) move there.
    imports: ({ sf }) => ({ drop: ORDER_NAMES.filter((n) => !usedBy.get(sf)?.has(n)), relocate: true }),
  },
);

export default transform;
