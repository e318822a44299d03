// Latency histogram for the console's per-key percentiles: log-linear buckets of integer
// microseconds, HDR style with 8 sub-buckets per power of two, so a reported percentile is within
// 1/8 of the true value. Recording is a clz32 and an increment, cheap enough for every request.
const SUB_BITS = 3;
const SUB_BUCKETS = 1 << SUB_BITS;
/** Values below this are their own bucket. */
const LINEAR_LIMIT = SUB_BUCKETS * 2;
/** 2^31 − 1 µs (about 36 minutes): longer is recorded as this. */
export const MAX_TRACKED_US = 0x7fffffff;
export const BUCKET_COUNT = bucketOf(MAX_TRACKED_US) + 1;

/** The bucket of a latency in microseconds. */
export function bucketOf(us: number): number {
  // NaN and negatives (a clock step) land in bucket 0.
  const v = us >= 1 ? Math.min(MAX_TRACKED_US, Math.floor(us)) : 0;
  if (v < LINEAR_LIMIT) return v;
  const exponent = 31 - Math.clz32(v);
  return (exponent - SUB_BITS) * SUB_BUCKETS + (v >>> (exponent - SUB_BITS));
}

/** The largest value a bucket holds (what a percentile reports: never optimistic). */
export function bucketUpperUs(index: number): number {
  if (index < LINEAR_LIMIT) return index;
  const exponent = Math.floor(index / SUB_BUCKETS) + SUB_BITS - 1;
  const mantissa = index - (exponent - SUB_BITS) * SUB_BUCKETS;
  return (mantissa + 1) * 2 ** (exponent - SUB_BITS) - 1;
}

export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKET_COUNT);
  private total = 0;

  record(us: number): void {
    this.counts[bucketOf(us)]! += 1;
    this.total += 1;
  }

  get count(): number { return this.total; }

  /** The q-quantile (0 < q <= 1) in µs, or null when empty. */
  percentileUs(q: number): number | null {
    if (this.total === 0) return null;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let i = 0; i < BUCKET_COUNT; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return bucketUpperUs(i);
    }
    return bucketUpperUs(BUCKET_COUNT - 1);
  }

  /** Non-empty buckets as [index, count] pairs (the persisted form). */
  toPairs(): [number, number][] {
    const pairs: [number, number][] = [];
    for (let i = 0; i < BUCKET_COUNT; i++) {
      const count = this.counts[i]!;
      if (count > 0) pairs.push([i, count]);
    }
    return pairs;
  }

  static fromPairs(pairs: readonly (readonly [number, number])[]): LatencyHistogram {
    const h = new LatencyHistogram();
    for (const [i, count] of pairs) {
      if (Number.isInteger(i) && i >= 0 && i < BUCKET_COUNT && Number.isFinite(count) && count > 0) {
        h.counts[i]! += count;
        h.total += count;
      }
    }
    return h;
  }
}
