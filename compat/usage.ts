/** Per-field and per-client use of the v5 surface, so a team can see when retiring it is safe. */

export interface FieldUsage {
  /** The v6 method that replaces the flat field, e.g. `User.getAll`. */
  replacement: string;
  count: number;
  clients: Record<string, number>;
  lastUsed: string;
}

export interface UsageReport {
  since: string;
  /** Operations executed through the compat layer (including ones using no flat field). */
  requests: number;
  /** Keyed by `Query.userGetAll` / `Mutation.taskCreate`. */
  fields: Record<string, FieldUsage>;
  clients: Record<string, { requests: number; lastSeen: string }>;
}

/** The client name recorded when a request does not carry one. */
export const UNKNOWN_CLIENT = 'unknown';

interface FieldCount {
  replacement: string;
  count: number;
  clients: Map<string, number>;
  lastUsed: number;
}

/** Counting sits on every request's path: plain numbers here, dates formatted only in reports. */
export class UsageCounter {
  private readonly since = Date.now();
  private requests = 0;
  private readonly fields = new Map<string, FieldCount>();
  private readonly clients = new Map<string, { requests: number; lastSeen: number }>();

  record(fields: ReadonlyArray<{ coordinate: string; replacement: string }>, client: string = UNKNOWN_CLIENT): void {
    const now = Date.now();
    this.requests++;
    const c = this.clients.get(client);
    if (c) {
      c.requests++;
      c.lastSeen = now;
    } else this.clients.set(client, { requests: 1, lastSeen: now });
    for (const { coordinate, replacement } of fields) {
      let f = this.fields.get(coordinate);
      if (!f) this.fields.set(coordinate, (f = { replacement, count: 0, clients: new Map(), lastUsed: now }));
      f.count++;
      f.clients.set(client, (f.clients.get(client) ?? 0) + 1);
      f.lastUsed = now;
    }
  }

  /** A detached snapshot, safe to serialize or mutate. */
  report(): UsageReport {
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      since: iso(this.since),
      requests: this.requests,
      fields: Object.fromEntries(
        [...this.fields].map(([k, v]) => [
          k,
          { replacement: v.replacement, count: v.count, clients: Object.fromEntries(v.clients), lastUsed: iso(v.lastUsed) },
        ]),
      ),
      clients: Object.fromEntries([...this.clients].map(([k, v]) => [k, { requests: v.requests, lastSeen: iso(v.lastSeen) }])),
    };
  }
}
