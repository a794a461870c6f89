/**
 * A statement's rows handed to the caller one at a time; on node-postgres as the driver parses
 * them off the wire, not after the last one. PostgreSQL sends a batch's rows while it is still
 * finding the next ones, so items built from the rows that have arrived overlap the server's
 * work; built after the statement ended they were all wait. Measured on PostgreSQL (bench/
 * sql-pagination.ts, columns.ts; docs/benchmarks.md "SQL tail"): the time from the statement's
 * end to the pages fell from ~0.64 to ~0.31 ms for 1,000 parents' pages with total_count (the
 * hand-written query: ~0.34 ms) and from ~2.3 to ~0.08 ms for 20,000 list rows (hand: ~1.2 ms).
 *
 * The statement still runs through Drizzle's prepared query (its logger, type parsers, error
 * wrapping, spans), on a copy of the session whose client submits a `pg.Query` that passes each
 * parsed row on instead of keeping it. Every other driver (PGlite, postgres.js, pg-native) gets
 * the rows after the statement, through the same `onRow`: the results are the same either way.
 */
import { entityKind } from './drizzle.js';
import { onClient, onOnePoolClient, sessionOn } from './cancel.js';
import { arrayRows, arrayRowsOn } from './statements.js';
import type { SqlDatabase } from './types.js';

type Callback = (error: unknown, result?: { rows?: unknown[][] }) => void;
type Row = unknown[];

/** The parts of pg's JavaScript `Query` a streaming statement uses (pg 8: lib/query.js). */
interface PgQuery {
  _result?: { parseRow?: (fields: unknown) => Row };
  _canceledDueToError?: unknown;
  _accumulateRows?: boolean;
  handleRowDescription(message: unknown): void;
  handleDataRow(message: { fields: unknown }): void;
}
type PgQueryClass = new (config: object, values: unknown, callback: Callback) => PgQuery;
interface PgClient {
  query(query: PgQuery): unknown;
  query(config: object, values: unknown): Promise<{ rows: Row[] }>;
  constructor: { Query?: PgQueryClass };
}

/** pg's `Query` with where each parsed row goes. */
interface Streaming extends PgQuery {
  onRow: (row: Row) => void;
}

/**
 * The node-postgres client a statement of `db` runs on (`checkedOut` of its pool, or its single
 * `Client`) when its `Query` is pg's JavaScript one.
 */
function pgClientOf(db: SqlDatabase, checkedOut: unknown): PgClient | undefined {
  const session = db._.session as unknown as { constructor: { [key: symbol]: unknown }; client?: Partial<PgClient> };
  if (session.constructor[entityKind()] !== 'NodePgSession') return undefined;
  const client = (checkedOut ?? session.client) as Partial<PgClient> | undefined;
  const Query = client?.constructor?.Query;
  // pg-native's Query has no row-by-row hook: it takes the other path.
  if (typeof client?.query !== 'function' || typeof Query !== 'function' || typeof Query.prototype.handleDataRow !== 'function') return undefined;
  return client as PgClient;
}

const streamingQueries = new WeakMap<PgQueryClass, PgQueryClass>();

/**
 * pg's `Query`, each parsed row passed to `onRow` and not kept: held until the end, the rows
 * were only more live memory for every young-generation collection during the statement to copy.
 * A row is parsed and a parse error ends the statement as pg's own `handleDataRow` does; no 'row'
 * event is emitted (nothing of ours listens, and an emit per row measured ~0.1–0.2 ms of a
 * 6,000-row batch). `streamable` says whether this pg has the fields relied on.
 */
function streamingQuery(Query: PgQueryClass): PgQueryClass {
  let Streaming = streamingQueries.get(Query);
  if (!Streaming) {
    const Base = Query as unknown as new (...args: unknown[]) => Streaming;
    Streaming = class extends Base {
      override handleRowDescription(message: unknown): void {
        super.handleRowDescription(message);
        this._accumulateRows = false;
      }
      override handleDataRow(message: { fields: unknown }): void {
        if (this._canceledDueToError) return;
        let row: Row;
        try {
          row = this._result!.parseRow!(message.fields);
        } catch (error) {
          this._canceledDueToError = error;
          return;
        }
        this.onRow(row);
      }
    } as unknown as PgQueryClass;
    streamingQueries.set(Query, Streaming);
  }
  return Streaming;
}

const streamable = (query: PgQuery): boolean => typeof query._result?.parseRow === 'function' && '_canceledDueToError' in query;

/**
 * Runs `text` and calls `onRow` with each row as an array of values (as `arrayRows` gives them),
 * in order; resolves with the number of rows. An error `onRow` throws rejects the call once the
 * statement has ended (no later row is passed on), as it would from a loop over the rows after
 * it; a statement that fails rejects with the driver's error as Drizzle wraps it.
 *
 * `onSent` runs once the statement has been handed to the driver, before any row: work the
 * caller needs only for the rows is done there, while the database runs the statement, instead
 * of before it is sent. A statement that fails to start may never call it; an error it throws
 * rejects the call once the statement has ended, as one from `onRow` does.
 */
export function eachRow(db: SqlDatabase, text: string, params: unknown[], onRow: (values: Row) => void, onSent?: () => void): Promise<number> {
  // A pool's statement runs on a client checked out for it, as `pool.query` does, guarded
  // against the connection dropping while it is out (cancel.ts).
  return onOnePoolClient(db, async (on, checkedOut) => {
    let count = 0;
    let failed: { error: unknown } | undefined;
    // Runs in the socket's data handler: a throw there would be an uncaught exception. Kept for the end.
    const take = (row: Row) => {
      if (failed) return;
      try {
        onRow(row);
        count++;
      } catch (error) {
        failed = { error };
      }
    };
    const sent = () => {
      try {
        onSent?.();
      } catch (error) {
        failed = { error };
      }
    };
    const client = pgClientOf(on, checkedOut);
    if (!client) {
      const pending = arrayRows(checkedOut === undefined ? on : onClient(on, checkedOut), text, params);
      sent();
      for (const row of await pending) take(row);
      if (failed) throw failed.error;
      return count;
    }
    const Query = streamingQuery(client.constructor.Query!);
    const streaming = {
      query: (config: object, values: unknown) =>
        new Promise((resolve, reject) => {
          // With a callback, pg reports the end, errors and its own read timeout through it.
          const query = new Query({ ...config }, values, (error, result) => (error ? reject(error) : resolve(result))) as Streaming;
          if (!streamable(query)) {
            // A pg whose Query is laid out otherwise: its own path, rows taken at the end.
            client.query(config, values).then((result) => {
              for (const row of result.rows) take(row);
              resolve(result);
            }, reject);
            sent();
            return;
          }
          query.onRow = take;
          client.query(query);
          // pg has written the statement to the socket (or queued it): no row can arrive before this returns.
          sent();
        }),
    };
    // Only the session is used: no database object around it (Object.create per batch, before the statement went out).
    await arrayRowsOn(sessionOn(on, streaming), text, params);
    if (failed) throw failed.error;
    return count;
  });
}
