/**
 * The proof behind a retirement verdict: for a v5 field still used in the window, whether each
 * client that used it has a way off it that was shown to work. A client is clear when it stopped
 * using the field (no use in the window's recent span, the last 7 days, which its trend reads), or
 * when every operation of it that uses the field (in the operation catalog, seen in the window)
 * has a v6 form whose shadow runs all answered the same. Otherwise it holds the field back, and
 * the reason names the operation: no v6 form, a mutation (never shadowed), no run yet, or the
 * path where its v6 form answered differently.
 */
import type { OperationRow } from './catalog.js';
import { notProven, operationLabel } from './kit.js';
import type { UsageRow } from './usage-store.js';

export interface ClientProof {
  client: string;
  /** `same`: a v6 form proven on its traffic; `stopped`: no recent use; `holds`: it holds the field back (`reason`). */
  status: 'same' | 'stopped' | 'holds';
  reason?: string;
  /** Its operations in the catalog that use the field, and their shadow runs. */
  operations: number;
  runs: number;
}

export interface FieldProof {
  /** Clients holding the field back first; at most the report's `topClients`. */
  clients: ClientProof[];
  /** Clients not listed. */
  more: number;
  /** Clients holding it back, listed or not: none means the field is ready to retire. */
  holding: number;
}

const NOT_IN_CATALOG = 'no operation of it that uses this field is in the catalog (evicted, or sent before the catalog was kept)';

/**
 * `rows`: the field's use in the window; `operations`: the catalog's operations seen in the window,
 * by client; `stopped(rows)`: whether a client's use of it stopped.
 */
export function fieldProof(
  coordinate: string,
  rows: readonly UsageRow[],
  operations: ReadonlyMap<string, readonly OperationRow[]>,
  stopped: (rows: readonly UsageRow[]) => boolean,
  top: number,
): FieldProof {
  const byClient = new Map<string, UsageRow[]>();
  for (const r of rows) (byClient.get(r.client) ?? byClient.set(r.client, []).get(r.client)!).push(r);
  const proofs: ClientProof[] = [];
  for (const [client, own] of byClient) {
    const ops = (operations.get(client) ?? []).filter((o) => o.fields.includes(coordinate));
    const counts = { operations: ops.length, runs: ops.reduce((n, o) => n + o.shadow.same + o.shadow.differs, 0) };
    if (stopped(own)) {
      proofs.push({ client, status: 'stopped', ...counts });
      continue;
    }
    if (ops.length === 0) {
      proofs.push({ client, status: 'holds', reason: NOT_IN_CATALOG, ...counts });
      continue;
    }
    const unproven = ops.filter((o) => notProven(o) !== undefined);
    if (unproven.length === 0) {
      proofs.push({ client, status: 'same', ...counts });
      continue;
    }
    const first = unproven[0]!;
    const more = unproven.length > 1 ? ` (and ${unproven.length - 1} more operation${unproven.length === 2 ? '' : 's'})` : '';
    proofs.push({ client, status: 'holds', reason: `${operationLabel(first)}: ${notProven(first)}${more}`, ...counts });
  }
  proofs.sort((a, b) => Number(b.status === 'holds') - Number(a.status === 'holds') || (a.client < b.client ? -1 : a.client > b.client ? 1 : 0));
  return { clients: proofs.slice(0, top), more: Math.max(0, proofs.length - top), holding: proofs.filter((p) => p.status === 'holds').length };
}

/** Every client holding a field back, and why: the report's "what holds fields back". */
export function heldBack(fields: ReadonlyArray<{ coordinate: string; proof: FieldProof | null }>): Array<{ field: string; client: string; reason: string }> {
  return fields.flatMap((f) => (f.proof?.clients ?? []).filter((c) => c.status === 'holds').map((c) => ({ field: f.coordinate, client: c.client, reason: c.reason ?? '' })));
}

/** "ready to retire: …": every client cleared, how. */
export function readyMessage(proof: FieldProof, days: number): string {
  const same = proof.clients.filter((c) => c.status === 'same');
  const stopped = proof.clients.filter((c) => c.status === 'stopped');
  const parts: string[] = [];
  if (same.length > 0) parts.push(`has a v6 form that answers the same (${same.map((c) => `${c.client}: ${c.runs} run${c.runs === 1 ? '' : 's'}`).join(', ')})`);
  if (stopped.length > 0) parts.push(`stopped using it (${stopped.map((c) => c.client).join(', ')})`);
  return `ready to retire: every client that used it in the last ${days} days ${parts.join(' or ')}${proof.more > 0 ? `, ${proof.more} more` : ''}`;
}
