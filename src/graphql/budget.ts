/**
 * The per-request budget: how long one operation may run and how large its result may grow.
 * Static limits (depth, aliases, cost) refuse documents before they run; this one watches the
 * run itself and stops the work when it is spent — no further level is loaded, no further
 * mutation runs — and answers `data: null` with an error naming the limit:
 *
 *   { message: 'The operation ran longer than 10000 ms (limits.timeout)', extensions: { code: 'OPERATION_TIMEOUT', limit: 10000 } }
 *   { message: 'The result grew past 1000000 values (limits.resultValues)…', extensions: { code: 'RESULT_TOO_LARGE', limit: 1000000 } }
 *
 * A spent budget also cancels the run (`src/resolver/cancel.ts`): loaders' signal aborts, so SQL
 * statements in flight are cancelled on node-postgres and postgres.js; a loader that ignores the
 * signal finishes in the background, and nothing is done with its values. A caller's signal that
 * aborts (the client went away) spends the budget the same way:
 *
 *   { message: 'The operation was cancelled: …', extensions: { code: 'OPERATION_CANCELLED' } }
 */
import { GraphQLError } from 'graphql';
import { Cancellation } from '../resolver/cancel.js';

export interface ExecutionBudget {
  /** Milliseconds one operation may run (default 10,000); `false`: no limit. */
  timeout?: number | false;
  /** Values (objects, list items, leaves) one result may hold (default 1,000,000); `false`: no limit. */
  resultValues?: number | false;
}

export const DEFAULT_BUDGET = Object.freeze({ timeout: 10_000, resultValues: 1_000_000 } satisfies Required<ExecutionBudget>);

export const BUDGET_CODES = { timeout: 'OPERATION_TIMEOUT', resultValues: 'RESULT_TOO_LARGE' } as const;

export const CANCELLED_CODE = 'OPERATION_CANCELLED';

/** Thrown through the executor's walk when the budget runs out; never reaches a client as such. */
export class BudgetExceeded extends Error {
  constructor(readonly error: GraphQLError) {
    super(error.message);
  }
}

export class Budget {
  /** Set once the budget is spent: the error the response carries. */
  exceeded: GraphQLError | undefined;
  readonly deadline: number;
  private readonly timeout: number | false;
  private readonly maxValues: number | false;
  private values = 0;

  constructor(
    limits: ExecutionBudget = {},
    /** The run's cancellation: a spent budget aborts it, and its abort (the caller's signal) spends the budget. */
    readonly cancellation: Cancellation = new Cancellation(),
    /** When the run started (`performance.now()`), if the caller read the clock already: one read less per operation. */
    startedAt?: number,
  ) {
    this.timeout = limits.timeout ?? DEFAULT_BUDGET.timeout;
    this.maxValues = limits.resultValues ?? DEFAULT_BUDGET.resultValues;
    this.deadline = this.timeout === false ? Infinity : (startedAt ?? performance.now()) + this.timeout;
    if (cancellation.aborted) this.cancelled(cancellation.cause);
    else if (cancellation.cancellable) cancellation.onAbort = (reason) => this.cancelled(reason);
  }

  /** The caller's signal aborted: spend the budget, and fail every wait still running. */
  private cancelled(reason: unknown): void {
    const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the caller aborted';
    this.exceeded ??= new GraphQLError(`The operation was cancelled: ${why}`, { extensions: { code: CANCELLED_CODE } });
    const error = new BudgetExceeded(this.exceeded);
    for (const reject of this.waits ?? []) reject(error);
    this.waits = undefined;
  }

  /** Values the result may still take before it is too large (Infinity without a limit). */
  get valuesLeft(): number {
    return this.maxValues === false ? Infinity : this.maxValues - this.values;
  }

  /** Count `n` more result values; throws `BudgetExceeded` past the limit or the deadline. */
  count(n: number): void {
    this.values += n;
    if (this.maxValues !== false && this.values > this.maxValues) {
      throw this.exceed(
        `The result grew past ${this.maxValues} values (limits.resultValues); ask for less: fewer fields, smaller pages, fewer levels`,
        'resultValues',
        this.maxValues,
      );
    }
    this.check();
  }

  /** Throws `BudgetExceeded` when the deadline has passed (or the budget was spent before). */
  check(): void {
    if (this.exceeded) throw new BudgetExceeded(this.exceeded);
    if (performance.now() > this.deadline) throw this.timedOut();
  }

  /** The rejections of this run's waits (settled ones are no-ops): the deadline timer calls them. */
  private waits: ((error: BudgetExceeded) => void)[] | undefined;
  /** Whether the shared deadline timer watches this budget. */
  watched = false;

  /**
   * `promise`, or a rejection with `BudgetExceeded` at the deadline, whichever comes first.
   * (One promise per wait; `Promise.race` with a never-settling deadline promise cost more and
   * left a reaction on it per wait.) The clock is not read here: a deadline that passes while the
   * event loop turns is the shared timer's to see, and one passed in synchronous work is seen by
   * the `check()` before the next level (a clock read is ~40 ns on Node 20, and was two of a small
   * operation's nine; issue 31.1).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.exceeded) return Promise.reject(new BudgetExceeded(this.exceeded));
    if (this.deadline === Infinity && !this.cancellation.cancellable) return promise;
    if (!this.watched && this.deadline !== Infinity) watch(this);
    return new Promise<T>((resolve, reject) => {
      (this.waits ??= []).push(reject);
      promise.then(resolve, reject);
    });
  }

  /** The deadline has passed: every wait still running fails. */
  expire(): void {
    const error = this.timedOut();
    for (const reject of this.waits ?? []) reject(error);
    this.waits = undefined;
  }

  /** The run is over: stop watching its deadline and the caller's signal. */
  dispose(): void {
    this.waits = undefined;
    if (this.watched) unwatch(this);
    this.cancellation.dispose();
  }

  private timedOut(): BudgetExceeded {
    return this.exceed(`The operation ran longer than ${this.timeout} ms (limits.timeout)`, 'timeout', this.timeout as number);
  }

  /**
   * Aborted once the budget is spent or the caller's signal aborts (graphql 17's `abortSignal`,
   * `info.getAbortSignal()`, loaders' `signal`); made on first use.
   */
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  private exceed(message: string, limit: keyof typeof BUDGET_CODES, value: number): BudgetExceeded {
    this.exceeded ??= new GraphQLError(message, { extensions: { code: BUDGET_CODES[limit], limit: value } });
    // Work still running is no longer wanted: loaders' signal aborts (SQL in flight is cancelled).
    this.cancellation.abort(this.exceeded);
    return new BudgetExceeded(this.exceeded);
  }
}

/*
 * One timer for every running budget, not one per operation: a setTimeout and clearTimeout per
 * operation cost a small query a tenth of its time. Budgets wait in deadline order; operations
 * with the same timeout end roughly in the order they started, so a finished one is found near
 * the front and a new one goes at the back. The timer is set for the earliest deadline and,
 * when it fires, expires what is due and is set again for the next.
 */
const watched: Budget[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

function watch(budget: Budget): void {
  budget.watched = true;
  let at = watched.length;
  while (at > 0 && watched[at - 1]!.deadline > budget.deadline) at--;
  // Mostly at the back (push), and gone from the back or the front: splice, a generic builtin,
  // was ~4% of a one-level operation's CPU profile (issue 31.1).
  if (at === watched.length) watched.push(budget);
  else watched.splice(at, 0, budget);
  if (budget.deadline < timerAt) arm(budget.deadline);
}

function unwatch(budget: Budget): void {
  if (watched[watched.length - 1] === budget) watched.pop();
  else if (watched[0] === budget) watched.shift();
  else {
    const at = watched.indexOf(budget);
    if (at >= 0) watched.splice(at, 1);
  }
  budget.watched = false;
  // The timer stays set, also when nothing is left to watch: when it fires early it finds nothing
  // due and is set for the next one, or not at all. Clearing it here made operations run one after
  // another (a client's requests, a test) pay a setTimeout and a clearTimeout each, a tenth of a
  // small operation's CPU time (issue 31.1); it is unref'd, so it keeps no process alive.
}

function arm(deadline: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = deadline;
  timer = setTimeout(fire, Math.max(0, deadline - performance.now()));
  timer.unref?.(); // the timer does not keep the process alive
}

function fire(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = performance.now();
  let due = 0;
  while (due < watched.length && watched[due]!.deadline <= now) due++;
  for (const budget of watched.splice(0, due)) {
    budget.watched = false;
    budget.expire();
  }
  if (watched.length) arm(watched[0]!.deadline);
}

/** How many budgets the shared deadline timer watches (for tests: none once every run has ended). */
export const watchedBudgets = (): number => watched.length;
