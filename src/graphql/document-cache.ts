/**
 * Parsed, validated and compiled documents by query text, bounded by an estimate of the memory
 * they hold rather than by count: forty distinct 100 MB queries must not be kept. An entry's
 * cost is its text length times `BYTES_PER_CHAR`, what a parsed document (AST with locations,
 * plus its compiled plans) measured per character of source; a document costing more than the
 * whole budget is not kept at all. Least recently used entries go first.
 */

/** Measured on documents of 1-100 kB: AST and one plan hold 40-70 bytes per source character. */
export const BYTES_PER_CHAR = 80;
export const DEFAULT_DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

export class DocumentCache<V> {
  private readonly entries = new Map<string, V>();
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
    const value = this.entries.get(text);
    if (value !== undefined && this.entries.size > 1) {
      // Most recently used last: eviction takes the first.
      this.entries.delete(text);
      this.entries.set(text, value);
    }
    return value;
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
      const oldest: string = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.bytes -= oldest.length * BYTES_PER_CHAR;
    }
    this.entries.set(text, value);
    this.bytes += cost;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
