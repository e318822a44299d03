// A key's buckets as the console's charts draw them: one column per series over a continuous time
// axis (`ts`, Unix ms, one entry per bucket of the window), quiet buckets as 0 requests and null
// latency, latency in milliseconds. Endpoints are listed busiest first.
import type { UnixMs } from '../../engine/types.js';
import { bucketStarts, type TimeWindow } from '../time-window.js';
import type { SeriesRow, TallyRow } from './tally.js';

const ms = (us: number | null): number | null => (us === null ? null : Math.round(us) / 1000);

interface LatencyColumns { p50: (number | null)[]; p90: (number | null)[]; p99: (number | null)[] }

function columns(starts: readonly UnixMs[], rowAt: (t: UnixMs) => TallyRow | undefined) {
  const requests: number[] = [];
  const errors: number[] = [];
  const latency: LatencyColumns = { p50: [], p90: [], p99: [] };
  for (const t of starts) {
    const r = rowAt(t);
    requests.push(r?.requests ?? 0);
    errors.push(r?.errors ?? 0);
    latency.p50.push(ms(r?.p50Us ?? null));
    latency.p90.push(ms(r?.p90Us ?? null));
    latency.p99.push(ms(r?.p99Us ?? null));
  }
  return { requests, errors, latency_ms: latency };
}

export function seriesJson(keyId: string, w: TimeWindow, rows: ReadonlyMap<UnixMs, SeriesRow>) {
  const starts = bucketStarts(w);
  const errorNames = new Set<string>();
  const endpointTotals = new Map<string, number>();
  for (const row of rows.values()) {
    for (const name of Object.keys(row.total.errorsByName)) errorNames.add(name);
    for (const [endpoint, r] of Object.entries(row.endpoints)) endpointTotals.set(endpoint, (endpointTotals.get(endpoint) ?? 0) + r.requests);
  }
  const total = columns(starts, (t) => rows.get(t)?.total);
  const errorsByName = Object.fromEntries([...errorNames].sort().map((name) => [name, starts.map((t) => rows.get(t)?.total.errorsByName[name] ?? 0)]));
  const endpoints = [...endpointTotals]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([endpoint, requests]) => ({ endpoint, total_requests: requests, ...columns(starts, (t) => rows.get(t)?.endpoints[endpoint]) }));
  return {
    key_id: keyId,
    step_s: w.stepMs / 1000,
    from: new Date(w.fromMs).toISOString(),
    to: new Date(w.toMs).toISOString(),
    ts: starts,
    ...total,
    errors_by_name: errorsByName,
    endpoints,
  };
}
