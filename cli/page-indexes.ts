/**
 * `ergraph doctor --app`: warn about page orders without an index (src/orm/indexes.ts says which
 * index each order wants). A warning, not a failure: the pages are right either way, only slower
 * as the tables grow, and the index may come from migrations the Drizzle schema does not show.
 */
import type { McpApp } from '../src/mcp/apps.js';
import { pageIndexAdvice } from '../src/orm/indexes.js';

/** A doctor checklist line (the shape of doctor.ts's `Check`; not imported, so the two modules form no circle). */
interface Check {
  status: 'ok' | 'warn';
  label: string;
  detail?: string[];
}

export function pageIndexChecks(app: McpApp): Check[] {
  const diagram = (app.handler as { diagram?: { entities?: readonly { relationships: readonly unknown[] }[] } }).diagram;
  if (!diagram?.entities) return [];
  const advice = pageIndexAdvice({ entities: diagram.entities });
  if (!advice.length) return [];
  const missing = advice.filter((a) => !a.indexed);
  if (!missing.length) return [{ status: 'ok', label: `app ${app.name}: every page order has an index (${advice.length} checked)` }];
  return [
    {
      status: 'warn',
      label: `app ${app.name}: ${missing.length} of ${advice.length} page orders have no index in the Drizzle schema (each page then sorts every child of its parent)`,
      detail: missing.map((a) => `${a.relation}${a.order === 'default' ? '' : ` by '${a.order}'`}: ${a.create}`),
    },
  ];
}
