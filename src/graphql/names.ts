/**
 * Names the v6 schema is built from. They are wire names (clients and the v5 → v6 codemod
 * depend on them), so they live in one place.
 */
export type GroupSuffix = 'Query' | 'Mutation';

/** The group type holding an entity's operations: `groupTypeName('User', 'Query')` → `UserQuery`. */
export function groupTypeName(entityName: string, suffix: GroupSuffix): string {
  return `${entityName}${suffix}`;
}

/** The paginated wrapper of a one-to-many field's target: `UserResult`. */
export function resultTypeName(entityName: string): string {
  return `${entityName}Result`;
}

export const PAGINATION_TYPE = 'Pagination';
export const DATETIME_TYPE = 'DateTime';

/** Root type names: an entity (or any model) with one of these names would shadow a root. */
export const ROOT_TYPE_NAMES: ReadonlySet<string> = new Set(['Query', 'Mutation', 'Subscription']);

export const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
