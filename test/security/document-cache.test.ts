/**
 * The parsed-document caches are bounded by the memory they hold, not by count (issue 13 item
 * 2): forty distinct 100 MB queries used to be kept. Measured on the process heap.
 */
import { describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { createCompatHandler } from 'ergraph/compat';
import { DocumentCache, ENTRY_BYTES, entryCost, planCost } from '../../src/graphql/document-cache.js';
import { diagram } from '../graphql/domain.js';

/** A valid document of about `bytes` characters: one field, many aliases' worth of whitespace-free padding in a comment. */
const big = (i: number, bytes: number) => `# ${'x'.repeat(bytes)}\n{ User { byId(id: ${i}) { id } } }`;

describe('document caches bounded by bytes', () => {
  it('keeps the most recently used documents within its byte budget, and none bigger than it', () => {
    const each = entryCost('q'.repeat(200) + 0); // 201 chars: 16 kB for the text, 8 kB for the entry
    const cache = new DocumentCache<number>(4 * each + each / 2);
    for (let i = 0; i < 10; i++) cache.set('q'.repeat(200) + i, i);
    expect(cache.size).toBe(4);
    expect(cache.held).toBeLessThanOrEqual(cache.maxBytes);
    cache.get('q'.repeat(200) + 6); // used: kept past the next eviction
    cache.set('q'.repeat(200) + 'x', 10);
    expect(cache.get('q'.repeat(200) + 6)).toBe(6);
    expect(cache.get('q'.repeat(200) + 7)).toBeUndefined();
    cache.set('too big'.repeat(1_000), 11);
    expect(cache.get('too big'.repeat(1_000))).toBeUndefined();
  });

  it('a hit only marks its entry: eviction passes over entries used since it last looked, oldest first', () => {
    const cache = new DocumentCache<string>(3 * entryCost('a'), 3);
    for (const text of ['a', 'b', 'c']) cache.set(text, text);
    cache.get('a');
    cache.get('c');
    cache.set('d', 'd'); // a and c were used: a is passed over (and unmarked), b goes
    cache.set('e', 'e'); // c, still marked, is passed over; a, passed over once already, goes
    expect(['a', 'b', 'c', 'd', 'e'].map((t) => cache.get(t))).toEqual([undefined, undefined, 'c', 'd', 'e']);
    expect(cache.size).toBe(3);
    expect(cache.held).toBe(3 * entryCost('a'));
  });

  it('charges an entry for what it holds beyond its text, and for each plan it compiles later', () => {
    expect(entryCost('')).toBe(ENTRY_BYTES);
    const cache = new DocumentCache<object>(10 * entryCost('{ a }'));
    const value = {};
    cache.set('{ a }', value);
    cache.charge('{ a }', value, planCost('{ a }'));
    expect(cache.held).toBe(entryCost('{ a }') + planCost('{ a }'));
    cache.charge('{ a }', {}, 1_000); // another value under that text: not this entry's
    expect(cache.held).toBe(entryCost('{ a }') + planCost('{ a }'));
    cache.charge('{ a }', value, 10 * entryCost('{ a }')); // grown past the whole budget: it goes
    expect(cache.get('{ a }')).toBeUndefined();
    expect(cache.held).toBe(0);
  });

  it('a handler answering many distinct large documents holds a bounded heap', async () => {
    const handler = new GraphQLHandler(diagram, { documentCacheBytes: 8 * 1024 * 1024 });
    const compat = createCompatHandler(handler, { cacheBytes: 8 * 1024 * 1024 });
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      expect((await handler.execute(big(i, 1_000_000))).errors).toBeNull();
      expect((await compat.execute(`# ${'y'.repeat(1_000_000)}\n{ userById(id: ${i + 1}) { id } }`)).errors).toBeNull();
    }
    global.gc?.();
    // 80 documents of 1 MB (~160 MB as strings alone) went through; the caches kept at most 16 MB of estimate
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(60 * 1024 * 1024);
  });
});
