/**
 * The retirement report: from a usage store, every tracked coordinate (each v5 field) and every
 * client with last use, daily use and trend, the v6 replacement, and a verdict per field and
 * overall — "safe to retire: no use for 30 days", or the clients still calling it.
 *
 * `retirementReport(store)` builds the data (the JSON the compat app serves for dashboards);
 * `report-markdown.ts` renders it for a terminal or a pull request.
 */
import type { UsageRecorderStatus } from './usage-recorder.js';
import type { OperationRow } from './catalog.js';
import type { UsageRow, UsageStore, UsageTotal } from './usage-store.js';
import { fieldProof, readyMessage, type FieldProof } from './usage-proof.js';

/**
 * `retire`: no use in the window, watched for the whole window. `ready`: used in the window, but
 * every client that used it has a v6 form proven on its traffic, or stopped (only with an operation
 * catalog). `in-use`: someone called it in the window (and, with a catalog, holds it back).
 * `wait`: no use yet, but watched for less than the window. `unknown`: the store could not be
 * read, or tracks nothing.
 */
export type VerdictStatus = 'retire' | 'ready' | 'in-use' | 'wait' | 'unknown';

export interface Verdict {
  status: VerdictStatus;
  message: string;
  /** Clients that used it in the window, most use first. */
  clients: string[];
}

/** How use moved: the last up-to-7 days against the same span before them. */
export type Trend = 'none' | 'new' | 'rising' | 'steady' | 'falling' | 'stopped';

export interface ClientUse {
  client: string;
  count: number;
  lastUsed: string;
}

export interface FieldReport {
  coordinate: string;
  replacement: string | null;
  usage: string | null;
  /** Uses in the window. */
  count: number;
  /** Per day of `window.days`. */
  daily: number[];
  trend: Trend;
  /** Last use ever recorded (also before the window), and by whom. */
  lastUsed: string | null;
  lastClient: string | null;
  trackedSince: string | null;
  /** The clients that used it most in the window, at most `topClients`. */
  clients: ClientUse[];
  /** Clients that used it in the window and are not listed. */
  moreClients: number;
  /**
   * For a field used in the window, with an operation catalog: per client, whether it has a v6 form
   * proven the same, stopped, or holds the field back and why. Null without a catalog (the verdict
   * is then on counts alone) or when the field was not used.
   */
  proof: FieldProof | null;
  verdict: Verdict;
}

export interface ClientReport {
  client: string;
  count: number;
  daily: number[];
  trend: Trend;
  lastUsed: string | null;
  /** Coordinates it used in the window. */
  fields: string[];
}

export interface RetirementReport {
  generatedAt: string;
  days: number;
  window: { from: string; to: string; days: string[] };
  store: { description: string; ok: boolean; error?: string };
  /** The operation catalog the verdict's proof rests on (operations seen in the window); null when the store keeps none, or none yet. */
  catalog: { operations: number } | null;
  /** This process's writer, when the report comes from a running compat app. */
  recorder?: UsageRecorderStatus;
  verdict: Verdict;
  fields: FieldReport[];
  /** The clients with most use in the window, at most `topClients`. */
  clients: ClientReport[];
  /** The clients not listed, and their uses in the window. */
  otherClients: { clients: number; count: number };
}

export interface RetirementReportOptions {
  /** The window (default 30 days, today included). */
  days?: number;
  /** The report's clock (default now). */
  now?: Date;
  recorder?: UsageRecorderStatus;
  /**
   * Clients listed, overall and per field (default 50; the rest are counted, not named): client
   * names come from a request header, so the store may hold any number of them.
   */
  topClients?: number;
}

/** Clients a report names by default. */
export const TOP_CLIENTS = 50;

const DAY = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (ms: number) => ms - (((ms % DAY) + DAY) % DAY);
const iso = (ms: number | undefined | null) => (ms == null ? null : new Date(ms).toISOString());

/** The longest window a report covers from the command line; the HTTP route allows 366 days. */
export const MAX_DAYS = 3660;

export function checkDays(days: unknown, max = MAX_DAYS): number {
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > max) {
    throw new RangeError(`days must be a whole number from 1 to ${max}, got ${JSON.stringify(days)}`);
  }
  return days;
}

/** The recent span a trend reads: the last 7 days, or half a shorter window. */
const recentSpan = (days: number) => Math.max(1, Math.min(7, Math.floor(days / 2)));

/** Used in the window, but not in its recent span: the client stopped. */
const stoppedRecently = (daily: readonly number[]) => daily.slice(-recentSpan(daily.length)).every((n) => n === 0);

export function trendOf(daily: readonly number[]): Trend {
  const span = recentSpan(daily.length);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const recent = sum(daily.slice(-span));
  const before = sum(daily.slice(-2 * span, -span));
  if (recent === 0 && before === 0) return 'none';
  if (before === 0) return 'new';
  if (recent === 0) return 'stopped';
  if (recent > before * 1.25) return 'rising';
  if (recent < before * 0.75) return 'falling';
  return 'steady';
}

const byCountThenName = <T extends { count: number }>(key: (t: T) => string) => (a: T, b: T) =>
  b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** "web (120), ios (3), 4 more": `unlisted` counts clients the caller has already left out. */
export function listClients(clients: ReadonlyArray<{ client: string; count: number }>, max = 5, unlisted = 0): string {
  const shown = clients.slice(0, max).map((c) => `${c.client} (${c.count})`);
  const more = Math.max(0, clients.length - max) + unlisted;
  if (more > 0) shown.push(`${more} more`);
  return shown.join(', ');
}

export async function retirementReport(store: UsageStore, options: RetirementReportOptions = {}): Promise<RetirementReport> {
  const days = checkDays(options.days ?? 30);
  const top = options.topClients ?? TOP_CLIENTS;
  if (!Number.isInteger(top) || top < 0) throw new RangeError(`topClients must be a whole number, got ${JSON.stringify(top)}`);
  const now = (options.now ?? new Date()).getTime();
  const today = dayStart(now);
  const from = today - (days - 1) * DAY;
  const base = {
    generatedAt: new Date(now).toISOString(),
    days,
    ...(options.recorder ? { recorder: options.recorder } : {}),
  };

  let snapshot;
  try {
    snapshot = await store.read(dayText(from));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const axis = [] as string[];
    for (let d = from; d <= today; d += DAY) axis.push(dayText(d));
    return {
      ...base,
      window: { from: dayText(from), to: dayText(today), days: axis },
      store: { description: store.description, ok: false, error: message },
      catalog: null,
      // The store's name and error text are in `store`: the verdict is shown to whoever may see the report.
      verdict: { status: 'unknown', message: 'no verdict: the usage store cannot be read', clients: [] },
      fields: [],
      clients: [],
      otherClients: { clients: 0, count: 0 },
    };
  }

  // The axis runs to today, or further when a process with a clock ahead wrote a later day:
  // its uses count, they just land on the day its clock said.
  const lastDay = snapshot.rows.reduce((max, r) => (r.day > max ? r.day : max), dayText(today));
  const axis: string[] = [];
  for (let d = from; dayText(d) <= lastDay; d += DAY) axis.push(dayText(d));
  const slot = new Map(axis.map((d, i) => [d, i]));

  const operations = await catalogOf(store, from);
  const tracked = new Map(snapshot.tracked.map((t) => [t.coordinate, t]));
  const coordinates = new Set([...tracked.keys(), ...snapshot.rows.map((r) => r.coordinate), ...snapshot.totals.map((r) => r.coordinate)]);
  const rowsBy = <K extends 'coordinate' | 'client'>(rows: readonly UsageRow[], key: K) => {
    const map = new Map<string, UsageRow[]>();
    for (const r of rows) (map.get(r[key]) ?? map.set(r[key], []).get(r[key])!).push(r);
    return map;
  };
  const totalsBy = <K extends 'coordinate' | 'client'>(rows: readonly UsageTotal[], key: K) => {
    const map = new Map<string, UsageTotal[]>();
    for (const r of rows) (map.get(r[key]) ?? map.set(r[key], []).get(r[key])!).push(r);
    return map;
  };
  const rowsByField = rowsBy(snapshot.rows, 'coordinate');
  const rowsByClient = rowsBy(snapshot.rows, 'client');
  const totalsByField = totalsBy(snapshot.totals, 'coordinate');
  const totalsByClient = totalsBy(snapshot.totals, 'client');

  const dailyOf = (rows: readonly UsageRow[]) => {
    const daily = axis.map(() => 0);
    for (const r of rows) daily[slot.get(r.day)!] += r.count;
    return daily;
  };
  const latest = (totals: readonly UsageTotal[] | undefined) =>
    (totals ?? []).reduce<UsageTotal | null>((best, t) => (!best || t.lastSeen > best.lastSeen ? t : best), null);

  const fields: FieldReport[] = [...coordinates].map((coordinate) => {
    const rows = rowsByField.get(coordinate) ?? [];
    const perClient = new Map<string, ClientUse & { last: number }>();
    for (const r of rows) {
      const c = perClient.get(r.client);
      if (c) {
        c.count += r.count;
        c.last = Math.max(c.last, r.lastSeen);
      } else perClient.set(r.client, { client: r.client, count: r.count, last: r.lastSeen, lastUsed: '' });
    }
    const allClients = [...perClient.values()].sort(byCountThenName((c) => c.client));
    const clients = allClients.slice(0, top).map(({ last, ...c }) => ({ ...c, lastUsed: iso(last)! }));
    const daily = dailyOf(rows);
    const count = daily.reduce((a, b) => a + b, 0);
    const last = latest(totalsByField.get(coordinate));
    const info = tracked.get(coordinate);
    const since = info?.since ?? (totalsByField.get(coordinate) ?? []).reduce((min, t) => Math.min(min, t.firstSeen), Infinity);
    const watchedFor = Number.isFinite(since) ? Math.floor((now - since) / DAY) : 0;
    let verdict: Verdict;
    const proof = count > 0 && operations ? fieldProof(coordinate, rows, operations.byClient, (own) => stoppedRecently(dailyOf(own)), top) : null;
    if (proof && proof.holding === 0) {
      verdict = { status: 'ready', message: readyMessage(proof, days), clients: clients.map((c) => c.client) };
    } else if (count > 0) {
      verdict = { status: 'in-use', message: `still used by ${listClients(allClients)}`, clients: clients.map((c) => c.client) };
    } else if (watchedFor >= days || (last && last.lastSeen <= now - days * DAY)) {
      const ago = last ? ` (last used ${dayText(last.lastSeen)} by ${last.client})` : ' (never used)';
      verdict = { status: 'retire', message: `safe to retire: no use for ${days} days${ago}`, clients: [] };
    } else {
      const ready = dayText((Number.isFinite(since) ? since : now) + days * DAY);
      verdict = { status: 'wait', message: `no use since tracking began ${watchedFor} day${watchedFor === 1 ? '' : 's'} ago: a ${days}-day verdict on ${ready}`, clients: [] };
    }
    return {
      coordinate,
      replacement: info?.replacement ?? null,
      usage: info?.usage ?? null,
      count,
      daily,
      trend: trendOf(daily),
      lastUsed: iso(last?.lastSeen),
      lastClient: last?.client ?? null,
      trackedSince: Number.isFinite(since) ? iso(since) : null,
      clients,
      moreClients: allClients.length - clients.length,
      proof,
      verdict,
    };
  });
  fields.sort(byCountThenName((f) => f.coordinate));

  // Ranked on their window total first, so daily series are built for the listed clients only.
  const ranked = [...new Set([...rowsByClient.keys(), ...totalsByClient.keys()])]
    .map((client) => ({ client, count: (rowsByClient.get(client) ?? []).reduce((n, r) => n + r.count, 0) }))
    .sort(byCountThenName((c) => c.client));
  const rest = ranked.slice(top);
  const otherClients = { clients: rest.filter((c) => c.count > 0).length, count: rest.reduce((n, c) => n + c.count, 0) };
  const clients: ClientReport[] = ranked.slice(0, top).map(({ client }) => {
    const rows = rowsByClient.get(client) ?? [];
    const daily = dailyOf(rows);
    return {
      client,
      count: daily.reduce((a, b) => a + b, 0),
      daily,
      trend: trendOf(daily),
      lastUsed: iso(latest(totalsByClient.get(client))?.lastSeen),
      fields: [...new Set(rows.map((r) => r.coordinate))].sort(),
    };
  });

  let verdict: Verdict;
  const inUse = fields.filter((f) => f.verdict.status === 'in-use');
  const ready = fields.filter((f) => f.verdict.status === 'ready');
  const active = clients.filter((c) => c.count > 0);
  if (fields.length === 0) {
    verdict = { status: 'unknown', message: 'no verdict: the usage store tracks no fields yet (is a compat app writing to it?)', clients: [] };
  } else if (inUse.length > 0 && ready.length === 0) {
    verdict = {
      status: 'in-use',
      message: `not yet: ${inUse.length} of ${fields.length} fields used in the last ${days} days, by ${listClients(active, 5, otherClients.clients)}`,
      clients: active.map((c) => c.client),
    };
  } else if (inUse.length > 0) {
    const holders = [...new Set(inUse.flatMap((f) => f.proof?.clients.filter((c) => c.status === 'holds').map((c) => c.client) ?? f.verdict.clients))];
    verdict = {
      status: 'in-use',
      message: `not yet: ${inUse.length} of ${fields.length} fields held back, by ${holders.slice(0, 5).join(', ')}${holders.length > 5 ? `, ${holders.length - 5} more` : ''}; ${ready.length} more used ${ready.length === 1 ? 'field is' : 'fields are'} ready`,
      clients: holders,
    };
  } else if (ready.length > 0 && fields.every((f) => f.verdict.status === 'retire' || f.verdict.status === 'ready')) {
    verdict = {
      status: 'ready',
      message: `ready to retire: ${ready.length} of ${fields.length} fields are still used, but every client using them has a v6 form proven the same on its traffic, or stopped; the rest have had no use for ${days} days`,
      clients: active.map((c) => c.client),
    };
  } else if (fields.every((f) => f.verdict.status === 'retire')) {
    verdict = { status: 'retire', message: `safe to retire: no use of any of the ${fields.length} fields for ${days} days`, clients: [] };
  } else {
    const waiting = fields.filter((f) => f.verdict.status === 'wait');
    verdict = { status: 'wait', message: `no use so far, but ${waiting.length} of ${fields.length} fields have been watched for less than ${days} days`, clients: [] };
  }

  return {
    ...base,
    window: { from: dayText(from), to: axis[axis.length - 1]!, days: axis },
    store: { description: store.description, ok: true },
    catalog: operations ? { operations: operations.count } : null,
    verdict,
    fields,
    clients,
    otherClients,
  };
}

/**
 * The catalog's operations seen in the window, by client; null when the store keeps no catalog,
 * has none yet (a store written before it kept one), or cannot read it: the verdict is then on
 * counts alone, as it was before the catalog, which never calls a used field ready.
 */
async function catalogOf(store: UsageStore, from: number): Promise<{ byClient: Map<string, OperationRow[]>; count: number } | null> {
  if (!store.readOperations) return null;
  let all: OperationRow[];
  try {
    all = await store.readOperations();
  } catch {
    return null;
  }
  if (all.length === 0) return null;
  const byClient = new Map<string, OperationRow[]>();
  let count = 0;
  for (const op of all) {
    if (op.lastSeen < from) continue;
    count++;
    (byClient.get(op.client) ?? byClient.set(op.client, []).get(op.client)!).push(op);
  }
  return { byClient, count };
}

// ---- usage-aware schema diff ------------------------------------------------------------------

/**
 * For `schemaDiff(old, new, { unused })`: a coordinate counts as unused only when the store
 * tracks it and the report's verdict on it is "safe to retire" (no use in the window, watched for
 * the whole window). Anything the store does not measure is never called unused.
 */
export async function unusedCoordinates(
  store: UsageStore,
  options: { days?: number; now?: Date } = {},
): Promise<(coordinates: readonly string[]) => Promise<boolean[]>> {
  const report = await retirementReport(store, options);
  if (!report.store.ok) throw new Error(`cannot read usage from ${store.description}: ${report.store.error}`);
  const retirable = new Set(report.fields.filter((f) => f.verdict.status === 'retire').map((f) => f.coordinate));
  return async (coordinates) => coordinates.map((c) => retirable.has(c));
}
