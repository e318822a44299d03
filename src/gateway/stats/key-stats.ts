// Per-key request statistics for the console (spec "What the service does" 8, DECISIONS
// "Console"): request count, errors by name, a latency histogram, requests per endpoint, and when
// and from where the key was last used. Kept in memory on the main thread (a few counters per
// request) and saved by KeyStatsBook.
import type { UnixMs } from '../../engine/types.js';
import { LatencyHistogram } from './latency-histogram.js';

/** The persisted form (LMDB `key_stats`, by key id). */
export interface KeyStatsRecord {
  readonly keyId: string;
  readonly sinceMs: UnixMs;
  readonly requests: number;
  readonly errors: number;
  readonly errorsByName: Readonly<Record<string, number>>;
  readonly endpoints: Readonly<Record<string, number>>;
  readonly latencyBuckets: readonly (readonly [number, number])[];
  readonly lastUsedAtMs: UnixMs | null;
  readonly lastUsedIp: string | null;
}

/** What the console shows (JSON, snake_case). */
export interface KeyStatsJson {
  readonly key_id: string;
  readonly since: string;
  readonly requests: number;
  readonly errors: number;
  /** errors / requests, 0 without requests. */
  readonly error_rate: number;
  readonly errors_by_name: Readonly<Record<string, number>>;
  readonly latency_ms: { readonly p50: number | null; readonly p90: number | null; readonly p99: number | null };
  readonly top_endpoints: readonly { readonly endpoint: string; readonly requests: number }[];
  readonly last_used_at: string | null;
  readonly last_used_ip: string | null;
}

/** Told of every request a key's statistics record (the console's time series listen). */
export type RequestTap = (keyId: string, endpoint: string, errorName: string | null, latencyUs: number) => void;

export const TOP_ENDPOINTS = 5;
/** The last-used address is looked up at most this often per key (a kernel call per lookup). */
export const ADDRESS_SAMPLE_MS = 1000;

const countMap = (o: Readonly<Record<string, number>>): Map<string, number> =>
  new Map(Object.entries(o).filter(([, n]) => Number.isFinite(n) && n > 0));

const bump = (m: Map<string, number>, name: string): void => { m.set(name, (m.get(name) ?? 0) + 1); };

const latencyMs = (us: number | null): number | null => (us === null ? null : Math.round(us) / 1000);

export class KeyStats {
  private requests = 0;
  private errors = 0;
  private readonly errorsByName: Map<string, number>;
  private readonly endpoints: Map<string, number>;
  private readonly latency: LatencyHistogram;
  private lastUsedAtMs: UnixMs | null;
  private lastUsedIp: string | null;
  private addressSampledAtMs = Number.NEGATIVE_INFINITY;
  /** Changed since the last save. */
  dirty = false;

  constructor(readonly keyId: string, private readonly sinceMs: UnixMs, saved?: KeyStatsRecord, private readonly tap?: RequestTap) {
    this.requests = saved?.requests ?? 0;
    this.errors = saved?.errors ?? 0;
    this.errorsByName = countMap(saved?.errorsByName ?? {});
    this.endpoints = countMap(saved?.endpoints ?? {});
    this.latency = LatencyHistogram.fromPairs(saved?.latencyBuckets ?? []);
    this.lastUsedAtMs = saved?.lastUsedAtMs ?? null;
    this.lastUsedIp = saved?.lastUsedIp ?? null;
  }

  /** One answered request; `errorName` for every error response. */
  record(endpoint: string, errorName: string | null, latencyUs: number): void {
    this.requests += 1;
    bump(this.endpoints, endpoint);
    if (errorName !== null) {
      this.errors += 1;
      bump(this.errorsByName, errorName);
    }
    this.latency.record(latencyUs);
    this.dirty = true;
    this.tap?.(this.keyId, endpoint, errorName, latencyUs);
  }

  /** An authenticated use (the console's "last used": time, and the address sampled once a second). */
  used(atMs: UnixMs, addressOf: () => string): void {
    this.lastUsedAtMs = atMs;
    if (atMs - this.addressSampledAtMs >= ADDRESS_SAMPLE_MS) {
      // '' when the client is already gone: keep the address known before.
      const ip = addressOf();
      if (ip !== '') this.lastUsedIp = ip;
      this.addressSampledAtMs = atMs;
    }
    this.dirty = true;
  }

  toRecord(): KeyStatsRecord {
    return {
      keyId: this.keyId,
      sinceMs: this.sinceMs,
      requests: this.requests,
      errors: this.errors,
      errorsByName: Object.fromEntries(this.errorsByName),
      endpoints: Object.fromEntries(this.endpoints),
      latencyBuckets: this.latency.toPairs(),
      lastUsedAtMs: this.lastUsedAtMs,
      lastUsedIp: this.lastUsedIp,
    };
  }

  toJson(): KeyStatsJson {
    const top = [...this.endpoints]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP_ENDPOINTS)
      .map(([endpoint, requests]) => ({ endpoint, requests }));
    return {
      key_id: this.keyId,
      since: new Date(this.sinceMs).toISOString(),
      requests: this.requests,
      errors: this.errors,
      error_rate: this.requests === 0 ? 0 : this.errors / this.requests,
      errors_by_name: Object.fromEntries(this.errorsByName),
      latency_ms: {
        p50: latencyMs(this.latency.percentileUs(0.5)),
        p90: latencyMs(this.latency.percentileUs(0.9)),
        p99: latencyMs(this.latency.percentileUs(0.99)),
      },
      top_endpoints: top,
      last_used_at: this.lastUsedAtMs === null ? null : new Date(this.lastUsedAtMs).toISOString(),
      last_used_ip: this.lastUsedIp,
    };
  }
}
