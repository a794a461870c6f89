/**
 * The durable usage store: two tables through Drizzle, the same code for embedded PGlite and a
 * PostgreSQL server. Every process of a fleet upserts into one table; the upsert adds counts and
 * takes min/max of first/last seen, so the order batches arrive in (and clock skew between the
 * processes) cannot change the totals.
 */
import { drizzle, pgCore } from '../src/orm/drizzle.js';
import { onOneConnection } from '../src/orm/cancel.js';
import type { SqlDatabase } from '../src/orm/types.js';
import { catalogBounds, type CatalogBounds, type OperationRow } from './catalog.js';
import { addOperations, CATALOG_DDL, readOperations } from './catalog-sql.js';
import { coalesceRows, type TrackedCoordinate, type UsageRow, type UsageStore } from './usage-store.js';

/** The store's tables, defined on first use: drizzle-orm is an optional peer, loaded then. */
function defineTables() {
  const { bigint, date, index, pgTable, primaryKey, text, timestamp } = pgCore();
  const usageTable = pgTable(
    'ergraph_usage',
    {
      coordinate: text('coordinate').notNull(),
      client: text('client').notNull(),
      day: date('day', { mode: 'string' }).notNull(),
      count: bigint('count', { mode: 'number' }).notNull(),
      firstSeen: timestamp('first_seen', { withTimezone: true, precision: 3 }).notNull(),
      lastSeen: timestamp('last_seen', { withTimezone: true, precision: 3 }).notNull(),
    },
    (t) => [primaryKey({ columns: [t.coordinate, t.client, t.day] }), index('ergraph_usage_day').on(t.day)],
  );

  const usageCoordinatesTable = pgTable('ergraph_usage_coordinates', {
    coordinate: text('coordinate').primaryKey(),
    replacement: text('replacement').notNull(),
    usage: text('usage'),
    /** When any process first served it: a verdict of "no use for N days" needs N days of watching. */
    trackedSince: timestamp('tracked_since', { withTimezone: true, precision: 3 }).notNull(),
  });

  /**
   * The ids of the batches already added, written in the same transaction as their counts: a batch
   * sent again because the reply to its COMMIT was lost (the connection broke after the server
   * committed) finds its id here and adds nothing. Ids older than `FLUSH_IDS_KEPT_MS` are deleted;
   * a recorder retries within a minute of the database answering again.
   */
  const usageFlushesTable = pgTable(
    'ergraph_usage_flushes',
    {
      id: text('id').primaryKey(),
      at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    },
    (t) => [index('ergraph_usage_flushes_at').on(t.at)],
  );
  return { usageTable, usageCoordinatesTable, usageFlushesTable };
}
let tables: ReturnType<typeof defineTables> | undefined;

const FLUSH_IDS_KEPT_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

// The DDL of the tables above. Drizzle creates tables through drizzle-kit migrations, which a
// library cannot run inside its users' projects, so the statements are written out here; the
// store test reads and writes every column through the Drizzle tables, so a mismatch fails it.
// CREATE INDEX takes a SHARE lock on its table even when the index exists, and add() writes to
// the flushes table before the usage table: the DDL locks them in that same order, or a process
// starting up and another one flushing deadlock.
const DDL = [
  `CREATE TABLE IF NOT EXISTS ergraph_usage_flushes (
    id text PRIMARY KEY,
    at timestamptz(3) NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS ergraph_usage_flushes_at ON ergraph_usage_flushes (at)`,
  `CREATE TABLE IF NOT EXISTS ergraph_usage (
    coordinate text NOT NULL,
    client text NOT NULL,
    day date NOT NULL,
    count bigint NOT NULL,
    first_seen timestamptz(3) NOT NULL,
    last_seen timestamptz(3) NOT NULL,
    PRIMARY KEY (coordinate, client, day))`,
  `CREATE INDEX IF NOT EXISTS ergraph_usage_day ON ergraph_usage (day)`,
  `CREATE TABLE IF NOT EXISTS ergraph_usage_coordinates (
    coordinate text PRIMARY KEY,
    replacement text NOT NULL,
    usage text,
    tracked_since timestamptz(3) NOT NULL)`,
  ...CATALOG_DDL,
];

type Transaction = Parameters<Parameters<SqlDatabase['transaction']>[0]>[0];

/** 6 parameters a row: well under PostgreSQL's 65535 per statement. */
const ROWS_PER_STATEMENT = 1000;

export interface SqlUsageStoreOptions {
  /** Shown in reports and errors (default `PostgreSQL (Drizzle)`); never put credentials here. */
  description?: string;
  /** Called by `close()`, e.g. to end the pool this store was opened on. */
  onClose?: () => Promise<void>;
  /** The operation catalog's bounds (default 1000 operations, 4 MiB of texts), applied on every write. */
  catalog?: CatalogBounds;
}

/**
 * A usage store on any Drizzle PostgreSQL database (`drizzle-orm/pglite`, `drizzle-orm/node-postgres`).
 * The tables are created on first use, not here, so a database that is down at start delays
 * nothing: the first write fails, is reported, and is tried again.
 */
export function sqlUsageStore(db: SqlDatabase, options: SqlUsageStoreOptions = {}): UsageStore {
  const { gte, lt, sql } = drizzle('a SQL usage store').core;
  const { usageTable, usageCoordinatesTable, usageFlushesTable } = (tables ??= defineTables());
  const bounds = catalogBounds(options.catalog);
  let ready: Promise<void> | undefined;
  let prunedAt = 0;
  // Transactions go through onOneConnection: a node-postgres client checked out for one has no
  // 'error' listener of its pool's, so a connection lost mid-transaction would end the process.
  const transaction = (work: (tx: Transaction) => Promise<void>) => onOneConnection(db, (one) => one.transaction(work));
  const ensureTables = () =>
    (ready ??= transaction(async (tx) => {
        // Several processes starting together would race on CREATE TABLE IF NOT EXISTS (a
        // duplicate-key error in pg_type); one transaction-scoped lock serializes them.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ergraph_usage'))`);
        for (const statement of DDL) await tx.execute(sql.raw(statement));
      }).catch((error) => {
        ready = undefined;
        throw error;
      }));

  async function track(coordinates: readonly TrackedCoordinate[]) {
    await ensureTables();
    if (coordinates.length === 0) return;
    const now = Date.now();
    const values = [...new Map(coordinates.map((c) => [c.coordinate, c])).values()]
      .sort((a, b) => (a.coordinate < b.coordinate ? -1 : 1))
      .map((c) => ({ coordinate: c.coordinate, replacement: c.replacement, usage: c.usage ?? null, trackedSince: new Date(c.since ?? now) }));
    for (let i = 0; i < values.length; i += ROWS_PER_STATEMENT) {
      await db
        .insert(usageCoordinatesTable)
        .values(values.slice(i, i + ROWS_PER_STATEMENT))
        .onConflictDoUpdate({
          target: usageCoordinatesTable.coordinate,
          set: {
            replacement: sql`excluded.replacement`,
            usage: sql`excluded.usage`,
            trackedSince: sql`least(${usageCoordinatesTable.trackedSince}, excluded.tracked_since)`,
          },
        });
    }
  }

  async function add(rows: readonly UsageRow[], flushId?: string, operations: readonly OperationRow[] = []) {
    if (rows.length === 0 && operations.length === 0) return;
    await ensureTables();
    // Merged and sorted by key: one statement never touches a row twice, and concurrent
    // writers lock rows in the same order, so they wait for each other instead of deadlocking.
    const values = coalesceRows(rows).map((r) => ({ ...r, firstSeen: new Date(r.firstSeen), lastSeen: new Date(r.lastSeen) }));
    const t = usageTable;
    await transaction(async (tx) => {
      if (flushId !== undefined) {
        // An attempt of this batch still running on a connection this process lost makes this
        // insert wait for it: then its commit is seen (nothing to add) or its rollback (add).
        const claimed = await tx.insert(usageFlushesTable).values({ id: flushId }).onConflictDoNothing().returning({ id: usageFlushesTable.id });
        if (claimed.length === 0) return;
        if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          await tx.delete(usageFlushesTable).where(lt(usageFlushesTable.at, new Date(Date.now() - FLUSH_IDS_KEPT_MS)));
        }
      }
      for (let i = 0; i < values.length; i += ROWS_PER_STATEMENT) {
        await tx
          .insert(t)
          .values(values.slice(i, i + ROWS_PER_STATEMENT))
          .onConflictDoUpdate({
            target: [t.coordinate, t.client, t.day],
            set: {
              count: sql`${t.count} + excluded.count`,
              firstSeen: sql`least(${t.firstSeen}, excluded.first_seen)`,
              lastSeen: sql`greatest(${t.lastSeen}, excluded.last_seen)`,
            },
          });
      }
      await addOperations(tx, operations, bounds);
    });
  }

  return {
    description: options.description ?? 'PostgreSQL (Drizzle)',
    track: (coordinates) => track(coordinates).catch((error) => Promise.reject(driverError(error))),
    add: (rows, flushId, operations) => add(rows, flushId, operations).catch((error) => Promise.reject(driverError(error))),
    readOperations: (query) =>
      readOperations(db, query).catch((error: unknown) => (isUndefinedTable(error) ? [] : Promise.reject(driverError(error)))),

    async read(sinceDay: string) {
      // Reading creates nothing (a report may run with read-only rights): no tables yet means
      // nothing was ever written here, which the report says as "tracks no fields yet".
      const t = usageTable;
      const [tracked, rows, totals] = await Promise.all([
        db.select().from(usageCoordinatesTable),
        db.select().from(t).where(gte(t.day, sinceDay)),
        db
          .select({
            coordinate: t.coordinate,
            client: t.client,
            count: sql<number>`sum(${t.count})`.mapWith(Number),
            firstSeen: sql<Date>`min(${t.firstSeen})`.mapWith((v: string | Date) => new Date(v)),
            lastSeen: sql<Date>`max(${t.lastSeen})`.mapWith((v: string | Date) => new Date(v)),
          })
          .from(t)
          .groupBy(t.coordinate, t.client),
      ]).catch((error: unknown) => {
        if (isUndefinedTable(error)) return [[], [], []] as const;
        throw driverError(error);
      });
      return {
        tracked: tracked.map((c) => ({
          coordinate: c.coordinate,
          replacement: c.replacement,
          ...(c.usage ? { usage: c.usage } : {}),
          since: c.trackedSince.getTime(),
        })),
        rows: rows.map((r) => ({ ...r, firstSeen: r.firstSeen.getTime(), lastSeen: r.lastSeen.getTime() })),
        totals: totals.map((r) => ({ ...r, firstSeen: r.firstSeen.getTime(), lastSeen: r.lastSeen.getTime() })),
      };
    },

    close: () => options.onClose?.() ?? Promise.resolve(),
  };
}

/**
 * Drizzle wraps driver errors as "Failed query: <sql> params: …"; the driver's own error (e.g.
 * ECONNREFUSED, or a constraint) is what a report or log line should say.
 */
function driverError(error: unknown): unknown {
  const cause = (error as { cause?: unknown })?.cause;
  return error instanceof Error && error.message.startsWith('Failed query') && cause instanceof Error ? cause : error;
}

/** PostgreSQL's undefined_table (42P01), as node-postgres and PGlite report it (Drizzle may wrap it in `cause`). */
function isUndefinedTable(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '42P01') return true;
  }
  return false;
}
