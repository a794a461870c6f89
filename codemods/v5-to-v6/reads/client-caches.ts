/**
 * What client caches need from a v5 → v6 run: the group types its documents use, and where each
 * v5 root field lives in v6, for Apollo's `InMemoryCache` (`type-policies.ts`) and urql's
 * Graphcache (`graphcache.ts`). Relay needs nothing: its store gives an object without an id a
 * client id under its parent (`client:root:User`) and keeps its fields there by name and
 * arguments, so queries of one group add to one record (checked against relay-runtime 21).
 */
import { getNamedType, type GraphQLSchema } from 'graphql';
import { knownOf } from '../../../compat/v6-form/choose.js';
import { keyOf } from '../../lib/ast.js';
import type { FileChanges } from '../../lib/changes.js';
import { ts } from '../../lib/parse.js';
import type { MovedField } from './cache.js';
import type { GroupField } from './config-literals.js';
import { graphcaches } from './graphcache.js';
import { apolloCaches } from './type-policies.js';

type Root = 'query' | 'mutation';

/** The v6 type of an entity's group under a root (`User` → `UserQuery`), in the first schema that has one. */
function groupType(schemas: readonly GraphQLSchema[], root: Root, entity: string): string | undefined {
  for (const schema of schemas) {
    const field = (root === 'query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[entity];
    if (field) return getNamedType(field.type).name;
  }
  return undefined;
}

/** Where a v5 root field lives in v6, when exactly one method of the schemas stands for it. */
function targetIn(schemas: readonly GraphQLSchema[], root: Root): (field: string) => GroupField | undefined {
  return (field) => {
    const targets = schemas.flatMap((s) => knownOf(s).index[root].get(field) ?? []);
    const only = targets.length === 1 ? targets[0]! : undefined;
    const type = only && groupType(schemas, root, only.entity);
    return type ? { type, method: only!.method } : undefined;
  };
}

/** The cache configurations of a file, given the run's moved root fields. */
export function clientCaches(ch: FileChanges, moved: readonly MovedField[], schemas: readonly GraphQLSchema[], keepsKeys: boolean): void {
  if (schemas.length === 0) return;
  const groups = (root: Root) => [...new Set(moved.filter((m) => (m.root ?? 'query') === root).flatMap((m) => groupType(schemas, root, m.entity) ?? []))].sort();
  const query = targetIn(schemas, 'query');
  apolloCaches(ch, { groups: groups('query'), query });
  markCacheFieldNames(ch, schemas);
  graphcaches(ch, { groups: [...groups('query'), ...groups('mutation')], query, mutation: targetIn(schemas, 'mutation'), keepsKeys });
}

/** Cache calls that name a field of an object: Apollo's `evict({ fieldName })`/`readField`, Graphcache's `invalidate`/`resolve`/`link`. */
const FIELD_CALLS = new Set(['evict', 'readField', 'invalidate', 'resolve', 'link', 'inspectFields']);

/**
 * A cache call naming a v5 root field by a string (`cache.evict({ fieldName: 'userGetAll' })`,
 * `cache.invalidate('Query', 'taskGetAll')`) finds nothing in v6: the field lives in its group
 * object, by its method's name. Marked with where it is now (the call's form depends on the cache).
 */
function markCacheFieldNames(ch: FileChanges, schemas: readonly GraphQLSchema[]): void {
  const text = ch.sf.text;
  if (schemas.length === 0 || !/@apollo\/client|@urql\/exchange-graphcache/.test(text) || !/\.(?:evict|readField|invalidate|resolve|link|inspectFields)\s*\(/.test(text)) return;
  const query = targetIn(schemas, 'query');
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteralLike(n) && named(n)) {
      const to = query(n.text);
      const group = to && schemas.flatMap((s) => knownOf(s).index.query.get(n.text) ?? [])[0]?.entity;
      if (to && group)
        ch.manual(
          n,
          `a cache call names the v5 root field \`${n.text}\`; the v6 cache keeps it as \`${to.method}\` (one key per argument list) inside the root's \`${group}\` object (type \`${to.type}\`, no id): ` +
            `Apollo \`ROOT_QUERY.${group}\`, reached with \`cache.modify({ fields: { ${group}: … } })\`; Graphcache the embedded entity \`Query.${group}\``,
        );
    }
    ts.forEachChild(n, visit);
  };
  visit(ch.sf);
}

/** Is the string an argument of a field-naming cache call, or its `fieldName` option? */
function named(literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  let call: ts.Node = literal.parent;
  if (ts.isPropertyAssignment(call) && call.initializer === literal && keyOf(call) === 'fieldName') call = call.parent.parent;
  else if (!ts.isCallExpression(call) || !call.arguments.includes(literal as ts.Expression)) return false;
  return ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && FIELD_CALLS.has(call.expression.name.text);
}
