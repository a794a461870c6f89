/**
 * `schemaDiff(old, new)`: what changed between two schemas, each change classified breaking,
 * dangerous or safe by GraphQL Inspector (`@graphql-inspector/core`, loaded on first use).
 *
 * With `unused`, a breaking change on a field coordinate known to be unused is downgraded to
 * dangerous, through Inspector's own `considerUsage` rule. `unused` answers only for coordinates
 * whose use is actually measured (the compat usage store's tracked fields): a coordinate nobody
 * measures is never called unused, so its breaking changes stay breaking.
 */
import { createRequire } from 'node:module';
import { printSchema, type GraphQLSchema } from 'graphql';
import { loadSchema, type LoadSchemaOptions } from './load.js';

export type ChangeLevel = 'breaking' | 'dangerous' | 'safe';

export interface SchemaChange {
  level: ChangeLevel;
  /** Inspector's change type, e.g. `FIELD_REMOVED`. */
  type: string;
  message: string;
  /** The schema coordinate changed, e.g. `Query.userGetAll` or `Query.userById.id`. */
  path: string | null;
  /** Why it is breaking or dangerous, when Inspector says. */
  reason: string | null;
  /** Downgraded from breaking because the coordinate was not used. */
  safeBasedOnUsage: boolean;
}

export interface SchemaDiffResult {
  changes: SchemaChange[];
  breaking: number;
  dangerous: number;
  safe: number;
}

export interface SchemaDiffOptions extends LoadSchemaOptions {
  /**
   * Given field coordinates (`Type.field`) touched by breaking changes, say for each whether it
   * is known to be unused (true) — then the change is downgraded to dangerous.
   */
  unused?: (coordinates: readonly string[]) => Promise<readonly boolean[]>;
}

const LEVEL: Record<string, ChangeLevel> = { BREAKING: 'breaking', DANGEROUS: 'dangerous', NON_BREAKING: 'safe' };
const ORDER: Record<ChangeLevel, number> = { breaking: 0, dangerous: 1, safe: 2 };
const MARK: Record<ChangeLevel, string> = { breaking: '✗', dangerous: '!', safe: '✓' };

function inspectorGraphql(): typeof import('graphql') {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('@graphql-inspector/core'))('graphql') as typeof import('graphql');
}

export async function schemaDiff(
  oldSource: string | GraphQLSchema,
  newSource: string | GraphQLSchema,
  options: SchemaDiffOptions = {},
): Promise<SchemaDiffResult> {
  const [oldSchema, newSchema, inspector] = await Promise.all([
    loadSchema(oldSource, options),
    loadSchema(newSource, options),
    import('@graphql-inspector/core'),
  ]);
  // Inspector checks types with the graphql copy *it* imports, which under a bundler or Vite can
  // be another module instance than ours ("Cannot use GraphQLObjectType from another module or
  // realm"). Rebuilding both schemas from SDL with that copy makes the diff work wherever it runs.
  const theirs = inspectorGraphql();
  const inTheirRealm = (schema: GraphQLSchema) => theirs.buildSchema(printSchema(schema), { assumeValid: true });
  const unused = options.unused;
  const rules = unused ? [inspector.DiffRule.considerUsage] : [];
  const config = unused
    ? {
        checkUsage: async (items: Array<{ type: string; field?: string }>) => {
          // Only field-level coordinates are measured; a type or schema-level change stays breaking.
          const coordinates = items.map((i) => (i.field ? `${i.type}.${i.field}` : ''));
          const answers = await unused(coordinates);
          return coordinates.map((c, i) => c !== '' && answers[i] === true);
        },
      }
    : {};
  const found = await inspector.diff(inTheirRealm(oldSchema), inTheirRealm(newSchema), rules, config);
  const changes: SchemaChange[] = found
    .map((c) => ({
      level: LEVEL[c.criticality.level] ?? 'breaking',
      type: c.type,
      message: c.message,
      path: c.path ?? null,
      reason: c.criticality.reason ?? null,
      safeBasedOnUsage: c.criticality.isSafeBasedOnUsage === true,
    }))
    .sort((a, b) => ORDER[a.level] - ORDER[b.level] || (a.path ?? '').localeCompare(b.path ?? ''));
  const count = (level: ChangeLevel) => changes.filter((c) => c.level === level).length;
  return { changes, breaking: count('breaking'), dangerous: count('dangerous'), safe: count('safe') };
}

/** Plain text for a terminal or a CI log: one line per change, grouped by level, counts last. */
export function formatSchemaDiff(result: SchemaDiffResult): string {
  if (result.changes.length === 0) return 'No changes.\n';
  const lines: string[] = [];
  for (const level of ['breaking', 'dangerous', 'safe'] as const) {
    const changes = result.changes.filter((c) => c.level === level);
    if (changes.length === 0) continue;
    lines.push(`${level.toUpperCase()} (${changes.length})`);
    for (const c of changes) lines.push(`  ${MARK[level]} ${c.message}`);
    lines.push('');
  }
  lines.push(`${result.breaking} breaking, ${result.dangerous} dangerous, ${result.safe} safe`);
  return `${lines.join('\n')}\n`;
}
