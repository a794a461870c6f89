/**
 * OpenTelemetry metrics: nothing is reported (and nothing fails) until the application installs an
 * SDK; then compat use per field and client and every GraphQL operation reach its exporter.
 */
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { createErgraphHandler } from './ergraph-domain.js';

const post = (app: ReturnType<typeof compatApp>, query: string, client?: string) =>
  app.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(client !== undefined ? { 'x-client-name': client } : {}) },
    body: JSON.stringify({ query }),
  });

describe('OpenTelemetry metrics', () => {
  it('are a no-op without an SDK, then reach the installed SDK’s exporter', async () => {
    const { handler } = createErgraphHandler();
    const app = compatApp(createCompatHandler(handler));
    // Before the SDK: served as usual, and nothing is kept anywhere for later.
    expect((await post(app, '{ userGetAll { id } }', 'early')).status).toBe(200);

    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    expect(metrics.setGlobalMeterProvider(provider)).toBe(true);
    try {
      await post(app, '{ userGetAll { id } userById(id: 1) { name } }', 'web');
      await post(app, '{ userGetAll { id } }', 'web');
      await post(app, 'query Named { userById(id: 2) { name } }', `ios\u0007${'x'.repeat(10_000)}`);
      await handler.execute('{ User { byId(id: 99) { name } } }');
      await handler.execute('query Broken { User { byId(id: "x") { name } } }'); // invalid: not executed, not counted
      await reader.forceFlush();

      const all: MetricData[] = exporter.getMetrics().flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
      const find = (name: string) => all.filter((m) => m.descriptor.name === name).at(-1)!;

      const usage = find('ergraph.compat.usage');
      const points = usage.dataPoints.map((p) => [p.attributes['ergraph.coordinate'], p.attributes['ergraph.client'], p.value]);
      expect(points.sort()).toEqual(
        [
          ['Query.userById', 'web', 1],
          ['Query.userGetAll', 'web', 2],
          ['Query.userById', `ios\\u0007${'x'.repeat(91)}`, 1],
        ].sort(),
      );
      expect(points.some(([, client]) => client === 'early')).toBe(false);

      const operations = find('ergraph.graphql.operations');
      const ops = operations.dataPoints.map((p) => [p.attributes['graphql.operation.type'], p.attributes['graphql.operation.name'] ?? '', p.attributes['ergraph.graphql.outcome'], p.value]);
      expect(ops.sort()).toEqual(
        [
          ['query', '', 'ok', 3], // two compat requests without a name, and the v6 one (no errors: byId 99 is null)
          ['query', 'Named', 'ok', 1],
        ].sort(),
      );
      const duration = find('ergraph.graphql.operation.duration') as HistogramMetricData;
      expect(duration.descriptor.unit).toBe('s');
      const counts = duration.dataPoints.reduce((n, p) => n + p.value.count, 0);
      expect(counts).toBe(4);
      expect(duration.dataPoints.every((p) => p.value.sum! >= 0 && p.value.sum! < 10)).toBe(true);
    } finally {
      await provider.shutdown();
      metrics.disable();
    }
  });
});
