/**
 * Cancellation of one run: the caller's `AbortSignal` (a client that went away) or the run's own
 * budget (a deadline that passed) stops the work. What is stopped: no loader batch starts after
 * it, and the signal loaders were given aborts, so a loader that passes it on (the SQL
 * integration does, to node-postgres and postgres.js) cancels its statement on the server.
 *
 * The run's `AbortSignal` is made on first use: creating one costs more than a small operation's
 * whole fixed cost on Node 20, and most runs (in-memory loaders, PGlite) never ask for it.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoaderInfo } from '../er/relationship.js';

export type { LoaderInfo };

/** Thrown instead of starting work once a run is cancelled. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(readonly reason: unknown) {
    super(`The operation was cancelled${reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : ''}`);
  }
}

export class Cancellation {
  private controller: AbortController | undefined;
  private reason: unknown;
  private done = false;
  private readonly listener: (() => void) | undefined;
  /** Called once, when the run is cancelled (the executor's budget stops its waits). */
  onAbort: ((reason: unknown) => void) | undefined;

  constructor(private readonly external?: AbortSignal) {
    if (external) {
      if (external.aborted) this.abort(external.reason);
      else external.addEventListener('abort', (this.listener = () => this.abort(external.reason)), { once: true });
    }
  }

  /** Whether a caller's signal can cancel the run (otherwise only the run's own budget can). */
  get cancellable(): boolean {
    return this.external !== undefined;
  }

  get aborted(): boolean {
    return this.done;
  }

  /** Why it was cancelled (the caller's abort reason, or the budget's error). */
  get cause(): unknown {
    return this.reason;
  }

  /** The run's signal, made on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reason = reason ?? new Error('aborted');
    this.controller?.abort(this.reason);
    this.onAbort?.(this.reason);
  }

  /** Throws `CancelledError` once cancelled: called before any batch starts. */
  throwIfAborted(): void {
    if (this.done) throw new CancelledError(this.reason);
  }

  /** The run is over: stop listening to the caller's signal (it may outlive many runs). */
  dispose(): void {
    if (this.listener) this.external!.removeEventListener('abort', this.listener);
    this.onAbort = undefined;
  }
}

const requestSignals = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `fn` on behalf of a request whose signal aborts when its client goes away (a use-case
 * route): a `Resolver` that `fn` makes and gives no `signal` of its own is cancelled by it, so a
 * service method's loaders stop without the method passing the signal down.
 */
export function withRequestSignal<T>(signal: AbortSignal, fn: () => T): T {
  return requestSignals.run(signal, fn);
}

/** The signal of the request this code runs for (`withRequestSignal`), if any. */
export const requestSignal = (): AbortSignal | undefined => requestSignals.getStore();
