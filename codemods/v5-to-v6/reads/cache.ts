/**
 * Apollo's `cache.modify({ fields: { userGetAll(existing) { … } } })` names a v5 root field. In
 * v6 the root holds the group object inline under `User` (its type, `UserQuery`, has no id, so
 * `cache.modify({ id })` cannot target it), with the field stored by its name and arguments —
 * `getAll`, `getAll({"limit":2})` — never by the alias the documents read it under. (Checked
 * against `InMemoryCache` of @apollo/client 4.3: `extract().ROOT_QUERY.User` is
 * `{ __typename: 'UserQuery', getAll: [...] }`, and `cache.identify({ __typename: 'UserQuery' })`
 * is undefined.)
 *
 * A v5 modifier is called once per stored key of its field, with `details` (`DELETE`,
 * `INVALIDATE`, `readField`, `storeFieldName`) of that key. One that takes only the value is
 * rewritten to a modifier of the group that applies it to each key of the field and returns the
 * group unchanged (the same object) when it changes nothing, as Apollo would: that is the same
 * operation on the same values. One that reads `details` (or `this`, `arguments`) would need those
 * emulated for a field inside an object, so it stays marked, with the v6 code spelled out.
 */
import { getNamedType, isObjectType } from 'graphql';
import type { FileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import type { MovedPath } from '../../../compat/v6-form/document.js';
import { keyText } from './patterns.js';
import type { Reads } from './types.js';
import { quoteOf } from './writes.js';

interface Modify {
  options: ts.ObjectLiteralExpression;
  fields: ts.ObjectLiteralExpression;
}

const modifies = new WeakMap<ts.SourceFile, Modify[]>();
/** Every `x.modify({ fields: { … } })` of a file, found in one walk. */
function modifiesOf(sf: ts.SourceFile): Modify[] {
  let found = modifies.get(sf);
  if (found) return found;
  modifies.set(sf, (found = []));
  const list = found;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'modify') {
      const options = n.arguments[0];
      const fields = options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => keyText(p.name) === 'fields') : undefined;
      const literal = fields && ts.isPropertyAssignment(fields) ? fields.initializer : undefined;
      if (options && ts.isObjectLiteralExpression(options) && literal && ts.isObjectLiteralExpression(literal)) list.push({ options, fields: literal });
    }
    ts.forEachChild(n, visit);
  };
  if (sf.text.includes('modify')) visit(sf);
  return list;
}

/** A key written out (`userGetAll`, `'userGetAll'`, `['userGetAll']`); `[name]` is a variable's value, not the name. */
function literalKey(name: ts.Node | undefined): string | undefined {
  if (name && ts.isComputedPropertyName(name)) {
    const e = name.expression;
    return ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isNumericLiteral(e) ? e.text : undefined;
  }
  return keyText(name);
}

/** The modifier function written at a field entry, if it is one. */
function modifierOf(field: ts.ObjectLiteralElementLike): ts.FunctionLikeDeclaration | undefined {
  if (ts.isMethodDeclaration(field)) return field;
  if (!ts.isPropertyAssignment(field)) return undefined;
  let init = field.initializer;
  while (ts.isParenthesizedExpression(init)) init = init.expression;
  return ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? init : undefined;
}

/** Does the function read what a modifier of a field inside an object would not get the same? */
function readsContext(fn: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (n.kind === ts.SyntaxKind.ThisKeyword || (ts.isIdentifier(n) && n.text === 'arguments')) found = true;
    // A nested function has its own `this` and `arguments` (an arrow does not).
    else if (!(ts.isFunctionExpression(n) || ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) || n === fn) ts.forEachChild(n, visit);
  };
  visit(fn);
  return found;
}

/** Why the entry cannot be rewritten, or undefined when it can. */
function blocker(r: Reads, { options, fields }: Modify, field: ts.ObjectLiteralElementLike, entity: string, method: string): string | undefined {
  if (options.properties.some((p) => ts.isSpreadAssignment(p) || keyText(p.name) === 'id')) return 'it names an `id` (or spreads its options), so it may not be the root';
  const group = r.schema?.getQueryType()?.getFields()[entity];
  const type = group && getNamedType(group.type);
  if (!type || !isObjectType(type) || !type.getFields()[method]) return `\`${entity}.${method}\` is not a query field of the v6 schema`;
  const clash = fields.properties.some((p) => p !== field && (ts.isSpreadAssignment(p) || keyText(p.name) === entity || (keyText(p.name) !== undefined && r.moves.get(keyText(p.name)!)?.[0] === entity)));
  if (clash) return `another field of this call is \`${entity}\` or moves into it`;
  const fn = modifierOf(field);
  if (!fn) return 'its modifier is not written here';
  if (fn.parameters.length > 1 || fn.parameters.some((p) => p.dotDotDotToken) || fn.typeParameters || fn.asteriskToken || fn.modifiers?.length || readsContext(fn))
    return 'its modifier reads `details` (`DELETE`, `readField`…), `this` or `arguments`, which a field inside an object gets differently';
  return undefined;
}

/** The modifier as an expression: a method `f(x) { … }` becomes `(x) => { … }` (it reads no `this`). */
function modifierText(r: Reads, fn: ts.FunctionLikeDeclaration): string {
  if (!ts.isMethodDeclaration(fn)) return fn.getText(r.sf);
  const params = r.sf.text.slice(fn.parameters.pos, fn.parameters.end);
  const returns = fn.type ? `: ${fn.type.getText(r.sf)}` : '';
  return `(${params})${returns} => ${fn.body!.getText(r.sf)}`;
}

/** Each field entry once per file, though several documents of the file move its field. */
const handled = new WeakSet<ts.Node>();

export function cacheFields(r: Reads, moves: readonly MovedPath[]): void {
  const typed = /\.[cm]?tsx?$/.test(r.sf.fileName);
  for (const modify of modifiesOf(r.sf)) {
    for (const field of modify.fields.properties) {
      const key = literalKey(field.name);
      const move = key === undefined ? undefined : moves.find((m) => m.target.flatName === key);
      if (!move || handled.has(field)) continue;
      handled.add(field);
      const { entity, method } = move.target;
      const why = blocker(r, modify, field, entity, method);
      if (why) {
        r.todo(
          field,
          `\`cache.modify\` names the v5 root field \`${key}\`; the v6 cache keeps it as \`${method}\` (one key per argument list, \`${method}({…})\`) inside the root's \`${entity}\` object, ` +
            `which has no id for \`cache.modify({ id })\`: write \`${entity}: (group) => …\` returning \`group\` with the modifier applied to each of those keys (${why})`,
        );
        continue;
      }
      const q = quoteOf(r.sf);
      const group = typed ? '(group: any)' : '(group)';
      r.ch.replace(
        field,
        `${entity}: ${group} => { const modify = ${modifierText(r, modifierOf(field)!)}; let next = group; ` +
          `for (const key of Object.keys(group ?? {})) if (key === ${q}${method}${q} || key.startsWith(${q}${method}(${q})) { const value = modify(group[key]); if (value !== group[key]) next = { ...next, [key]: value }; } ` +
          'return next; }',
      );
      r.ch.note(field, `cache.modify: ${key} → ${entity}.${method} (the group object under the root)`);
    }
  }
}

/** A v5 root field a run moved, and where the v6 cache keeps it. */
export interface MovedField {
  from: string;
  entity: string;
  method: string;
  /** A mutation's (Graphcache keys its groups too); a query's when absent. */
  root?: 'mutation';
}

/** Fields of a `cache.modify` named by a variable: the node to mark and how it names them. */
interface Unseen {
  node: ts.Node;
  how: string;
}

const short = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);

/**
 * `x.modify({ fields: … })` whose field names the file does not spell: a computed key
 * (`[name]: fn`), a spread (`...mods`), or `fields: mods`. A call with an `id` other than
 * `'ROOT_QUERY'` modifies an entity, not the root, and is left out.
 */
function unseenFieldsOf(sf: ts.SourceFile): Unseen[] {
  const found: Unseen[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'modify') {
      const options = n.arguments[0];
      const fields = options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => keyText(p.name) === 'fields') : undefined;
      const id = options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => keyText(p.name) === 'id') : undefined;
      const root = !id || (ts.isPropertyAssignment(id) && ts.isStringLiteralLike(id.initializer) && id.initializer.text === 'ROOT_QUERY');
      if (fields && root) {
        if (ts.isShorthandPropertyAssignment(fields)) found.push({ node: fields, how: `a variable (\`fields: ${fields.name.text}\`)` });
        else if (ts.isPropertyAssignment(fields)) {
          let value = fields.initializer;
          while (ts.isParenthesizedExpression(value) || ts.isAsExpression(value) || ts.isSatisfiesExpression(value)) value = value.expression;
          if (!ts.isObjectLiteralExpression(value)) found.push({ node: fields, how: `a variable (\`fields: ${short(value.getText(sf))}\`)` });
          else
            for (const p of value.properties) {
              if (ts.isSpreadAssignment(p)) found.push({ node: p, how: `a spread (\`...${short(p.expression.getText(sf))}\`)` });
              else if (p.name && ts.isComputedPropertyName(p.name) && literalKey(p.name) === undefined)
                found.push({ node: p, how: `a computed key (\`${short(p.name.getText(sf))}\`)` });
            }
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** How many moved fields a marker names before it counts the rest. */
const NAMED = 6;

/**
 * Marks the `cache.modify` calls whose fields are named by a variable when root fields moved
 * (`moved`: the file's documents, else the run's): the pass cannot tell whether they name one, so
 * the user checks, with the v6 shape spelled out as for a field written out.
 */
export function markUnseenCacheFields(ch: FileChanges, moved: readonly MovedField[]): void {
  if (moved.length === 0 || !/\.modify\s*\(/.test(ch.sf.text)) return;
  // `cache.modify` names the root query's fields.
  moved = moved.filter((m) => !m.root);
  if (moved.length === 0) return;
  const unseen = unseenFieldsOf(ch.sf);
  if (unseen.length === 0) return;
  const byName = new Map<string, MovedField>();
  for (const m of moved) if (!byName.has(m.from)) byName.set(m.from, m);
  const all = [...byName.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const named = all.slice(0, NAMED).map((m) => `\`${m.from}\` → \`${m.entity}.${m.method}\``);
  const rest = all.length > NAMED ? ` and ${all.length - NAMED} more (the report's notes list them)` : '';
  const { entity, method } = all[0]!;
  for (const { node, how } of unseen)
    ch.manual(
      node,
      `\`cache.modify\` names fields by ${how}, which the migration cannot read; if one is a v5 root field that moved (${named.join(', ')}${rest}), ` +
        `the v6 cache keeps it as its method (one key per argument list, \`${method}({…})\`) inside the root's group object (\`${entity}\`), which has no id for \`cache.modify({ id })\`: ` +
        `write \`${entity}: (group) => …\` returning \`group\` with the modifier applied to each of those keys`,
    );
}
