// Percentiles and formatting shared by the benches.
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export const us = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`);

export const perSec = (v: number): string => (v >= 1e6 ? `${(v / 1e6).toFixed(2)}M/s` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k/s` : `${v.toFixed(0)}/s`);

/** One row of `make bench`'s table. */
export interface Row {
  readonly name: string;
  readonly median: string;
  readonly p99: string;
  readonly throughput?: string;
  readonly note?: string;
}
