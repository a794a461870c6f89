/**
 * Tracing and timings of one run (a GraphQL operation, or one `Resolver.resolve`): an
 * OpenTelemetry span for the run, one per level, one per loader batch (with its key count) —
 * through `@opentelemetry/api`, so without an SDK registered they cost next to nothing — and,
 * when asked (`debug`), the same as numbers a response can carry in `extensions.timings`.
 *
 * Spans are parented explicitly (run → level → batch), not through the active context: a batch
 * function runs when DataLoader decides, and an application need not install a context manager.
 * A batch span is the active span while its loader runs, so a SQL layer's spans nest under it.
 */
import { performance } from 'node:perf_hooks';
import { context, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/** A proxy until an SDK registers a provider; it delegates from then on. */
const tracer = trace.getTracer('ergraph');

export interface LevelTiming {
  level: number;
  ms: number;
  /** Fields (or model steps) the level waited for. */
  fields: number;
}

export interface LoaderTiming {
  loader: string;
  batches: number;
  keys: number;
  /** Sum over the loader's batches (they may overlap with other loaders'). */
  ms: number;
}

export interface Timings {
  ms: number;
  levels: LevelTiming[];
  loaders: LoaderTiming[];
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function fail(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

export class RunTrace {
  private readonly span: Span;
  /** Without an SDK (or when sampled out) no level or batch span is made at all. */
  private readonly recording: boolean;
  private current: Context;
  /** Read only for the timings (`debug`): a clock read per run otherwise. */
  private readonly started: number;
  private readonly levels: LevelTiming[] | undefined;
  private readonly loaders: Map<string, LoaderTiming> | undefined;

  constructor(name: string, attributes: Attributes, debug: boolean, parent: Context = context.active()) {
    this.span = tracer.startSpan(name, { attributes }, parent);
    this.recording = this.span.isRecording();
    this.current = this.recording ? trace.setSpan(parent, this.span) : parent;
    this.started = debug ? performance.now() : 0;
    if (debug) {
      this.levels = [];
      this.loaders = new Map();
    }
  }

  /** Name the run's span once it is known what runs (`query GetUser`). */
  describe(name: string, attributes: () => Attributes): void {
    if (!this.recording) return;
    this.span.updateName(name);
    this.span.setAttributes(attributes());
  }


  /**
   * Run one level (`fields` things waited for) under its span. Levels nest: response models
   * resolved inside a GraphQL level get their own levels below it.
   */
  level<T>(level: number, fields: number, run: () => Promise<T>): Promise<T> {
    // Not async: without a recording span or timings this is on every level's path, and an
    // async wrapper would add a promise and a tick to each.
    if (!this.recording && !this.levels) return run();
    return this.tracedLevel(level, fields, run);
  }

  private async tracedLevel<T>(level: number, fields: number, run: () => Promise<T>): Promise<T> {
    const parent = this.current;
    const span = tracer.startSpan('ergraph.level', { attributes: { 'ergraph.level': level, 'ergraph.level.fields': fields } }, parent);
    const started = this.levels ? performance.now() : 0;
    this.current = trace.setSpan(parent, span);
    try {
      return await run();
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      span.end();
      this.current = parent;
      this.levels?.push({ level, ms: round(performance.now() - started), fields });
    }
  }

  /** Run one loader batch under its span (a child of the level running now). */
  batch<T>(loader: string, keys: number, run: () => PromiseLike<T> | T): Promise<T> {
    if (!this.recording && !this.loaders) return Promise.resolve(run());
    return this.tracedBatch(loader, keys, run);
  }

  private async tracedBatch<T>(loader: string, keys: number, run: () => PromiseLike<T> | T): Promise<T> {
    const span = tracer.startSpan('ergraph.loader.batch', { attributes: { 'ergraph.loader': loader, 'ergraph.loader.keys': keys } }, this.current);
    const started = this.loaders ? performance.now() : 0;
    try {
      return await context.with(trace.setSpan(this.current, span), run);
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      span.end();
      if (this.loaders) {
        let timing = this.loaders.get(loader);
        if (!timing) this.loaders.set(loader, (timing = { loader, batches: 0, keys: 0, ms: 0 }));
        timing.batches++;
        timing.keys += keys;
        timing.ms = round(timing.ms + performance.now() - started);
      }
    }
  }

  /** End the run's span; the timings when `debug` was asked for. */
  end(attributes: Attributes = {}, error?: unknown): Timings | undefined {
    this.span.setAttributes(attributes);
    if (error !== undefined) fail(this.span, error);
    this.span.end();
    if (!this.levels) return undefined;
    return { ms: round(performance.now() - this.started), levels: this.levels, loaders: [...this.loaders!.values()] };
  }
}
