/**
 * The per-request budget: how long one operation may run and how large its result may grow.
 * Static limits (depth, aliases, cost) refuse documents before they run; this one watches the
 * run itself and stops the work when it is spent — no further level is loaded, no further
 * mutation runs — and answers `data: null` with an error naming the limit:
 *
 *   { message: 'The operation ran longer than 10000 ms (limits.timeout)', extensions: { code: 'OPERATION_TIMEOUT', limit: 10000 } }
 *   { message: 'The result grew past 1000000 values (limits.resultValues)…', extensions: { code: 'RESULT_TOO_LARGE', limit: 1000000 } }
 *
 * A loader call already running when the budget runs out finishes in the background (a batch
 * function cannot be interrupted), but nothing is done with its values.
 */
import { performance } from 'node:perf_hooks';
import { GraphQLError } from 'graphql';

export interface ExecutionBudget {
  /** Milliseconds one operation may run (default 10,000); `false`: no limit. */
  timeout?: number | false;
  /** Values (objects, list items, leaves) one result may hold (default 1,000,000); `false`: no limit. */
  resultValues?: number | false;
}

export const DEFAULT_BUDGET = Object.freeze({ timeout: 10_000, resultValues: 1_000_000 } satisfies Required<ExecutionBudget>);

export const BUDGET_CODES = { timeout: 'OPERATION_TIMEOUT', resultValues: 'RESULT_TOO_LARGE' } as const;

/** Thrown through the executor's walk when the budget runs out; never reaches a client as such. */
export class BudgetExceeded extends Error {
  constructor(readonly error: GraphQLError) {
    super(error.message);
  }
}

export class Budget {
  /** Set once the budget is spent: the error the response carries. */
  exceeded: GraphQLError | undefined;
  private readonly deadline: number;
  private readonly timeout: number | false;
  private readonly maxValues: number | false;
  private values = 0;

  constructor(limits: ExecutionBudget = {}) {
    this.timeout = limits.timeout ?? DEFAULT_BUDGET.timeout;
    this.maxValues = limits.resultValues ?? DEFAULT_BUDGET.resultValues;
    this.deadline = this.timeout === false ? Infinity : performance.now() + this.timeout;
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

  /** Rejects at the deadline; one timer per run, made on the first wait. */
  private expired: Promise<never> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `promise`, or a rejection with `BudgetExceeded` at the deadline, whichever comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.deadline === Infinity) return promise;
    if (!this.expired) {
      const left = this.deadline - performance.now();
      if (left <= 0) return Promise.reject(this.timedOut());
      this.expired = new Promise<never>((_, reject) => {
        this.timer = setTimeout(() => reject(this.timedOut()), left);
        this.timer.unref?.(); // the timer does not keep the process alive
      });
      this.expired.catch(() => undefined); // firing after the run ended is no unhandled rejection
    }
    return Promise.race([promise, this.expired]);
  }

  /** The run is over: drop its timer. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private timedOut(): BudgetExceeded {
    return this.exceed(`The operation ran longer than ${this.timeout} ms (limits.timeout)`, 'timeout', this.timeout as number);
  }

  private exceed(message: string, limit: keyof typeof BUDGET_CODES, value: number): BudgetExceeded {
    this.exceeded ??= new GraphQLError(message, { extensions: { code: BUDGET_CODES[limit], limit: value } });
    return new BudgetExceeded(this.exceeded);
  }
}
