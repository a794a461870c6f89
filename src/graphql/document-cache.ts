/**
 * Parsed, validated and compiled documents by query text, bounded by an estimate of the memory
 * they hold rather than by count: forty distinct 100 MB queries must not be kept, and neither
 * may a hundred thousand distinct one-line ones. An entry's cost is `ENTRY_BYTES` (the entry, its
 * prepared document and their maps, whatever the text) plus its text length times
 * `BYTES_PER_CHAR`, what a parsed document (AST with locations, plus one compiled plan) measured
 * per character of source, plus `SELECTION_BYTES` per selection set; what an entry compiles
 * later (a plan per `@skip`/`@include` combination) is charged to it when it is made (`charge`). A document costing more than the
 * whole budget is not kept at all. Entries unused since the last eviction go first (the "second
 * chance" approximation of least recently used): a hit only marks its entry. Moving the entry to
 * the end of the map on every hit (delete + set) was ~2% of a small compat request's CPU profile,
 * which looks up two caches; a mark is a ninth of that.
 */

/** Measured on documents of 1-100 kB: AST and one plan hold 40-70 bytes per source character. */
export const BYTES_PER_CHAR = 80;
/** A compiled plan alone, per source character: at most the AST-and-plan figure above, less the AST. */
export const PLAN_BYTES_PER_CHAR = 40;
/**
 * What one entry holds besides its text (map entry, prepared document, its operation map, what
 * the limits and the HTTP layer keep per document): measured at ~13 kB all told for
 * `{ __typename } # <n>` through `graphqlApp` (3.9 kB through `execute` alone), with the plan.
 */
export const ENTRY_BYTES = 8192;
/**
 * Each selection set (`{`) of a plan: its field table, result template and generated builder.
 * Small documents are mostly these: 19.5 kB measured for a 95-character query with five.
 */
export const SELECTION_BYTES = 3072;

/** Estimated bytes of a compiled plan of this text (each `{`, even in a comment, counted: an overestimate is safe). */
export function planCost(text: string): number {
  let sets = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) sets++;
  return text.length * PLAN_BYTES_PER_CHAR + sets * SELECTION_BYTES;
}

/** Estimated bytes of an entry: the text parsed, validated and compiled once. */
export function entryCost(text: string): number {
  return ENTRY_BYTES + text.length * (BYTES_PER_CHAR - PLAN_BYTES_PER_CHAR) + planCost(text);
}

export const DEFAULT_DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

interface Entry<V> {
  value: V;
  cost: number;
  used: boolean;
}

export class DocumentCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number = DEFAULT_DOCUMENT_CACHE_BYTES,
    /** A bound on the count as well (default none). */
    readonly maxEntries: number = Infinity,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held. */
  get held(): number {
    return this.bytes;
  }

  get(text: string): V | undefined {
    const entry = this.entries.get(text);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(text: string, value: V): void {
    const cost = entryCost(text);
    if (cost > this.maxBytes) return;
    this.delete(text);
    this.evict(cost, 1);
    this.entries.set(text, { value, cost, used: false });
    this.bytes += cost;
  }

  /**
   * `value`, the entry of `text`, now holds `bytes` more (a plan it compiled): others make room,
   * oldest unused first; an entry grown past the whole budget goes itself. Nothing when `text`
   * holds another value (evicted and prepared again since).
   */
  charge(text: string, value: V, bytes: number): void {
    const entry = this.entries.get(text);
    if (entry?.value !== value) return;
    entry.cost += bytes;
    this.bytes += bytes;
    if (entry.cost > this.maxBytes) this.delete(text);
    else this.evict(0, 0, text);
  }

  private delete(text: string): void {
    const entry = this.entries.get(text);
    if (entry === undefined) return;
    this.entries.delete(text);
    this.bytes -= entry.cost;
  }

  /** Evict until `cost` more bytes (and `count` more entries) fit; `keep` is never evicted. */
  private evict(cost: number, count: number, keep?: string): void {
    let passes = 0;
    while ((this.bytes + cost > this.maxBytes || this.entries.size + count > this.maxEntries) && this.entries.size) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.used || oldest === keep) {
        // Used since it was last passed over (or the one growing): to the end, unmarked.
        entry.used = false;
        this.entries.set(oldest, entry);
        // Only `keep` left to pass over: nothing more can go.
        if (oldest === keep && ++passes > 1) return;
        continue;
      }
      this.bytes -= entry.cost;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
