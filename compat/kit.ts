/**
 * The migration kit of one client: from the operation catalog, every operation it sent to the v5
 * endpoint with its v6 text, the response paths its code must read instead, the verdict of the
 * shadow runs of that v6 form on its own traffic (with their date and number), and for persisted
 * operations the v6 id to send. One document to hand to each partner.
 *
 * `migrationKit(store, { client })` builds the data (JSON); `kitMarkdown(kit)` renders the
 * document; `compatKit({ database, client })` is `ergraph compat kit` as a function.
 */
import type { OperationRow } from './catalog.js';
import { md, mdCode } from './escape.js';
import { openUsageStore } from './usage-open.js';
import type { UsageStore } from './usage-store.js';

/**
 * What the shadow runs say of an operation's v6 form: `same` (every run answered the same),
 * `differs`, `not run` (no run sampled yet), `not shadowed` (a mutation: never run twice), or
 * `no v6 form` (`v5-to-v6` leaves it for manual work).
 */
export type OperationVerdict = 'same' | 'differs' | 'not run' | 'not shadowed' | 'no v6 form';

export function operationVerdict(row: OperationRow): OperationVerdict {
  if ('problem' in row.v6) return 'no v6 form';
  if (row.kind !== 'query') return 'not shadowed';
  if (row.shadow.differs > 0) return 'differs';
  return row.shadow.same > 0 ? 'same' : 'not run';
}

/** An operation's name as reports print it. */
export const operationLabel = (row: Pick<OperationRow, 'kind' | 'operationName'>): string => `${row.kind} ${row.operationName ?? '(anonymous)'}`;

/** Why an operation does not (yet) prove its v6 form, in a few words; undefined when it does. */
export function notProven(row: OperationRow): string | undefined {
  switch (operationVerdict(row)) {
    case 'same':
      return undefined;
    case 'differs':
      return `its v6 form answered differently at ${row.shadow.path} (${row.shadow.differs} of ${row.shadow.same + row.shadow.differs} runs)`;
    case 'not run':
      return 'no shadow run of its v6 form yet';
    case 'not shadowed':
      return 'a mutation: never shadowed (prove it with ergraph-migrate verify --mutations on a test target)';
    default:
      return `no v6 form: ${'problem' in row.v6 ? row.v6.problem : ''}`;
  }
}

export interface KitOperation {
  operationId: string;
  operationName: string | null;
  kind: OperationRow['kind'];
  /** Requests in the catalog, first and last seen. */
  count: number;
  firstSeen: string;
  lastSeen: string;
  /** The v5 fields it uses. */
  fields: string[];
  /** The text as sent (normalised, literals masked). */
  v5: string;
  v6: { text: string; moves: Array<{ from: string; to: string }> } | { problem: string };
  shadow: { verdict: OperationVerdict; runs: number; same: number; differs: number; path: string | null; lastRunAt: string | null };
  /** For an operation sent by id: the id, and the id its v6 document has (null when there is none to map). */
  persisted: { id: string; v6Id: string | null; note: string } | null;
}

export interface MigrationKit {
  client: string;
  generatedAt: string;
  store: { description: string; ok: boolean; error?: string };
  summary: Record<OperationVerdict, number> & { operations: number };
  operations: KitOperation[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const APQ_HASH = /^(sha256:)?[0-9a-f]{64}$/i;

function persistedOf(row: OperationRow): KitOperation['persisted'] {
  if (row.persistedId === null) return null;
  if (row.v6PersistedId !== null) return { id: row.persistedId, v6Id: row.v6PersistedId, note: 'send the v6 id: the rewritten manifest holds its document' };
  const note = APQ_HASH.test(row.persistedId)
    ? 'Automatic Persisted Queries: the client hashes its v6 document itself, and registers it on first use'
    : 'no v6 id in the mapping: register the v6 document under an id of your own';
  return { id: row.persistedId, v6Id: null, note };
}

export function kitOperation(row: OperationRow): KitOperation {
  const path = (p: readonly string[]) => `data.${p.join('.')}`;
  return {
    operationId: row.operationId,
    operationName: row.operationName,
    kind: row.kind,
    count: row.count,
    firstSeen: iso(row.firstSeen)!,
    lastSeen: iso(row.lastSeen)!,
    fields: row.fields,
    v5: row.text,
    v6: 'text' in row.v6 ? { text: row.v6.text, moves: row.v6.moves.map((m) => ({ from: path(m.from), to: path(m.to) })) } : { problem: row.v6.problem },
    shadow: {
      verdict: operationVerdict(row),
      runs: row.shadow.same + row.shadow.differs,
      same: row.shadow.same,
      differs: row.shadow.differs,
      path: row.shadow.path,
      lastRunAt: iso(row.shadow.lastRunAt),
    },
    persisted: persistedOf(row),
  };
}

export interface MigrationKitOptions {
  client: string;
  now?: Date;
}

/** The kit of `client` from a store's catalog (every operation it keeps for that client, most used first). */
export async function migrationKit(store: UsageStore, options: MigrationKitOptions): Promise<MigrationKit> {
  const summary = { operations: 0, same: 0, differs: 0, 'not run': 0, 'not shadowed': 0, 'no v6 form': 0 };
  const base = { client: options.client, generatedAt: (options.now ?? new Date()).toISOString(), summary, operations: [] as KitOperation[] };
  if (!store.readOperations) return { ...base, store: { description: store.description, ok: false, error: 'this usage store keeps no operation catalog' } };
  let rows: OperationRow[];
  try {
    rows = await store.readOperations({ client: options.client });
  } catch (error) {
    return { ...base, store: { description: store.description, ok: false, error: error instanceof Error ? error.message : String(error) } };
  }
  const operations = rows.map(kitOperation);
  for (const op of operations) summary[op.shadow.verdict]++;
  summary.operations = operations.length;
  return { ...base, store: { description: store.description, ok: true }, operations };
}

// ---- Markdown ------------------------------------------------------------------------------

const day = (s: string | null) => (s ? s.slice(0, 10) : 'never');
/** A fence longer than any run of backticks in the text. */
const fence = (text: string, lang = 'graphql') => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

/** Each verdict in a few words, for the kit's document and page. */
export const VERDICT: Record<OperationVerdict, string> = {
  same: '✅ answers the same',
  differs: '⛔ answers differently',
  'not run': '⏳ not run yet',
  'not shadowed': '➖ not shadowed (a mutation)',
  'no v6 form': '✋ needs manual work',
};

function shadowLine(op: KitOperation): string {
  const s = op.shadow;
  const runs = `${s.runs} run${s.runs === 1 ? '' : 's'}`;
  switch (s.verdict) {
    case 'same':
      return `${VERDICT.same} in ${runs} on your traffic (last ${day(s.lastRunAt)})`;
    case 'differs':
      return `${VERDICT.differs} in ${s.differs} of ${runs} (last ${day(s.lastRunAt)}), first at ${mdCode(s.path ?? '?')}: the v6 endpoint's team is looking into it`;
    case 'not run':
      return `${VERDICT['not run']}: no request of this operation has been sampled since the v5 endpoint began shadowing`;
    case 'not shadowed':
      return `${VERDICT['not shadowed']}: mutations are never run twice; try the v6 text against a test environment`;
    default:
      return VERDICT['no v6 form'];
  }
}

export function kitMarkdown(kit: MigrationKit): string {
  const s = kit.summary;
  const lines = [
    `# Moving ${md(kit.client)} from the v5 GraphQL endpoint to v6`,
    '',
    `${s.operations} operation${s.operations === 1 ? '' : 's'} sent by ${md(kit.client)}, as the v5 endpoint recorded them up to ${day(kit.generatedAt)}: ` +
      `${s.same} proven to answer the same in v6 on your own traffic, ${s.differs} answering differently, ${s['not run']} not run yet, ` +
      `${s['not shadowed']} mutations, ${s['no v6 form']} needing manual work.`,
    '',
    'For each: the text to send instead, and the response paths your code must read instead (everything below those paths is unchanged). ' +
      'Literal values are masked (numbers `0`, strings `""`, lists `[]`, objects `{}`): the endpoint keeps no value you sent. Keep your own; variables are unchanged.',
  ];
  if (!kit.store.ok) lines.push('', `> The operation catalog could not be read: ${md(kit.store.error ?? '')}`);
  kit.operations.forEach((op, i) => {
    lines.push('', `## ${i + 1}. ${mdCode(`${op.kind} ${op.operationName ?? '(anonymous)'}`)} — ${op.count} request${op.count === 1 ? '' : 's'}, last ${day(op.lastSeen)}`, '');
    lines.push(`Shadow verdict: ${shadowLine(op)}`);
    if (op.persisted) lines.push('', `Persisted id ${mdCode(op.persisted.id)} → ${op.persisted.v6Id ? `v6 id ${mdCode(op.persisted.v6Id)}` : '—'} (${op.persisted.note})`);
    lines.push('', 'Sent now (v5):', '', fence(op.v5));
    if ('problem' in op.v6) {
      lines.push('', `No v6 text is written for it: ${md(op.v6.problem)}`);
      return;
    }
    lines.push('', 'Send instead (v6):', '', fence(op.v6.text));
    if (op.v6.moves.length > 0) {
      lines.push('', 'Response paths that move:', '', '| v5 reads | v6 reads |', '|---|---|');
      for (const m of op.v6.moves) lines.push(`| ${mdCode(m.from)} | ${mdCode(m.to)} |`);
    } else lines.push('', 'No response path moves.');
  });
  if (kit.operations.length === 0 && kit.store.ok) lines.push('', `No operation of ${md(kit.client)} is in the catalog.`);
  return `${lines.join('\n')}\n`;
}

// ---- `ergraph compat kit` as a function ------------------------------------------------------

export interface CompatKitOptions {
  /** A usage database URL (`postgres://…`, `pglite:<dir>`) or an open store. */
  database: string | UsageStore;
  client: string;
  format?: 'md' | 'json';
  now?: Date;
}

/** The kit as text; `clients`: the clients the catalog holds, when it holds none of `client`'s operations. */
export async function compatKit(options: CompatKitOptions): Promise<{ text: string; kit: MigrationKit; clients?: string[] }> {
  const format = options.format ?? 'md';
  if (format !== 'md' && format !== 'json') throw new RangeError(`format must be md or json, got ${JSON.stringify(format)}`);
  const opened = typeof options.database === 'string';
  const store = typeof options.database === 'string' ? await openUsageStore(options.database, { existing: true }) : options.database;
  try {
    const kit = await migrationKit(store, { client: options.client, now: options.now });
    const text = format === 'json' ? `${JSON.stringify(kit, null, 2)}\n` : kitMarkdown(kit);
    if (!kit.store.ok || kit.operations.length > 0) return { text, kit };
    const clients = [...new Set((await store.readOperations!()).map((r) => r.client))].sort();
    return { text, kit, clients };
  } finally {
    if (opened) await store.close().catch(() => undefined);
  }
}
