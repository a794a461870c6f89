/**
 * `LoadBy('<fk>', { biz, originKls })` → `AutoLoad()` when the field is named like the
 * relationship, else `AutoLoad({ origin: '<relationship name>' })`. The name comes from the
 * relationship facts of every scanned file, since entities usually live elsewhere.
 */
import { callsOf, findProp, keyOf, optionsArg, stringValue, valueOf } from '../lib/ast.js';
import type { FileChanges } from '../lib/changes.js';
import { ergraphExportOf, localFor, type ErgraphImports } from '../lib/ergraph-imports.js';
import { ts } from '../lib/parse.js';
import { EMPTY_PROJECT, type Project } from '../lib/project.js';
import { classRef, type RelationshipFact } from './relationships.js';

/** The model field a `LoadBy` annotates: the property whose value is `Annotated(T, LoadBy(...))`. */
function fieldNameOf(call: ts.CallExpression): string | undefined {
  const annotated = call.parent;
  if (!annotated || !ts.isCallExpression(annotated)) return undefined;
  const holder = annotated.parent;
  if ((ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) && holder.initializer === annotated) {
    return ts.isIdentifier(holder.name) || ts.isStringLiteral(holder.name) ? holder.name.text : undefined;
  }
  return undefined;
}

/** The entity a subset shape belongs to: `DefineSubset(Task, [...], { ... })` or its SubsetConfig `kls`. */
function subsetSourceOf(call: ts.CallExpression, imports: ErgraphImports, project: Project): Owner | undefined {
  for (let p: ts.Node | undefined = call.parent; p; p = p.parent) {
    if (!ts.isCallExpression(p) || ergraphExportOf(p.expression, imports) !== 'DefineSubset') continue;
    const [first] = p.arguments;
    if (first && ts.isNewExpression(first)) {
      const opts = optionsArg(first);
      const kls = opts && findProp(opts, 'kls');
      const value = kls && valueOf(kls);
      return value ? classRef(value, project) : undefined;
    }
    return first ? classRef(first, project) : undefined;
  }
  return undefined;
}

type Owner = { name: string; file?: string };

/** Facts by foreign key and by owner + foreign key, built once per facts array (a run shares one). */
interface FactIndex {
  byFk: Map<string, RelationshipFact[]>;
  byOwnerFk: Map<string, RelationshipFact[]>;
}
const indexes = new WeakMap<readonly RelationshipFact[], FactIndex>();

function push(map: Map<string, RelationshipFact[]>, key: string, fact: RelationshipFact): void {
  const list = map.get(key);
  if (list) list.push(fact);
  else map.set(key, [fact]);
}

function indexOf(facts: readonly RelationshipFact[]): FactIndex {
  let index = indexes.get(facts);
  if (!index) {
    index = { byFk: new Map(), byOwnerFk: new Map() };
    for (const f of facts) {
      if (f.fk === undefined) continue;
      push(index.byFk, f.fk, f);
      if (f.owner) push(index.byOwnerFk, `${f.owner}\0${f.fk}`, f);
    }
    indexes.set(facts, index);
  }
  return index;
}

function resolveName(
  facts: readonly RelationshipFact[],
  fk: string,
  biz: string | undefined,
  owner: Owner | undefined,
): string | string[] {
  const index = indexOf(facts);
  const matches = (list: RelationshipFact[] | undefined) => (list ?? []).filter((f) => biz === undefined || f.biz === biz);
  // The owner's own relationships win (the same class, when both files are known); without any,
  // every relationship with that key competes.
  const sameClass = (f: RelationshipFact) => !owner?.file || !f.ownerFile || f.ownerFile === owner.file;
  const own = owner ? matches(index.byOwnerFk.get(`${owner.name}\0${fk}`)).filter(sameClass) : [];
  const candidates = own.length > 0 ? own : matches(index.byFk.get(fk));
  const names = [...new Set(candidates.map((f) => f.name).filter((n): n is string => n !== undefined))];
  return names.length === 1 && candidates.every((f) => f.name !== undefined) ? names[0] : names;
}

export function rewriteLoadBy(
  ch: FileChanges,
  imports: ErgraphImports,
  facts: readonly RelationshipFact[],
  project: Project = EMPTY_PROJECT,
): void {
  for (const { node } of callsOf(ch.sf, imports, ['LoadBy'])) {
    const [fkArg, optsArg, ...rest] = node.arguments;
    const fk = stringValue(fkArg);
    if (!fk || rest.length > 0) {
      ch.manual(node, 'LoadBy with a non-literal foreign key: replace with AutoLoad');
      continue;
    }
    let biz: string | undefined;
    let origin: Owner | undefined;
    if (optsArg) {
      if (!ts.isObjectLiteralExpression(optsArg) || optsArg.properties.some((p) => !['biz', 'originKls'].includes(keyOf(p) ?? ''))) {
        ch.manual(node, 'LoadBy options cannot be read statically: replace with AutoLoad');
        continue;
      }
      const bizProp = findProp(optsArg, 'biz');
      biz = bizProp && stringValue(valueOf(bizProp));
      if (bizProp && biz === undefined) {
        ch.manual(node, 'LoadBy biz is not a string literal: replace with AutoLoad');
        continue;
      }
      const originProp = findProp(optsArg, 'originKls');
      const originValue = originProp && valueOf(originProp);
      origin = originValue ? classRef(originValue, project) : undefined;
    }
    const owner = origin ?? subsetSourceOf(node, imports, project);
    const name = resolveName(facts, fk, biz, owner);
    if (typeof name !== 'string') {
      const why = name.length === 0 ? 'no relationship found' : `ambiguous relationships ${name.join(', ')}`;
      ch.manual(node, `LoadBy('${fk}'): ${why}; replace with AutoLoad({ origin: '<relationship name>' })`);
      continue;
    }
    const autoLoad = localFor('AutoLoad', imports);
    const field = fieldNameOf(node);
    ch.replace(node, field === name ? `${autoLoad}()` : `${autoLoad}({ origin: '${name}' })`);
  }
}
