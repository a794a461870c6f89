/**
 * Statements that stop on the server when the run is cancelled (the client went away, the budget
 * ran out). Drizzle takes no `AbortSignal`, so each batch runs on a copy of the request's database
 * whose session holds a driver handle this module can cancel:
 *
 * - node-postgres `Pool`: the batch checks out its own client; on abort a CancelRequest goes to
 *   that client's backend (the PostgreSQL protocol's cancel, as `psql` sends on Ctrl-C, through
 *   pg's own `Connection`), and the client is then discarded rather than returned to the pool, so
 *   a late cancel can never hit the next statement on that connection.
 * - postgres.js: each query object the batch makes is kept, and `query.cancel()` is called on abort.
 * - PGlite (and a single node-postgres `Client`): nothing can be cancelled; the statement finishes,
 *   its rows are dropped, and no further statement starts.
 */
import { entityKind } from './drizzle.js';
import type { SqlDatabase } from './types.js';

type Session = SqlDatabase['_']['session'];
type SessionClass = new (client: unknown, dialect: unknown, schema: unknown, options: unknown) => Session;

interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  Client: new (options: unknown) => { connection: PgConnectionLike; host?: string; port?: number };
  options: unknown;
  totalCount: number;
}
interface PgClientLike {
  processID: number;
  secretKey: number;
  release(destroy?: boolean | Error): void;
  on(event: 'error', fn: (error: unknown) => void): void;
  removeListener(event: 'error', fn: (error: unknown) => void): void;
}
interface PgConnectionLike {
  on(event: string, fn: (...args: unknown[]) => void): void;
  once(event: string, fn: () => void): void;
  connect(port: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
  end(): void;
}
interface PostgresJsQuery {
  cancel(): void;
}
type PostgresJs = { unsafe(...args: unknown[]): PostgresJsQuery };

type Driver = 'pg-pool' | 'postgres-js' | 'none';

function driverOf(db: SqlDatabase): Driver {
  const session = db._.session as unknown as { constructor: { [key: symbol]: string | undefined }; client?: unknown };
  const kind = session.constructor[entityKind()];
  const client = session.client as Partial<PgPoolLike> | undefined;
  if (kind === 'NodePgSession' && client && typeof client.connect === 'function' && typeof client.Client === 'function' && 'totalCount' in client) {
    return 'pg-pool';
  }
  if (kind === 'PostgresJsSession' && client && typeof (client as unknown as PostgresJs).unsafe === 'function') return 'postgres-js';
  return 'none';
}

/** Whether statements of `db` can be cancelled on the server (node-postgres Pool, postgres.js). */
export const canCancel = (db: SqlDatabase): boolean => driverOf(db) !== 'none';

/** `db`'s session with its driver handle replaced by `client` (same dialect, schema, logger). */
export function sessionOn(db: SqlDatabase, client: unknown): Session {
  const session = db._.session as unknown as { constructor: SessionClass; dialect: unknown; schema: unknown; options: unknown };
  return new session.constructor(client, session.dialect, session.schema, session.options);
}

/** `db` with its session's driver handle replaced by `client` (same dialect, schema, logger). */
export function onClient(db: SqlDatabase, client: unknown): SqlDatabase {
  const copy = sessionOn(db, client);
  return Object.create(db, { session: { value: copy }, _: { value: { ...db._, session: copy } } }) as SqlDatabase;
}

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new Error('aborted');

/**
 * `run` on `db`; its statements are cancelled on the server when the signal aborts. `signal` is a
 * thunk: the run's signal is made only for a driver that can use it.
 */
export async function cancellable<R>(db: SqlDatabase, signal: (() => AbortSignal) | undefined, run: (db: SqlDatabase) => Promise<R>): Promise<R> {
  const driver = signal ? driverOf(db) : 'none';
  if (driver === 'none') return run(db);
  const abort = signal!();
  if (abort.aborted) throw abortError(abort);
  return driver === 'pg-pool' ? onPgPool(db, abort, run) : onPostgresJs(db, abort, run);
}

async function onPgPool<R>(db: SqlDatabase, signal: AbortSignal, run: (db: SqlDatabase) => Promise<R>): Promise<R> {
  let cancelled = false;
  return withPoolClient(db, async (client, pool) => {
    if (signal.aborted) throw abortError(signal);
    const onAbort = () => {
      cancelled = true;
      cancelBackend(pool, client);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await run(onClient(db, client));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }, () => cancelled);
}

/**
 * `run` on a client checked out of `db`'s node-postgres pool, guarded: pg-pool takes its own
 * 'error' listener off a client while it is checked out, so a backend that dies then (killed,
 * restarted, a proxy that drops the connection) makes the client emit 'error' with no listener,
 * which Node turns into an uncaught exception that ends the process. The listener here keeps the
 * error where it belongs: the statement in flight rejects with it. A client that failed that way,
 * or that `discard()` says must not be reused, is destroyed instead of returned to the pool.
 */
async function withPoolClient<R>(db: SqlDatabase, run: (client: PgClientLike, pool: PgPoolLike) => Promise<R>, discard = () => false): Promise<R> {
  const pool = (db._.session as unknown as { client: PgPoolLike }).client;
  const client = await pool.connect();
  let lost: unknown;
  const onError = (error: unknown) => void (lost ??= error);
  client.on('error', onError);
  let failed: unknown;
  try {
    return await run(client, pool);
  } catch (error) {
    failed = error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(discard() || lost !== undefined || brokenConnection(failed) ? true : undefined);
  }
}

/**
 * `run` with a `db` whose statements all go over one connection (a transaction opened on it stays
 * on it), that survives the connection being lost: for a node-postgres pool a guarded client (see
 * `withPoolClient`); other drivers as they are (postgres.js and PGlite reject the statement
 * without an unhandled 'error' event).
 */
export function onOneConnection<R>(db: SqlDatabase, run: (db: SqlDatabase) => Promise<R>): Promise<R> {
  return driverOf(db) === 'pg-pool' ? withPoolClient(db, (client) => run(onClient(db, client))) : run(db);
}

/**
 * As `onOneConnection`, but `run` gets the pool's checked-out client itself (`client`; undefined
 * for other drivers, which get `db` as it is) and makes its statements' session on it: for the
 * streaming path (stream.ts), where a database copy made here as well cost a second session per
 * batch (~10 µs before the statement was sent). `db` is still the pool's: a statement sent through
 * it would take another client (with all of them checked out this way, none is left: a deadlock).
 */
export function onOnePoolClient<R>(db: SqlDatabase, run: (db: SqlDatabase, client?: unknown) => Promise<R>): Promise<R> {
  return driverOf(db) === 'pg-pool' ? withPoolClient(db, (client) => run(db, client)) : run(db);
}

/** A CancelRequest for `client`'s backend over a new connection (no authentication needed). */
function cancelBackend(pool: PgPoolLike, client: PgClientLike): void {
  const canceller = new pool.Client(pool.options);
  const con = canceller.connection;
  con.on('error', () => {}); // a cancel that cannot be delivered changes nothing: the statement finishes
  con.once('connect', () => con.cancel(client.processID, client.secretKey));
  const host = canceller.host ?? 'localhost';
  if (host.startsWith('/')) con.connect(`${host}/.s.PGSQL.${canceller.port ?? 5432}`);
  else con.connect(canceller.port ?? 5432, host);
}

/** A driver error that means the connection itself is gone (not a statement that failed). */
export function brokenConnection(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; cause?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^(08|57P0)/.test(code) || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED'].includes(code)) return true;
  if (typeof e.message === 'string' && /Connection terminated|terminating connection/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && brokenConnection(e.cause);
}

async function onPostgresJs<R>(db: SqlDatabase, signal: AbortSignal, run: (db: SqlDatabase) => Promise<R>): Promise<R> {
  const sql = (db._.session as unknown as { client: PostgresJs }).client;
  const queries: PostgresJsQuery[] = [];
  const client = Object.create(sql, {
    unsafe: {
      value: (...args: unknown[]) => {
        const query = sql.unsafe(...args);
        queries.push(query);
        return query;
      },
    },
  });
  const onAbort = () => {
    for (const query of queries) query.cancel();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await run(onClient(db, client));
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
