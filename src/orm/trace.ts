/**
 * One OpenTelemetry span per SQL statement the ORM integration runs (`@opentelemetry/api`: a
 * no-op until the application registers an SDK). The span is started as the active span's
 * child, so with a context manager it nests under the executor's loader-batch span. It carries
 * the statement text — values travel as parameters and never appear in it — and the row count,
 * named as OpenTelemetry's database conventions name them.
 */
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('ergraph');

/**
 * Run one statement (`run`) inside a span named `SELECT <table>`. `text` renders the statement a
 * second time, so it is only called when the span is recorded (an SDK is installed and sampled it).
 */
export function traced<R>(table: string, loader: string | undefined, text: () => string, run: () => PromiseLike<R>): Promise<R> {
  return tracer.startActiveSpan(`SELECT ${table}`, { kind: SpanKind.CLIENT }, async (span: Span) => {
    if (span.isRecording()) {
      span.setAttributes({
        'db.system.name': 'postgresql',
        'db.operation.name': 'SELECT',
        'db.collection.name': table,
        'db.query.text': text(),
        ...(loader ? { 'ergraph.loader': loader } : {}),
      });
    }
    try {
      const rows = await run();
      // Statements whose rows were handed on one by one resolve with their number instead.
      const count = Array.isArray(rows) ? rows.length : typeof rows === 'number' ? rows : undefined;
      if (count !== undefined) span.setAttribute('db.response.returned_rows', count);
      return rows;
    } catch (error) {
      // Drizzle's message quotes the parameters: the span gets the error's kind only.
      const e = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
      const kind = String(e.cause?.code ?? e.code ?? e.name ?? 'Error');
      span.setAttribute('error.type', kind);
      span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
      throw error;
    } finally {
      span.end();
    }
  });
}
