/**
 * The operation catalog in SQL: one table beside the usage tables, written in the usage store's
 * transaction (so a batch and its operations count once, together) and pruned to its bound in
 * that same transaction. Catalog writes of the whole fleet take one advisory lock, so two
 * processes never prune rows the other is upserting (which would deadlock).
 */
import { drizzle, pgCore } from '../src/orm/drizzle.js';
import type { SqlDatabase } from '../src/orm/types.js';
import { coalesceOperations, type CatalogBounds, type OperationQuery, type OperationRow, type V6Form } from './catalog.js';

type Transaction = Parameters<Parameters<SqlDatabase['transaction']>[0]>[0];

function defineTable() {
  const { bigint, index, jsonb, pgTable, primaryKey, text, timestamp } = pgCore();
  const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
  return pgTable(
    'ergraph_operations',
    {
      client: text('client').notNull(),
      operationId: text('operation_id').notNull(),
      operationName: text('operation_name'),
      kind: text('kind').notNull(),
      text: text('text').notNull(),
      fields: jsonb('fields').$type<string[]>().notNull(),
      persistedId: text('persisted_id'),
      v6PersistedId: text('v6_persisted_id'),
      v6Text: text('v6_text'),
      v6Moves: jsonb('v6_moves').$type<Array<{ from: string[]; to: string[] }>>(),
      v6Problem: text('v6_problem'),
      count: bigint('count', { mode: 'number' }).notNull(),
      firstSeen: at('first_seen').notNull(),
      lastSeen: at('last_seen').notNull(),
      shadowSame: bigint('shadow_same', { mode: 'number' }).notNull(),
      shadowDiffers: bigint('shadow_differs', { mode: 'number' }).notNull(),
      shadowPath: text('shadow_path'),
      shadowLastAt: at('shadow_last_at'),
      shadowDiffersAt: at('shadow_differs_at'),
    },
    (t) => [primaryKey({ columns: [t.client, t.operationId] }), index('ergraph_operations_last_seen').on(t.lastSeen)],
  );
}
let table: ReturnType<typeof defineTable> | undefined;
const operationsTable = () => (table ??= defineTable());

/** Created after the usage tables, in the order `add` locks them. */
export const CATALOG_DDL = [
  `CREATE TABLE IF NOT EXISTS ergraph_operations (
    client text NOT NULL,
    operation_id text NOT NULL,
    operation_name text,
    kind text NOT NULL,
    text text NOT NULL,
    fields jsonb NOT NULL,
    persisted_id text,
    v6_persisted_id text,
    v6_text text,
    v6_moves jsonb,
    v6_problem text,
    count bigint NOT NULL,
    first_seen timestamptz(3) NOT NULL,
    last_seen timestamptz(3) NOT NULL,
    shadow_same bigint NOT NULL,
    shadow_differs bigint NOT NULL,
    shadow_path text,
    shadow_last_at timestamptz(3),
    shadow_differs_at timestamptz(3),
    PRIMARY KEY (client, operation_id))`,
  `CREATE INDEX IF NOT EXISTS ergraph_operations_last_seen ON ergraph_operations (last_seen)`,
];

/** 19 parameters a row: well under PostgreSQL's 65535 per statement. */
const ROWS_PER_STATEMENT = 500;

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

/** Merge `rows` into the catalog (as `mergeOperation` does), then cut it to its bounds. */
export async function addOperations(tx: Transaction, rows: readonly OperationRow[], bounds: Required<CatalogBounds>): Promise<void> {
  if (rows.length === 0) return;
  const { sql } = drizzle('a SQL usage store').core;
  const t = operationsTable();
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ergraph_operations'))`);
  const values = coalesceOperations(rows).map((r) => ({
    client: r.client,
    operationId: r.operationId,
    operationName: r.operationName,
    kind: r.kind,
    text: r.text,
    fields: r.fields,
    persistedId: r.persistedId,
    v6PersistedId: r.v6PersistedId,
    v6Text: 'text' in r.v6 ? r.v6.text : null,
    v6Moves: 'text' in r.v6 ? r.v6.moves : null,
    v6Problem: 'problem' in r.v6 ? r.v6.problem : null,
    count: r.count,
    firstSeen: new Date(r.firstSeen),
    lastSeen: new Date(r.lastSeen),
    shadowSame: r.shadow.same,
    shadowDiffers: r.shadow.differs,
    shadowPath: r.shadow.path,
    shadowLastAt: date(r.shadow.lastRunAt),
    shadowDiffersAt: date(r.shadow.lastDiffersAt),
  }));
  // A tally is about one v6 form: the same form adds up, another one (the rewrite changed) starts over.
  const same = sql`(${t.v6Text} is not distinct from excluded.v6_text and ${t.v6Problem} is not distinct from excluded.v6_problem)`;
  const tally = (column: typeof t.shadowSame | typeof t.shadowDiffers, name: string) => sql`case when ${same} then ${column} + excluded.${sql.raw(name)} else excluded.${sql.raw(name)} end`;
  const newerDiffers = sql`(excluded.shadow_differs_at is not null and (${t.shadowDiffersAt} is null or excluded.shadow_differs_at >= ${t.shadowDiffersAt}))`;
  for (let i = 0; i < values.length; i += ROWS_PER_STATEMENT) {
    await tx
      .insert(t)
      .values(values.slice(i, i + ROWS_PER_STATEMENT))
      .onConflictDoUpdate({
        target: [t.client, t.operationId],
        set: {
          count: sql`${t.count} + excluded.count`,
          firstSeen: sql`least(${t.firstSeen}, excluded.first_seen)`,
          lastSeen: sql`greatest(${t.lastSeen}, excluded.last_seen)`,
          persistedId: sql`coalesce(${t.persistedId}, excluded.persisted_id)`,
          v6PersistedId: sql`coalesce(excluded.v6_persisted_id, ${t.v6PersistedId})`,
          fields: sql`excluded.fields`,
          v6Text: sql`excluded.v6_text`,
          v6Moves: sql`excluded.v6_moves`,
          v6Problem: sql`excluded.v6_problem`,
          shadowSame: tally(t.shadowSame, 'shadow_same'),
          shadowDiffers: tally(t.shadowDiffers, 'shadow_differs'),
          shadowPath: sql`case when not ${same} or ${newerDiffers} then excluded.shadow_path else ${t.shadowPath} end`,
          shadowLastAt: sql`case when ${same} then greatest(${t.shadowLastAt}, excluded.shadow_last_at) else excluded.shadow_last_at end`,
          shadowDiffersAt: sql`case when ${same} then greatest(${t.shadowDiffersAt}, excluded.shadow_differs_at) else excluded.shadow_differs_at end`,
        },
      });
  }
  // The bound, as `keptOperations` applies it: the most used rows that fit, none alone too large,
  // none without uses (a verdict that arrived after its operation was evicted).
  const bytes = sql.raw(`(octet_length(text) + coalesce(octet_length(v6_text), 0) + coalesce(octet_length(v6_problem), 0))`);
  await tx.execute(sql`delete from ergraph_operations where count = 0 or ${bytes} > ${bounds.maxBytes}`);
  await tx.execute(sql`
    delete from ergraph_operations o using (
      select client, operation_id, row_number() over w as n, sum(${bytes}) over w as total
      from ergraph_operations
      window w as (order by count desc, last_seen desc, client collate "C", operation_id collate "C")
    ) r
    where o.client = r.client and o.operation_id = r.operation_id and (r.n > ${bounds.maxOperations} or r.total > ${bounds.maxBytes})`);
}

type Row = ReturnType<typeof operationsTable>['$inferSelect'];

function rowOf(r: Row): OperationRow {
  const v6: V6Form = r.v6Text !== null ? { text: r.v6Text, moves: r.v6Moves ?? [] } : { problem: r.v6Problem ?? '' };
  const ms = (d: Date | null) => (d === null ? null : d.getTime());
  return {
    client: r.client,
    operationId: r.operationId,
    operationName: r.operationName,
    kind: r.kind as OperationRow['kind'],
    text: r.text,
    fields: r.fields,
    persistedId: r.persistedId,
    v6PersistedId: r.v6PersistedId,
    v6,
    count: r.count,
    firstSeen: r.firstSeen.getTime(),
    lastSeen: r.lastSeen.getTime(),
    shadow: { same: r.shadowSame, differs: r.shadowDiffers, path: r.shadowPath, lastRunAt: ms(r.shadowLastAt), lastDiffersAt: ms(r.shadowDiffersAt) },
  };
}

/** The catalog, most used first (the order `keptOperations` keeps). */
export async function readOperations(db: SqlDatabase, query: OperationQuery = {}): Promise<OperationRow[]> {
  const { and, desc, eq, gte } = drizzle('a SQL usage store').core;
  const t = operationsTable();
  const where = and(
    query.client === undefined ? undefined : eq(t.client, query.client),
    query.since === undefined ? undefined : gte(t.lastSeen, new Date(query.since)),
  );
  const rows = await db.select().from(t).where(where).orderBy(desc(t.count), desc(t.lastSeen), t.client, t.operationId);
  return rows.map(rowOf);
}
