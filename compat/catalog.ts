/**
 * The operation catalog: each distinct v5 operation the endpoint served, per client — its text,
 * name, the v5 fields it uses, how often and when it was seen, its v6 form (the text
 * `ergraph-migrate v5-to-v6` would write and the response paths that move) and the verdicts of
 * its shadow runs. It is what the migration kit hands a client and what the retirement verdict's
 * proof rests on.
 *
 * What is kept of a request is its document, normalised, never a value it carried: the operation
 * and the fragments it spreads, printed by graphql-js (so whitespace, comments and commas do not
 * make two operations of one), with every literal masked as API usage reporting does (numbers
 * `0`, strings `""`, lists `[]`, objects `{}`; enums, booleans and null stay, as they choose
 * shape rather than carry data). Variables are never read. A script that writes `userById(id: 42)`
 * into its text for each user is one operation, not one per user, and no id reaches the store.
 *
 * The catalog is bounded, by count and by the bytes of its texts, least used out first (among
 * equally used, the one seen longest ago); the stores apply the bound on every write and a
 * recorder's buffer between writes holds no more.
 */
import { createHash } from 'node:crypto';
import {
  Kind,
  parse,
  print,
  visit,
  type ASTVisitor,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { coalesce } from './coalesce.js';
import type { FlatIndex } from './flat-index.js';
import { applyEdits } from './v6-form/edits.js';
import { movesOfOperation, rewriteDocument } from './v6-form/document.js';

/** Operations a catalog keeps by default. */
export const DEFAULT_CATALOG_OPERATIONS = 1000;
/** Bytes of operation texts (v5 and v6, UTF-8) a catalog keeps by default. */
export const DEFAULT_CATALOG_BYTES = 4 * 1024 * 1024;

export interface CatalogBounds {
  /** Most operations kept (default 1000). */
  maxOperations?: number;
  /** Most bytes of operation texts kept, v5 and v6 (default 4 MiB). */
  maxBytes?: number;
}

export function catalogBounds(bounds: CatalogBounds = {}): Required<CatalogBounds> {
  const maxOperations = bounds.maxOperations ?? DEFAULT_CATALOG_OPERATIONS;
  const maxBytes = bounds.maxBytes ?? DEFAULT_CATALOG_BYTES;
  for (const [name, value] of [['maxOperations', maxOperations], ['maxBytes', maxBytes]] as const) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`catalog ${name} must be a whole number, got ${JSON.stringify(value)}`);
  }
  return { maxOperations, maxBytes };
}

/** A response path that moves: `['userGetAll']` under `data` in v5 is `['User', 'userGetAll']` in v6. */
export interface PathMove {
  from: string[];
  to: string[];
}

/** The v6 form of an operation, or why `v5-to-v6` leaves it for manual work. */
export type V6Form = { text: string; moves: PathMove[] } | { problem: string };

/** What shadow runs of an operation's v6 form found (about its current v6 form only). */
export interface ShadowTally {
  /** Runs whose answer was the same as the v5 one. */
  same: number;
  /** Runs whose answer differed. */
  differs: number;
  /** The first differing path of the latest differing run, e.g. `data.userById.name` (a path, never a value). */
  path: string | null;
  /** The latest run (epoch ms). */
  lastRunAt: number | null;
  /** The latest differing run (epoch ms). */
  lastDiffersAt: number | null;
}

/** One operation of one client, as the stores keep it. Times are epoch ms. */
export interface OperationRow {
  client: string;
  /** sha256 (hex) of `text`: with `client`, the row's key. */
  operationId: string;
  operationName: string | null;
  kind: 'query' | 'mutation' | 'subscription';
  /** The normalised text (literals masked). */
  text: string;
  /** The v5 fields it uses (schema coordinates). */
  fields: string[];
  /** The id the client sent instead of the text (an old manifest id, or an APQ hash), if it did. */
  persistedId: string | null;
  /** For an old manifest id: the id of its v6 document in the manifest `ergraph-migrate v5-to-v6` rewrote. */
  v6PersistedId: string | null;
  v6: V6Form;
  count: number;
  firstSeen: number;
  lastSeen: number;
  shadow: ShadowTally;
}

export interface OperationQuery {
  /** One client's operations only. */
  client?: string;
  /** Operations last seen at or after this time (epoch ms). */
  since?: number;
}

/** An operation as the compat handler prepared it: computed once per distinct document and operation. */
export interface CatalogEntry {
  operationId: string;
  operationName: string | null;
  kind: OperationRow['kind'];
  text: string;
  fields: readonly string[];
  v6: V6Form;
  /** UTF-8 bytes of the texts the bound counts. */
  bytes: number;
}

/** How a request named a persisted document. */
export interface PersistedUse {
  id: string;
  /** The v6 document's id in the rewritten manifest (old manifest ids only). */
  v6Id?: string | null;
}

export type ShadowOutcome = { same: true } | { same: false; path: string };

const masked: ASTVisitor = {
  IntValue: { leave: (node) => ({ ...node, value: '0' }) },
  FloatValue: { leave: (node) => ({ ...node, value: '0' }) },
  StringValue: { leave: (node) => ({ ...node, value: '', block: false }) },
  ListValue: { leave: (node) => ({ ...node, values: [] }) },
  ObjectValue: { leave: (node) => ({ ...node, fields: [] }) },
};

function spreadsOf(set: SelectionSetNode, into: Set<string>): void {
  for (const s of set.selections) {
    if (s.kind === Kind.FRAGMENT_SPREAD) into.add(s.name.value);
    else if (s.selectionSet) spreadsOf(s.selectionSet, into);
  }
}

/** The operation and the fragments it reaches, in document order, literals masked, printed. */
export function normalizedOperation(document: DocumentNode, operation: OperationDefinitionNode): string {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const reached = new Set<string>();
  const pending = [operation.selectionSet];
  while (pending.length > 0) {
    const found = new Set<string>();
    spreadsOf(pending.pop()!, found);
    for (const name of found) {
      const fragment = fragments.get(name);
      if (fragment && !reached.has(name)) {
        reached.add(name);
        pending.push(fragment.selectionSet);
      }
    }
  }
  const definitions = document.definitions.filter(
    (d): d is DefinitionNode => d === operation || (d.kind === Kind.FRAGMENT_DEFINITION && reached.has(d.name.value)),
  );
  // graphql 17 prints an empty object value as `{  }`, 16 as `{}`: one text (and id) for both, so
  // a fleet mid-upgrade keeps one row per operation. Strings are masked empty and selection sets
  // are never empty, so `{  }` can only be an object value here.
  return print(visit({ kind: Kind.DOCUMENT, definitions }, masked)).replaceAll('{  }', '{}');
}

const utf8 = (s: string | null | undefined) => (s ? Buffer.byteLength(s, 'utf8') : 0);

export const rowBytes = (row: Pick<OperationRow, 'text' | 'v6'>): number =>
  utf8(row.text) + ('text' in row.v6 ? utf8(row.v6.text) : utf8(row.v6.problem));

/**
 * The catalog entry of one operation of a validated v5 document: its normalised text and that
 * text's v6 form, from the rewrite `ergraph-migrate v5-to-v6` writes.
 */
export function catalogEntry(input: {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fields: readonly string[];
  schema: GraphQLSchema;
  index: FlatIndex;
}): CatalogEntry {
  const text = normalizedOperation(input.document, input.operation);
  const operationName = input.operation.name?.value ?? null;
  const rewrite = rewriteDocument(parse(text), text, input.schema, input.index);
  const v6: V6Form =
    rewrite.problems.length > 0
      ? { problem: rewrite.problems.map((p) => p.reason).join('; ') }
      : { text: applyEdits(text, rewrite.edits), moves: movesOfOperation(rewrite.moves, operationName).map((m) => ({ from: m.from, to: m.to })) };
  return {
    operationId: createHash('sha256').update(text, 'utf8').digest('hex'),
    operationName,
    kind: input.operation.operation as OperationRow['kind'],
    text,
    fields: input.fields,
    v6,
    bytes: rowBytes({ text, v6 }),
  };
}

export const operationKey = (r: Pick<OperationRow, 'client' | 'operationId'>): string => `${r.client}\u0000${r.operationId}`;

const sameForm = (a: V6Form, b: V6Form) => ('text' in a ? 'text' in b && a.text === b.text : 'problem' in b && a.problem === b.problem);
const later = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Fold `row` into `into` (same key): counts summed, first/last seen merged. A shadow tally is about
 * one v6 form: rows of the same form add up, and a row of another form (the rewrite changed, e.g.
 * after an upgrade) starts its tally over. The SQL store's upsert does the same.
 */
export function mergeOperation(into: OperationRow, row: OperationRow): void {
  into.count += row.count;
  if (row.firstSeen < into.firstSeen) into.firstSeen = row.firstSeen;
  if (row.lastSeen > into.lastSeen) into.lastSeen = row.lastSeen;
  into.persistedId ??= row.persistedId;
  into.v6PersistedId = row.v6PersistedId ?? into.v6PersistedId;
  into.fields = row.fields;
  if (!sameForm(into.v6, row.v6)) {
    into.v6 = row.v6;
    into.shadow = { ...row.shadow };
    return;
  }
  const s = into.shadow;
  s.same += row.shadow.same;
  s.differs += row.shadow.differs;
  if (row.shadow.lastDiffersAt !== null && (s.lastDiffersAt === null || row.shadow.lastDiffersAt >= s.lastDiffersAt)) s.path = row.shadow.path;
  s.lastDiffersAt = later(s.lastDiffersAt, row.shadow.lastDiffersAt);
  s.lastRunAt = later(s.lastRunAt, row.shadow.lastRunAt);
}

/** Operations with equal keys merged, sorted by key (`coalesce`). */
export const coalesceOperations = (rows: readonly OperationRow[]): OperationRow[] => coalesce(rows, operationKey, mergeOperation, copyOperation);

export const copyOperation = (row: OperationRow): OperationRow => ({ ...row, fields: [...row.fields], shadow: { ...row.shadow } });

/** Most used first; among equally used, the most recently seen first (then by key, for one order everywhere). */
export function byUse(a: OperationRow, b: OperationRow): number {
  return b.count - a.count || b.lastSeen - a.lastSeen || (operationKey(a) < operationKey(b) ? -1 : operationKey(a) > operationKey(b) ? 1 : 0);
}

/**
 * The rows a bounded catalog keeps: the most used that fit, none alone larger than the byte bound.
 * A row without uses (a shadow verdict that arrived after its operation was evicted) is not kept.
 */
export function keptOperations(rows: Iterable<OperationRow>, bounds: Required<CatalogBounds>): OperationRow[] {
  const kept: OperationRow[] = [];
  let bytes = 0;
  for (const row of [...rows].filter((r) => r.count > 0 && rowBytes(r) <= bounds.maxBytes).sort(byUse)) {
    bytes += rowBytes(row);
    if (kept.length >= bounds.maxOperations || bytes > bounds.maxBytes) break;
    kept.push(row);
  }
  return kept;
}

const noShadow = (): ShadowTally => ({ same: 0, differs: 0, path: null, lastRunAt: null, lastDiffersAt: null });

/**
 * Operations recorded since the last write, bounded like a catalog: a new operation that would
 * pass `maxOperations` or `maxBytes` is not kept (counted in `dropped`); those already kept go on
 * counting. The store decides what stays, least used out first, across every process.
 */
export class PendingOperations {
  // By entry, then client: a lookup per request by object and short name, with no key to build
  // (joining client and operation id cost a tenth of a small query's time in compat). Two entries
  // of one text (two layouts of one document) make two rows; the stores merge them.
  private rows = new Map<CatalogEntry, Map<string, OperationRow>>();
  private count = 0;
  private bytes = 0;
  /** Uses of operations the buffer had no room for. */
  dropped = 0;

  constructor(private readonly bounds: Required<CatalogBounds>) {}

  get size(): number {
    return this.count;
  }

  private row(entry: CatalogEntry, client: string, at: number): OperationRow | undefined {
    let byClient = this.rows.get(entry);
    const found = byClient?.get(client);
    if (found) return found;
    if (this.count >= this.bounds.maxOperations || this.bytes + entry.bytes > this.bounds.maxBytes) return undefined;
    const row: OperationRow = {
      client,
      operationId: entry.operationId,
      operationName: entry.operationName,
      kind: entry.kind,
      text: entry.text,
      fields: [...entry.fields],
      persistedId: null,
      v6PersistedId: null,
      v6: entry.v6,
      count: 0,
      firstSeen: at,
      lastSeen: at,
      shadow: noShadow(),
    };
    if (!byClient) this.rows.set(entry, (byClient = new Map()));
    byClient.set(client, row);
    this.count++;
    this.bytes += entry.bytes;
    return row;
  }

  use(entry: CatalogEntry, client: string, at: number, persisted?: PersistedUse): void {
    const row = this.row(entry, client, at);
    if (!row) {
      this.dropped++;
      return;
    }
    row.count++;
    if (at < row.firstSeen) row.firstSeen = at;
    if (at > row.lastSeen) row.lastSeen = at;
    if (persisted) {
      row.persistedId ??= persisted.id;
      row.v6PersistedId ??= persisted.v6Id ?? null;
    }
  }

  shadow(entry: CatalogEntry, client: string, at: number, outcome: ShadowOutcome): void {
    const row = this.row(entry, client, at);
    if (!row) return;
    const s = row.shadow;
    s.lastRunAt = later(s.lastRunAt, at);
    if (outcome.same) s.same++;
    else {
      s.differs++;
      s.path = outcome.path;
      s.lastDiffersAt = later(s.lastDiffersAt, at);
    }
  }

  /** The rows so far, and an empty buffer. */
  take(): OperationRow[] {
    const rows = [...this.rows.values()].flatMap((byClient) => [...byClient.values()]);
    this.rows = new Map();
    this.count = 0;
    this.bytes = 0;
    return rows;
  }
}
