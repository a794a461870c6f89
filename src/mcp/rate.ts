/**
 * Tool calls per session, bounded by a token bucket: `burst` calls at once, then `perSecond`.
 * A session is one server (stdio: the process the agent spawned) or, over stateless HTTP where
 * every request gets its own server, one client address. Own code rather than a package: the job
 * is two numbers and a clock, and the clock is injectable so tests need not wait.
 */
export interface ToolCallRate {
  /** Calls refilled per second (default 10). */
  perSecond: number;
  /** Calls that may come at once (default 30). */
  burst: number;
}

export const DEFAULT_TOOL_CALL_RATE: Readonly<ToolCallRate> = Object.freeze({ perSecond: 10, burst: 30 });

/** Buckets kept at once over HTTP; the least recently used goes first (each is two numbers). */
const MAX_BUCKETS = 10_000;

export function checkRate(rate: ToolCallRate | false | undefined, where: string): ToolCallRate | false {
  if (rate === false) return false;
  const { perSecond, burst } = { ...DEFAULT_TOOL_CALL_RATE, ...rate };
  if (!(perSecond > 0) || !Number.isFinite(perSecond) || !Number.isSafeInteger(burst) || burst < 1) {
    throw new TypeError(`${where}: toolCallRate needs perSecond > 0 and a whole burst >= 1, got ${JSON.stringify(rate)}`);
  }
  return { perSecond, burst };
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets by key (a session), bounded in count. */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rate: ToolCallRate,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one call for `key`; false when its bucket is empty. */
  take(key: string): boolean {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
      bucket.tokens = Math.min(this.rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond);
      bucket.at = now;
    } else {
      bucket = { tokens: this.rate.burst, at: now };
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Seconds until `key` has a call again (for Retry-After). */
  retryAfter(key: string): number {
    const bucket = this.buckets.get(key);
    return bucket ? Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate.perSecond)) : 0;
  }
}
