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

export class UsageCounter {
  private readonly since = new Date().toISOString();
  private requests = 0;
  private readonly fields = new Map<string, FieldUsage>();
  private readonly clients = new Map<string, { requests: number; lastSeen: string }>();

  record(fields: ReadonlyArray<{ coordinate: string; replacement: string }>, client: string = UNKNOWN_CLIENT): void {
    const now = new Date().toISOString();
    this.requests++;
    const c = this.clients.get(client);
    if (c) {
      c.requests++;
      c.lastSeen = now;
    } else this.clients.set(client, { requests: 1, lastSeen: now });
    for (const { coordinate, replacement } of fields) {
      let f = this.fields.get(coordinate);
      if (!f) this.fields.set(coordinate, (f = { replacement, count: 0, clients: {}, lastUsed: now }));
      f.count++;
      f.clients[client] = (f.clients[client] ?? 0) + 1;
      f.lastUsed = now;
    }
  }

  /** A detached snapshot, safe to serialize or mutate. */
  report(): UsageReport {
    return {
      since: this.since,
      requests: this.requests,
      fields: Object.fromEntries([...this.fields].map(([k, v]) => [k, { ...v, clients: { ...v.clients } }])),
      clients: Object.fromEntries([...this.clients].map(([k, v]) => [k, { ...v }])),
    };
  }
}
