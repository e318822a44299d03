// The per-key statistics: histogram buckets and percentiles, counters, the console's JSON, and the
// save/load round trip through LMDB.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BUCKET_COUNT, bucketOf, bucketUpperUs, LatencyHistogram, MAX_TRACKED_US } from '../../src/gateway/stats/latency-histogram.js';
import { KeyStats } from '../../src/gateway/stats/key-stats.js';
import { KeyStatsBook, KEY_STATS } from '../../src/gateway/stats/key-stats-book.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../support/server.js';

describe('LatencyHistogram', () => {
  it('puts every value in a bucket whose range holds it, within 1/8 relative width', () => {
    for (let v = 0; v < 200_000; v += v < 1000 ? 1 : 997) {
      const i = bucketOf(v);
      const upper = bucketUpperUs(i);
      const lower = i === 0 ? 0 : bucketUpperUs(i - 1) + 1;
      expect(v).toBeGreaterThanOrEqual(lower);
      expect(v).toBeLessThanOrEqual(upper);
      expect(upper - lower + 1).toBeLessThanOrEqual(Math.max(1, v / 8));
    }
    expect(bucketOf(MAX_TRACKED_US)).toBe(BUCKET_COUNT - 1);
    expect(bucketOf(1e12)).toBe(BUCKET_COUNT - 1);
    expect(bucketOf(-5)).toBe(0);
    expect(bucketOf(Number.NaN)).toBe(0);
  });

  it('reports percentiles as the upper bound of the bucket holding that rank', () => {
    const h = new LatencyHistogram();
    expect(h.percentileUs(0.5)).toBeNull();
    for (let v = 1; v <= 100; v++) h.record(v);
    expect(h.count).toBe(100);
    expect(h.percentileUs(0.5)).toBe(bucketUpperUs(bucketOf(50)));
    expect(h.percentileUs(0.99)).toBe(bucketUpperUs(bucketOf(99)));
    expect(h.percentileUs(1)).toBe(bucketUpperUs(bucketOf(100)));
    const round = LatencyHistogram.fromPairs(h.toPairs());
    expect(round.percentileUs(0.9)).toBe(h.percentileUs(0.9));
    expect(round.count).toBe(100);
  });

  it('ignores malformed saved buckets', () => {
    const h = LatencyHistogram.fromPairs([[-1, 3], [BUCKET_COUNT, 2], [1.5, 1], [4, Number.NaN], [4, 2]]);
    expect(h.count).toBe(2);
    expect(h.percentileUs(0.5)).toBe(4);
  });
});

describe('KeyStats', () => {
  it('counts requests, errors by name and endpoints, and ranks the top endpoints', () => {
    const s = new KeyStats('k1', Date.UTC(2026, 0, 1));
    for (let i = 0; i < 3; i++) s.record('GET /v1/positions', null, 100);
    s.record('POST /v1/orders', 'invalid_order', 900);
    s.record('POST /v1/orders', null, 1100);
    s.used(Date.UTC(2026, 0, 2), () => '192.0.2.7');
    const json = s.toJson();
    expect(json).toMatchObject({
      key_id: 'k1', since: '2026-01-01T00:00:00.000Z', requests: 5, errors: 1, error_rate: 0.2,
      errors_by_name: { invalid_order: 1 }, last_used_at: '2026-01-02T00:00:00.000Z', last_used_ip: '192.0.2.7',
      top_endpoints: [{ endpoint: 'GET /v1/positions', requests: 3 }, { endpoint: 'POST /v1/orders', requests: 2 }],
    });
    expect(json.latency_ms.p50).toBe(0.103); // bucket 96..103 µs
    expect(json.latency_ms.p99).toBeGreaterThanOrEqual(1.1);
    expect(json.latency_ms.p99).toBeLessThanOrEqual(1.1 * 1.125);
    expect(s.dirty).toBe(true);
    // The address is sampled at most once a second; the time always moves.
    s.used(Date.UTC(2026, 0, 2) + 999, () => '192.0.2.8');
    expect(s.toJson()).toMatchObject({ last_used_ip: '192.0.2.7', last_used_at: '2026-01-02T00:00:00.999Z' });
    s.used(Date.UTC(2026, 0, 2) + 1000, () => '192.0.2.9');
    expect(s.toJson().last_used_ip).toBe('192.0.2.9');
    expect(new KeyStats('k1', 0, s.toRecord()).toJson()).toEqual({ ...s.toJson(), since: new Date(0).toISOString() });
  });
});

describe('KeyStatsBook', () => {
  const dirs: string[] = [];
  afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  it('saves changed statistics and loads them back', async () => {
    const dir = tempDir('tas-stats-');
    dirs.push(dir);
    const store = openStore(dir, 'none', 0);
    const book = new KeyStatsBook(store.table(KEY_STATS));
    book.of('k1', 1000).record('GET /v1/accounts', null, 50);
    book.of('k2', 2000).record('GET /v1/accounts', 'forbidden', 70);
    expect(await book.save()).toBe(2);
    expect(await book.save()).toBe(0);
    book.of('k1', 3000).used(4000, () => '::1');
    expect(await book.save()).toBe(1);

    const loaded = new KeyStatsBook(store.table(KEY_STATS));
    expect(loaded.get('k1')?.toJson()).toEqual(book.get('k1')?.toJson());
    expect(loaded.get('k2')?.toJson()).toMatchObject({ requests: 1, errors_by_name: { forbidden: 1 }, since: new Date(2000).toISOString() });
    expect(loaded.get('k3')).toBeUndefined();
    await store.close();
  });

  it('saves many keys over several event-loop turns, all of them', async () => {
    const dir = tempDir('tas-stats-');
    dirs.push(dir);
    const store = openStore(dir, 'none', 0);
    const book = new KeyStatsBook(store.table(KEY_STATS));
    for (let i = 0; i < 100; i++) book.of(`k${i}`, 0).record('GET /v1/positions', null, i);
    expect(await book.save()).toBe(100);
    const loaded = new KeyStatsBook(store.table(KEY_STATS));
    for (let i = 0; i < 100; i++) expect(loaded.get(`k${i}`)?.toJson().requests).toBe(1);
    expect(await book.save()).toBe(0);
    await store.close();
  });
});
