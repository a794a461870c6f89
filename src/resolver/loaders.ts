/** Helpers that align batch-loader results with the keys they were asked for. */

/** One value per key (or `null`): for many-to-one and one-to-one loaders. */
export function buildObject<V, K>(items: Iterable<V>, keys: readonly K[], keyFn: (item: V) => K): (V | null)[] {
  const byKey = new Map<K, V>();
  for (const item of items) byKey.set(keyFn(item), item);
  return keys.map((key) => byKey.get(key) ?? null);
}

/** A list per key (possibly empty): for one-to-many loaders. Item order is kept. */
export function buildList<V, K>(items: Iterable<V>, keys: readonly K[], keyFn: (item: V) => K): V[][] {
  const byKey = new Map<K, V[]>();
  for (const key of keys) byKey.set(key, []);
  for (const item of items) byKey.get(keyFn(item))?.push(item);
  return keys.map((key) => byKey.get(key)!);
}
