/**
 * Apollo's `InMemoryCache` and the v6 groups. In v6 every query of one entity writes the one
 * `ROOT_QUERY.User` object, whose type (`UserQuery`) has no id: with the default cache each write
 * replaces the group object the last one left, so `readQuery` of the first of two queries on
 * `User` returns null after the second (checked against @apollo/client 4.3). A type policy
 * `UserQuery: { merge: true }` merges them, as for any object without an id. So each
 * `new InMemoryCache(…)` of the run gets one for every group type the run's documents query,
 * next to the user's own policies; and a field policy the user keeps for a v5 root field
 * (`Query: { fields: { userGetAll: offsetLimitPagination() } }`, the usual load-more setup) moves
 * to the group type's field (`UserQuery: { merge: true, fields: { getAll: … } }`), where Apollo now
 * looks for it. Mutation groups need nothing: Apollo 4 keeps no fields of `ROOT_MUTATION`.
 */
import type { FileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import { addProperties, entryValue, hidesEntries, literalOf, placeEntries, rootEntries, type GroupField } from './config-literals.js';

const APOLLO = /^@apollo\/client(\/|$)/;

/** `new InMemoryCache(…)` of the file: the class imported from Apollo Client, by name or through a namespace. */
function constructions(sf: ts.SourceFile): ts.NewExpression[] {
  const names = new Set<string>();
  const namespaces = new Set<string>();
  for (const stmt of sf.statements) {
    if (!ts.isImportDeclaration(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier) || !APOLLO.test(stmt.moduleSpecifier.text)) continue;
    const bindings = stmt.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    else if (bindings) for (const el of bindings.elements) if ((el.propertyName ?? el.name).text === 'InMemoryCache') names.add(el.name.text);
  }
  const found: ts.NewExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isNewExpression(n)) {
      const e = n.expression;
      if ((ts.isIdentifier(e) && names.has(e.text)) || (ts.isPropertyAccessExpression(e) && e.name.text === 'InMemoryCache' && ts.isIdentifier(e.expression) && namespaces.has(e.expression.text))) found.push(n);
    }
    ts.forEachChild(n, visit);
  };
  if (names.size > 0 || namespaces.size > 0) visit(sf);
  return found;
}

const policyText = (type: string, fields: readonly string[]) => `${type}: { merge: true${fields.length > 0 ? `, fields: { ${fields.join(', ')} }` : ''} }`;

export interface ApolloCacheNeeds {
  /** The group types the run's documents query (`UserQuery`). */
  groups: readonly string[];
  /** Where a v5 root query field lives in v6 (`userGetAll` → `UserQuery.getAll`). */
  query(field: string): GroupField | undefined;
}

/**
 * The v6 policies written into one `typePolicies` literal: every place is checked before the first
 * edit, so a policy the pass cannot place is marked and nothing of the user's is moved.
 */
function writePolicies(ch: FileChanges, policies: ts.ObjectLiteralExpression, needs: ApolloCacheNeeds, unseen: (node: ts.Node, why: string) => void): void {
  const taken = rootEntries(ch, policies, 'Query', 'fields', needs.query, unseen);
  const types = [...new Set([...needs.groups, ...taken.entries.keys()])];
  const place = placeEntries(ch, policies, {
    types,
    entries: (type) => taken.entries.get(type) ?? [],
    nested: 'fields',
    extra: (policy) => (entryValue(policy, 'merge') ? [] : ['merge: true']),
    fresh: policyText,
  }, unseen);
  if (!place) return;
  taken.remove();
  if (place()) ch.note(policies, `type policies for the v6 groups: ${types.join(', ')} (merge: true${taken.entries.size > 0 ? '; field policies of v5 root fields moved to their group' : ''})`);
}

/** The cache's options, with the v6 type policies; what the pass cannot reach is marked with the policies to add. */
export function apolloCaches(ch: FileChanges, needs: ApolloCacheNeeds): void {
  if (!/\bInMemoryCache\b/.test(ch.sf.text)) return;
  const policies = `{ ${needs.groups.map((g) => policyText(g, [])).join(', ')} }`;
  for (const construction of constructions(ch.sf)) {
    // A run that queries no group gives no reason to mark what the pass cannot read.
    const mark = (node: ts.Node, why: string) =>
      needs.groups.length > 0 &&
      ch.manual(
        node,
        `the v6 groups have no id, so each query of a group replaces the others' fields in Apollo's cache unless its type merges; ${why}: ` +
          `add \`typePolicies: ${policies}\` to this cache's options (and move field policies of v5 root fields under \`Query\` to their group's type)`,
      );
    const args = construction.arguments;
    const fresh = `{ typePolicies: ${policies} }`;
    if (!args || args.length === 0) {
      if (needs.groups.length === 0) continue;
      // `new InMemoryCache()`, or `new InMemoryCache` without its parentheses.
      if (args) ch.insert(construction.getEnd() - 1, fresh);
      else ch.insert(construction.getEnd(), `(${fresh})`);
      ch.note(construction, `type policies for the v6 groups: ${needs.groups.join(', ')} (merge: true)`);
      continue;
    }
    const options = literalOf(args[0]);
    if (!options) {
      mark(construction, 'its options are not written here');
      continue;
    }
    const given = entryValue(options, 'typePolicies');
    if (!given) {
      if (needs.groups.length === 0) continue;
      if (hidesEntries(options)) mark(construction, 'its options have a spread or a computed key, which may hold `typePolicies`');
      else {
        addProperties(ch, options, [`typePolicies: ${policies}`]);
        ch.note(options, `type policies for the v6 groups: ${needs.groups.join(', ')} (merge: true)`);
      }
      continue;
    }
    const literal = literalOf(given.value);
    if (!literal) mark(construction, 'its `typePolicies` are not written here');
    else writePolicies(ch, literal, needs, (node, why) => mark(node === literal ? construction : node, why));
  }
}
