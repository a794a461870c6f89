/**
 * OpenTelemetry metrics, through `@opentelemetry/api` only: without an SDK installed by the
 * application every call lands on the API's no-op meter. With one (e.g. `@opentelemetry/sdk-metrics`
 * and an OTLP or Prometheus exporter), ergraph reports:
 *
 * - `ergraph.graphql.operations` (counter) and `ergraph.graphql.operation.duration` (histogram, s):
 *   every executed GraphQL operation, by `graphql.operation.type`, `graphql.operation.name` and
 *   `ergraph.graphql.outcome` (`ok` | `errors`);
 * - `ergraph.compat.usage` (counter): each use of a retiring schema coordinate (a v5 flat field,
 *   or a deprecated v6 field), by `ergraph.coordinate` and `ergraph.client`.
 *
 * Names that come from clients (operation and client names) are cut and escaped before they
 * become attributes; the SDK's per-instrument cardinality limit bounds how many series they make.
 */
import { metrics, type Counter, type Histogram, type MeterProvider } from '@opentelemetry/api';
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';

interface Instruments {
  operations: Counter;
  duration: Histogram;
  usage: Counter;
}

let provider: MeterProvider | undefined;
let instruments: Instruments | undefined;

/**
 * The API keeps no proxy for meters: a meter taken before the application registers its SDK stays
 * a no-op forever. So instruments are re-made whenever the global provider changes.
 */
function current(): Instruments {
  const now = metrics.getMeterProvider();
  if (now !== provider || !instruments) {
    provider = now;
    const meter = now.getMeter('ergraph');
    instruments = {
      operations: meter.createCounter('ergraph.graphql.operations', { description: 'GraphQL operations executed' }),
      duration: meter.createHistogram('ergraph.graphql.operation.duration', { description: 'GraphQL operation execution time', unit: 's' }),
      usage: meter.createCounter('ergraph.compat.usage', { description: 'Uses of retiring schema coordinates (v5 flat fields, deprecated v6 fields)' }),
    };
  }
  return instruments;
}

const MAX_NAME = 100;
const attributeText = (s: string) => s.slice(0, MAX_NAME).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  let found: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operationName ? d.name?.value === operationName : !found) found = d;
    else if (!operationName) return undefined;
  }
  return found;
}

/** One executed operation; `startedAt` from `performance.now()`. Returns `result`, so the call wraps a return. */
export function recordOperation<R extends { errors?: readonly unknown[] | null }>(
  document: DocumentNode,
  operationName: string | null | undefined,
  startedAt: number,
  result: R,
): R {
  const { operations, duration } = current();
  const operation = operationOf(document, operationName);
  const attributes: Record<string, string> = {
    'graphql.operation.type': operation?.operation ?? 'unknown',
    'ergraph.graphql.outcome': result.errors && result.errors.length > 0 ? 'errors' : 'ok',
  };
  const name = operation?.name?.value;
  if (name) attributes['graphql.operation.name'] = attributeText(name);
  operations.add(1, attributes);
  duration.record((performance.now() - startedAt) / 1000, attributes);
  return result;
}

/** Uses of retiring coordinates by one client (the client name already made safe by the caller). */
export function recordCoordinateUse(coordinates: readonly string[], client: string): void {
  if (coordinates.length === 0) return;
  const { usage } = current();
  for (const coordinate of coordinates) usage.add(1, { 'ergraph.coordinate': coordinate, 'ergraph.client': client });
}
