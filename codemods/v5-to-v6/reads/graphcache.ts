/**
 * urql's Graphcache (`cacheExchange`/`offlineExchange` of `@urql/exchange-graphcache`) and the v6
 * groups. Graphcache keeps an object without an id embedded in its parent (`Query.User`) field by
 * field, so two queries of one group do not replace each other; but it warns that no key could be
 * generated for `UserQuery` and asks for `keys: { UserQuery: () => null }` when embedding is meant,
 * as it is for a group (checked against @urql/exchange-graphcache 9). The run adds those keys for
 * the group types its documents use. `resolvers` and `updates` the user wrote for a v5 root field
 * (`resolvers.Query.userById`, `updates.Mutation.taskRename`) move to the group type and method
 * (`resolvers.UserQuery.byId`, `updates.TaskMutation.rename`), where Graphcache calls them in v6:
 * an updater there gets the group object first, which holds the field under its alias as well
 * (checked: `{ taskRename: {…}, rename: {…} }`), so a body reading `result.taskRename` reads the same
 * as long as the documents keep their response keys (v5-to-v6's default). `optimistic` is called
 * for root fields only, and the v6 root field is the group: those entries are marked.
 */
import type { FileChanges } from '../../lib/changes.js';
import { keyOf } from '../../lib/ast.js';
import { ts } from '../../lib/parse.js';
import { addProperties, entryValue, hidesEntries, literalOf, placeEntries, rootEntries, type GroupField } from './config-literals.js';

const GRAPHCACHE = '@urql/exchange-graphcache';
const EXCHANGES = new Set(['cacheExchange', 'offlineExchange']);

export interface GraphcacheNeeds {
  /** The group types the run's documents use, queries' and mutations' (`UserQuery`, `TaskMutation`). */
  groups: readonly string[];
  query(field: string): GroupField | undefined;
  mutation(field: string): GroupField | undefined;
  /** The documents keep their v5 response keys as aliases (an updater's `result.taskRename` still reads). */
  keepsKeys: boolean;
}

/** Calls of Graphcache's exchanges in the file, by their imported names. */
function exchangeCalls(sf: ts.SourceFile): ts.CallExpression[] {
  const names = new Set<string>();
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier) || stmt.moduleSpecifier.text !== GRAPHCACHE) continue;
    const bindings = stmt.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (EXCHANGES.has((el.propertyName ?? el.name).text)) names.add(el.name.text);
  }
  const found: ts.CallExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && names.has(n.expression.text)) found.push(n);
    ts.forEachChild(n, visit);
  };
  if (names.size > 0) visit(sf);
  return found;
}

const keyText = (type: string) => `${type}: () => null`;

export function graphcaches(ch: FileChanges, needs: GraphcacheNeeds): void {
  if (!ch.sf.text.includes(GRAPHCACHE)) return;
  const keys = `{ ${needs.groups.map(keyText).join(', ')} }`;
  for (const call of exchangeCalls(ch.sf)) {
    const mark = (node: ts.Node, why: string) =>
      ch.manual(node, `Graphcache and the v6 groups: ${why}`);
    const keysMissing = (why: string) =>
      needs.groups.length > 0 && mark(call, `${why}: add \`keys: ${keys}\` (the v6 groups have no id; Graphcache embeds them in their parent, and warns unless their keys say so)`);
    if (call.arguments.length === 0) {
      if (needs.groups.length > 0) ch.insert(call.getEnd() - 1, `{ keys: ${keys} }`), ch.note(call, `Graphcache keys for the v6 groups: ${needs.groups.join(', ')}`);
      continue;
    }
    const options = literalOf(call.arguments[0]);
    if (!options) {
      keysMissing('its options are not written here');
      continue;
    }
    const given = entryValue(options, 'keys');
    const literal = given && literalOf(given.value);
    if (!given && needs.groups.length > 0) {
      if (hidesEntries(options)) keysMissing('its options have a spread or a computed key, which may hold `keys`');
      else if (addProperties(ch, options, [`keys: ${keys}`])) ch.note(options, `Graphcache keys for the v6 groups: ${needs.groups.join(', ')}`);
    } else if (given && !literal) keysMissing('its `keys` are not written here');
    else if (literal) {
      const missing = needs.groups.filter((g) => !entryValue(literal, g));
      if (missing.length > 0 && hidesEntries(literal)) keysMissing('its `keys` have a spread or a computed key');
      else if (addProperties(ch, literal, missing.map(keyText))) ch.note(literal, `Graphcache keys for the v6 groups: ${missing.join(', ')}`);
    }
    moveConfig(ch, options, 'resolvers', [['Query', needs.query]], mark);
    if (needs.keepsKeys) moveConfig(ch, options, 'updates', [['Query', needs.query], ['Mutation', needs.mutation]], mark);
    else markRootEntries(options, 'updates', needs, mark, 'with `--no-keep-response-keys` an updater moved to the group would read its field under the method name, not the v5 key');
    markRootEntries(options, 'optimistic', needs, mark, 'Graphcache calls `optimistic` for root fields only, and in v6 the root field is the group');
  }
}

/** `resolvers`/`updates`: the root types' entries for v5 root fields go to their group types. */
function moveConfig(ch: FileChanges, options: ts.ObjectLiteralExpression, key: string, roots: [root: 'Query' | 'Mutation', target: (field: string) => GroupField | undefined][], mark: (node: ts.Node, why: string) => void): void {
  const given = entryValue(options, key);
  if (!given) return;
  const byType = literalOf(given.value);
  const unseen = (node: ts.Node, why: string) => mark(node, `\`${key}\` may name v5 root fields, which v6 keeps in their groups, but ${why}: move them to the group types (\`Query.userById\` → \`UserQuery.byId\`)`);
  if (!byType) return unseen(given.prop, 'they are not written here');
  const taken = roots.map(([root, target]) => rootEntries(ch, byType, root, undefined, target, unseen));
  const entries = new Map<string, string[]>();
  for (const t of taken) for (const [type, list] of t.entries) entries.set(type, [...(entries.get(type) ?? []), ...list]);
  if (entries.size === 0) return;
  const place = placeEntries(ch, byType, { types: [...entries.keys()], entries: (type) => entries.get(type) ?? [], fresh: (type, list) => `${type}: { ${list.join(', ')} }` }, unseen);
  if (!place) return;
  for (const t of taken) t.remove();
  place();
  ch.note(byType, `Graphcache ${key} of v5 root fields moved to their groups: ${[...entries.keys()].join(', ')}`);
}

/** Entries naming a moved root field that cannot move: marked with the reason. */
function markRootEntries(options: ts.ObjectLiteralExpression, key: string, needs: GraphcacheNeeds, mark: (node: ts.Node, why: string) => void, why: string): void {
  const byType = literalOf(entryValue(options, key)?.value);
  if (!byType) return;
  // `optimistic` is keyed by the mutation field itself; `updates` by the root type, then the field.
  const lists: [ts.ObjectLiteralExpression | undefined, (f: string) => GroupField | undefined][] =
    key === 'optimistic' ? [[byType, needs.mutation]] : [[literalOf(entryValue(byType, 'Mutation')?.value), needs.mutation], [literalOf(entryValue(byType, 'Query')?.value), needs.query]];
  for (const [literal, target] of lists)
    for (const prop of literal?.properties ?? []) {
      const field = keyOf(prop);
      const to = field === undefined ? undefined : target(field);
      if (to) mark(prop, `\`${key}.${field}\` names a v5 root field, now \`${to.method}\` of \`${to.type}\`; ${why}`);
    }
}
