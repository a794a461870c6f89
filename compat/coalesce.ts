/**
 * Rows with equal keys merged into one (into copies: the batch given is left as it is), sorted by
 * key, so that concurrent SQL upserts lock their rows in one order and wait instead of deadlocking.
 */
export function coalesce<T>(rows: readonly T[], key: (row: T) => string, merge: (into: T, row: T) => void, copy: (row: T) => T): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) {
    const k = key(row);
    const seen = byKey.get(k);
    if (seen) merge(seen, row);
    else byKey.set(k, copy(row));
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
