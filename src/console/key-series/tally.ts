// What one time bucket of a key's requests adds up to: the request count, errors by name and a
// latency histogram, for the key as a whole and per endpoint. The histogram is sparse (only the
// buckets hit, in the log-linear layout of the key statistics' histogram), so an idle endpoint or a
// bucket of a few requests costs a few map entries, not the full bucket array.
import { bucketOf, bucketUpperUs } from '../../gateway/stats/latency-histogram.js';

/** A closed bucket as stored (LMDB `key_series_*`): counts and the percentiles in µs. */
export interface TallyRow {
  readonly requests: number;
  readonly errors: number;
  readonly errorsByName: Readonly<Record<string, number>>;
  readonly p50Us: number | null;
  readonly p90Us: number | null;
  readonly p99Us: number | null;
}

export interface SeriesRow {
  readonly total: TallyRow;
  readonly endpoints: Readonly<Record<string, TallyRow>>;
}

const bump = <K>(m: Map<K, number>, k: K, n: number): void => { m.set(k, (m.get(k) ?? 0) + n); };

export class Tally {
  requests = 0;
  errors = 0;
  private readonly errorsByName = new Map<string, number>();
  private readonly latency = new Map<number, number>();

  add(errorName: string | null, latencyUs: number): void {
    this.requests += 1;
    if (errorName !== null) {
      this.errors += 1;
      bump(this.errorsByName, errorName, 1);
    }
    bump(this.latency, bucketOf(latencyUs), 1);
  }

  merge(other: Tally): void {
    this.requests += other.requests;
    this.errors += other.errors;
    for (const [name, n] of other.errorsByName) bump(this.errorsByName, name, n);
    for (const [bucket, n] of other.latency) bump(this.latency, bucket, n);
  }

  /**
   * The q-quantiles in µs, for qs in ascending order (each the bucket's upper bound: never
   * optimistic), null when empty. One sort of the buckets for all of them: a closed bucket of
   * 2,000 keys sorted once per percentile cost the main thread ~20 ms a second.
   */
  percentilesUs(qs: readonly number[]): (number | null)[] {
    const out: (number | null)[] = qs.map(() => null);
    if (this.requests === 0) return out;
    let next = 0;
    let seen = 0;
    for (const bucket of [...this.latency.keys()].sort((a, b) => a - b)) {
      seen += this.latency.get(bucket)!;
      while (next < qs.length && seen >= Math.max(1, Math.ceil(qs[next]! * this.requests))) out[next++] = bucketUpperUs(bucket);
      if (next === qs.length) break;
    }
    return out;
  }

  toRow(): TallyRow {
    const [p50Us = null, p90Us = null, p99Us = null] = this.percentilesUs([0.5, 0.9, 0.99]);
    return { requests: this.requests, errors: this.errors, errorsByName: Object.fromEntries(this.errorsByName), p50Us, p90Us, p99Us };
  }
}

/** One key's bucket: the key as a whole and each endpoint it called. */
export class KeyTally {
  readonly total = new Tally();
  readonly endpoints = new Map<string, Tally>();

  add(endpoint: string, errorName: string | null, latencyUs: number): void {
    this.total.add(errorName, latencyUs);
    let e = this.endpoints.get(endpoint);
    if (e === undefined) {
      e = new Tally();
      this.endpoints.set(endpoint, e);
    }
    e.add(errorName, latencyUs);
  }

  merge(other: KeyTally): void {
    this.total.merge(other.total);
    for (const [endpoint, t] of other.endpoints) {
      let e = this.endpoints.get(endpoint);
      if (e === undefined) {
        e = new Tally();
        this.endpoints.set(endpoint, e);
      }
      e.merge(t);
    }
  }

  toRow(): SeriesRow {
    return { total: this.total.toRow(), endpoints: Object.fromEntries([...this.endpoints].map(([name, t]) => [name, t.toRow()])) };
  }
}

function mergeTallyRows(a: TallyRow, b: TallyRow): TallyRow {
  const errorsByName: Record<string, number> = { ...a.errorsByName };
  for (const [name, n] of Object.entries(b.errorsByName)) errorsByName[name] = (errorsByName[name] ?? 0) + n;
  const larger = (x: number | null, y: number | null): number | null => (x === null ? y : y === null ? x : Math.max(x, y));
  return {
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    errorsByName,
    p50Us: larger(a.p50Us, b.p50Us),
    p90Us: larger(a.p90Us, b.p90Us),
    p99Us: larger(a.p99Us, b.p99Us),
  };
}

/**
 * Two rows of the same bucket (one written at a stop, one after the restart): counts add up; a
 * percentile of the union is not known from two percentiles, so the larger one stands (an upper bound).
 */
export function mergeRows(a: SeriesRow, b: SeriesRow): SeriesRow {
  const endpoints: Record<string, TallyRow> = { ...a.endpoints };
  for (const [name, row] of Object.entries(b.endpoints)) endpoints[name] = endpoints[name] === undefined ? row : mergeTallyRows(endpoints[name], row);
  return { total: mergeTallyRows(a.total, b.total), endpoints };
}
