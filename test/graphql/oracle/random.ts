/**
 * The two sources of choice of the differential oracle.
 *
 * - A `Tape` is a list of numbers fast-check generates (and shrinks): the world and the documents
 *   are read from it in a fixed order, so a shorter tape or smaller numbers give a smaller case.
 *   Past its end every choice is 0, the simplest option.
 * - `Dice` answers a question about one identity (`User#3.name`, a loader and its key): what
 *   a resolver or loader does when the executor asks. The two executors ask in different orders
 *   and batch differently, so runtime behaviour is a pure function of (seed, identity), never of
 *   the order of asking.
 */

export class Tape {
  private at = 0;
  constructor(private readonly values: readonly number[]) {}

  /** A number in [0, 65536). */
  next(): number {
    return this.values[this.at++] ?? 0;
  }

  /** One of `n` options, 0 the simplest. */
  pick(n: number): number {
    return n <= 1 ? 0 : this.next() % n;
  }

  /** True with probability `p` (false at the end of the tape). */
  chance(p: number): boolean {
    return this.next() >= (1 - p) * 65536;
  }

  oneOf<T>(options: readonly T[]): T {
    return options[this.pick(options.length)]!;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + this.pick(hi - lo + 1);
  }
}

/** FNV-1a over the identity, seeded, then mixed (murmur3's finaliser): a well-spread u32. */
export function hash(seed: number, id: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export class Dice {
  constructor(readonly seed: number) {}

  /** A number in [0, 1) for `id` (and `salt`, to ask several questions about one identity). */
  roll(id: string, salt = ''): number {
    return hash(this.seed, salt ? `${salt}|${id}` : id) / 0x1_0000_0000;
  }

  pick(id: string, n: number, salt = ''): number {
    return Math.floor(this.roll(id, salt) * n);
  }

  oneOf<T>(id: string, options: readonly T[], salt = ''): T {
    return options[this.pick(id, options.length, salt)]!;
  }
}
