/**
 * Parsed, validated and compiled documents by query text, bounded by an estimate of the memory
 * they hold rather than by count: forty distinct 100 MB queries must not be kept. An entry's
 * cost is its text length times `BYTES_PER_CHAR`, what a parsed document (AST with locations,
 * plus its compiled plans) measured per character of source; a document costing more than the
 * whole budget is not kept at all. Entries unused since the last eviction go first (the "second
 * chance" approximation of least recently used): a hit only marks its entry. Moving the entry to
 * the end of the map on every hit (delete + set) was ~2% of a small compat request's CPU profile,
 * which looks up two caches; a mark is a ninth of that.
 */

/** Measured on documents of 1-100 kB: AST and one plan hold 40-70 bytes per source character. */
export const BYTES_PER_CHAR = 80;
export const DEFAULT_DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

interface Entry<V> {
  value: V;
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
    const cost = text.length * BYTES_PER_CHAR;
    if (cost > this.maxBytes) return;
    const previous = this.entries.get(text);
    if (previous !== undefined) {
      this.entries.delete(text);
      this.bytes -= cost;
    }
    while ((this.bytes + cost > this.maxBytes || this.entries.size >= this.maxEntries) && this.entries.size) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.used) {
        // Used since it was last passed over: it goes to the end, unmarked.
        entry.used = false;
        this.entries.set(oldest, entry);
        continue;
      }
      this.bytes -= oldest.length * BYTES_PER_CHAR;
    }
    this.entries.set(text, { value, used: false });
    this.bytes += cost;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
