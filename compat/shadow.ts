/**
 * Shadow runs: for a sample of the v5 queries the endpoint answers, once the answer has been sent,
 * run the operation's v6 form — the text `ergraph-migrate v5-to-v6` writes, from `v6-form/` —
 * with the same variables and request context, put its answer back into the v5 shape and compare
 * the two as `ergraph-migrate verify` does (`v6-form/answers.ts`; masked error ids aside). The
 * verdict, same or the first differing path (never a value), goes into the operation catalog.
 *
 * Off unless asked for. Never a mutation (nor a subscription): running one twice would do it
 * twice. A run never delays a request and never reaches its client: it starts only after the
 * answer is sent, a sample is dropped rather than queued when `maxConcurrent` runs are under way
 * or the minute's time budget is spent, a run is aborted when it would pass that budget, and
 * anything it throws is counted and reported, not rethrown.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { CatalogEntry } from './catalog.js';
import type { FlatIndex } from './flat-index.js';
import type { UsageRecorder } from './usage-recorder.js';
import { compareAnswers, type Answer } from './v6-form/answers.js';
import { movesOfOperation, rewriteDocument, type MovedPath } from './v6-form/document.js';
import { applyEdits } from './v6-form/edits.js';

export interface ShadowOptions {
  /** The share of eligible requests (queries) whose v6 form is run, from 0 to 1 (default 0.01). */
  sample?: number;
  /** Shadow runs under way at once, those waiting for their answer to be sent included (default 2); a sample beyond is dropped. */
  maxConcurrent?: number;
  /**
   * Time shadow runs may take per minute, summed, in ms (default 1000): once it is spent, samples
   * are dropped until the minute is over, and a run is aborted when it would pass it.
   */
  budgetMs?: number;
  /** Told about a run that failed (default: a console warning, at most one a minute). */
  onError?: (error: unknown) => void;
  /** The sampling's random source (default `Math.random`). */
  random?: () => number;
  /** The budget's clock, in ms (default `performance.now`). */
  now?: () => number;
}

export const DEFAULT_SHADOW_SAMPLE = 0.01;
export const DEFAULT_SHADOW_CONCURRENCY = 2;
export const DEFAULT_SHADOW_BUDGET_MS = 1000;
const MINUTE = 60_000;

export interface ShadowStatus {
  enabled: boolean;
  sample: number;
  /** Runs that compared an answer, and how they ended. */
  same: number;
  differs: number;
  /** Runs that threw (the v6 handler, the comparison): the client's answer was already sent. */
  failed: number;
  /** Runs aborted on reaching the minute's budget. */
  timedOut: number;
  /** Samples not run: `busy`, `maxConcurrent` runs were under way; `budget`, the minute's time was spent. */
  dropped: { busy: number; budget: number };
  /** Runs waiting for their answer to be sent, or running. */
  running: number;
  lastError: { message: string; at: string } | null;
}

export interface ShadowRunner {
  readonly enabled: boolean;
  status(): ShadowStatus;
  /** Resolves once no run is waiting or running (tests, benchmarks, a graceful shutdown). */
  idle(): Promise<void>;
}

/** The v6 form of an operation as the client sent it (literals and all), with the moves to compare by. */
export interface ShadowForm {
  text: string;
  moves: MovedPath[];
}

/** One answered request offered for a shadow run. */
export interface ShadowRequest {
  entry: CatalogEntry;
  form: () => ShadowForm | null;
  client: string | undefined;
  variables: Record<string, unknown> | undefined;
  context: Record<string, unknown> | undefined;
  operationName: string | undefined;
  /** The v5 answer as sent. */
  response: Answer;
  /** Settles once the answer has been sent; called only when this request is sampled. */
  responded?: () => PromiseLike<unknown>;
}

export interface V6Executor {
  execute(query: string, opts: { context?: Record<string, unknown>; variables?: Record<string, unknown>; operationName?: string; signal?: AbortSignal }): Promise<Answer>;
}

/** Each operation's v6 form, from one rewrite of its document (null: `v5-to-v6` leaves it for manual work). */
export function shadowForms(document: DocumentNode, text: string, schema: GraphQLSchema, index: FlatIndex): (operation: string | null) => ShadowForm | null {
  const rewrite = rewriteDocument(document, text, schema, index);
  if (rewrite.problems.length > 0) return () => null;
  const v6 = applyEdits(text, rewrite.edits);
  return (operation) => ({ text: v6, moves: movesOfOperation(rewrite.moves, operation) });
}

const nextTurn = () => new Promise<void>((resolve) => (globalThis.setImmediate ?? setTimeout)(resolve));
const noop = () => undefined;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function checkShare(name: string, value: number, max: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value > max) throw new RangeError(`shadow ${name} must be a number from 0 to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

export function shadowRunner(
  handler: V6Executor,
  usage: Pick<UsageRecorder, 'recordShadow'>,
  options?: ShadowOptions,
): ShadowRunner & {
  /** Whether to offer this request: the sample's draw, made before a request's offer is built. */
  sampled(): boolean;
  /** Runs the request's v6 form after its answer is sent, unless a bound drops it. */
  offer(request: ShadowRequest): void;
} {
  const enabled = options !== undefined;
  const sample = checkShare('sample', options?.sample ?? DEFAULT_SHADOW_SAMPLE, 1);
  const maxConcurrent = checkShare('maxConcurrent', options?.maxConcurrent ?? DEFAULT_SHADOW_CONCURRENCY, Infinity);
  const budgetMs = checkShare('budgetMs', options?.budgetMs ?? DEFAULT_SHADOW_BUDGET_MS, Infinity);
  const random = options?.random ?? Math.random;
  const now = options?.now ?? (() => performance.now());
  const stats = { same: 0, differs: 0, failed: 0, timedOut: 0, busy: 0, budget: 0 };
  let running = 0;
  let lastError: { message: string; at: number } | null = null;
  let warnedAt = -Infinity;
  let waiters: Array<() => void> = [];
  // The minute the budget is counted in, and the time spent in it.
  let windowStart = now();
  let spent = 0;
  const budgetLeft = () => {
    const t = now();
    if (t - windowStart >= MINUTE) {
      windowStart = t;
      spent = 0;
    }
    return budgetMs - spent;
  };

  // Runs executing now share one abort signal, armed while any executes: one timer for them all
  // (a signal of its own per run, AbortSignal.timeout, cost 40 µs on Node 20, more than a small
  // query's run). Runs executing without a break for the budget left have together spent it.
  let executing = 0;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startExecuting = (left: number): AbortSignal | undefined => {
    if (!Number.isFinite(left)) return undefined;
    if (!controller || controller.signal.aborted) controller = new AbortController();
    if (executing++ === 0) {
      const armed = controller;
      timer = setTimeout(() => {
        // Spent: no run starts again this minute (those under way have not counted their time yet).
        spent = Math.max(spent, budgetMs);
        armed.abort(new Error('the shadow runs spent their time budget for the minute'));
      }, Math.max(1, Math.ceil(left)));
      timer.unref?.();
    }
    return controller.signal;
  };
  const stopExecuting = (signal: AbortSignal | undefined) => {
    if (signal && --executing === 0) clearTimeout(timer);
  };

  const onError =
    options?.onError ??
    ((error: unknown) => {
      if (Date.now() - warnedAt < MINUTE) return;
      warnedAt = Date.now();
      console.warn(`ergraph compat: a shadow run failed (${messageOf(error)}); the client's answer was sent before it and is not affected`);
    });

  function fail(error: unknown): void {
    stats.failed++;
    lastError = { message: messageOf(error), at: Date.now() };
    try {
      onError(error);
    } catch {
      // A failing error handler is still not the client's problem.
    }
  }

  async function run(request: ShadowRequest, form: ShadowForm): Promise<void> {
    await (request.responded ? Promise.resolve(request.responded()).then(noop, noop) : nextTurn());
    const left = budgetLeft();
    if (left <= 0) {
      stats.budget++;
      return;
    }
    const signal = startExecuting(left);
    const started = now();
    try {
      const answer = await handler.execute(form.text, {
        context: request.context,
        variables: request.variables,
        operationName: request.operationName,
        signal,
      });
      if (signal?.aborted) {
        stats.timedOut++;
        return;
      }
      const { path } = compareAnswers(request.response, answer, form.moves);
      if (path === undefined) stats.same++;
      else stats.differs++;
      usage.recordShadow(request.entry, request.client, path === undefined ? { same: true } : { same: false, path });
    } catch (error) {
      if (signal?.aborted) {
        stats.timedOut++;
        return;
      }
      throw error;
    } finally {
      spent += now() - started;
      stopExecuting(signal);
    }
  }

  return {
    enabled,
    sampled: () => enabled && random() < sample,
    offer(request) {
      if (!enabled || request.entry.kind !== 'query') return;
      if (running >= maxConcurrent) {
        stats.busy++;
        return;
      }
      if (budgetLeft() <= 0) {
        stats.budget++;
        return;
      }
      let form: ShadowForm | null;
      try {
        // Built once per document; none when v5-to-v6 leaves the operation for manual work.
        form = request.form();
      } catch (error) {
        fail(error);
        return;
      }
      if (!form) return;
      running++;
      run(request, form)
        .catch(fail)
        .finally(() => {
          running--;
          if (running === 0) {
            const done = waiters;
            waiters = [];
            for (const resolve of done) resolve();
          }
        });
    },
    status: () => ({
      enabled,
      sample,
      same: stats.same,
      differs: stats.differs,
      failed: stats.failed,
      timedOut: stats.timedOut,
      dropped: { busy: stats.busy, budget: stats.budget },
      running,
      lastError: lastError ? { message: lastError.message, at: new Date(lastError.at).toISOString() } : null,
    }),
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
