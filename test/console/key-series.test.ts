// Per-key statistics over time through a real server: a key's requests, errors by name and latency
// in 10 s buckets (last hour) and 1 minute buckets (last day), per key and per endpoint, kept in
// LMDB across a restart; chart queries with absurd ranges clamped. And the pieces on their own:
// the bucket tally, the time window, the equity history on a real LMDB, the session clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EquityHistory, equityStepMs } from '../../src/console/equity/equity-history.js';
import { KeySeries } from '../../src/console/key-series/key-series.js';
import { eventLoopTurn } from '../../src/base/event-loop-turn.js';
import { KeyTally, mergeRows, Tally } from '../../src/console/key-series/tally.js';
import { bucketOf, bucketUpperUs } from '../../src/gateway/stats/latency-histogram.js';
import { sessionState } from '../../src/console/quote-routes.js';
import { chartTables, type ChartTables } from '../../src/console/tables.js';
import { timeWindow } from '../../src/console/time-window.js';
import { ApiError } from '../../src/gateway/errors.js';
import { compileSession, FX_SESSION } from '../../src/engine/market-session.js';
import { openStore } from '../../src/store/store.js';
import { createLogger } from '../../src/base/log.js';
import { RestClient } from '../rest/support/client.js';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { ALICE_KEY, as, CONSOLE_CONFIG, consoleSeed, expectError, login, ok, SECRETS, user } from './support/console.js';

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const aliceUser = user('alice', SECRETS.alice);

describe('key series through the server', { timeout: 60_000 }, () => {
  let server: RunningServer;
  const dataDir = tempDir();
  beforeAll(async () => { server = await startServer({ dataDir, seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG }); });
  afterAll(async () => { await server.stop(); });

  it('counts requests, errors by name and latency per key and per endpoint, kept across a restart', async () => {
    const bot = new RestClient(server.httpPort, ALICE_KEY);
    for (let i = 0; i < 6; i++) ok(await bot.get('/v1/positions?login=700001'));
    for (let i = 0; i < 2; i++) expectError(await bot.get('/v1/accounts/700101'), 404, 'not_found');
    expectError(await bot.get('/v1/positions?limit=0'), 400, 'bad_request');
    const alice = await login(server.consolePort, aliceUser);
    const s = ok(await as(alice, 'GET', `/console/api/keys/${ALICE_KEY.id}/series`)).body;
    expect(s).toMatchObject({ key_id: ALICE_KEY.id, step_s: 10 });
    expect(s.ts).toHaveLength(361);
    expect(s.ts[1] - s.ts[0]).toBe(10_000);
    expect(sum(s.requests)).toBe(9);
    expect(sum(s.errors)).toBe(3);
    expect(Object.fromEntries(Object.entries(s.errors_by_name).map(([k, v]) => [k, sum(v as number[])]))).toEqual({ bad_request: 1, not_found: 2 });
    expect(s.latency_ms.p99.filter((x: number | null) => x !== null).length).toBeGreaterThan(0);
    expect(s.endpoints.map((e: { endpoint: string; total_requests: number }) => [e.endpoint, e.total_requests])).toEqual([['GET /v1/positions', 7], ['GET /v1/accounts/{login}', 2]]);
    const minute = ok(await as(alice, 'GET', `/console/api/keys/${ALICE_KEY.id}/series?step=1m`)).body;
    expect(minute.ts).toHaveLength(1441);
    expect(sum(minute.requests)).toBe(9);

    // A restart: the open buckets were written at the stop, and are read back.
    expect(await server.stop()).toBe(0);
    server = await startServer({ dataDir, seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
    const again = await login(server.consolePort, aliceUser);
    const after = ok(await as(again, 'GET', `/console/api/keys/${ALICE_KEY.id}/series`)).body;
    expect(sum(after.requests)).toBe(9);
    expect(sum(ok(await as(again, 'GET', `/console/api/keys/${ALICE_KEY.id}/series?step=1m`)).body.requests)).toBe(9);
  });

  it('clamps absurd windows and refuses what is not a time or a step', async () => {
    const alice = await login(server.consolePort, aliceUser);
    const path = `/console/api/keys/${ALICE_KEY.id}/series`;
    for (const q of ['from=0&to=99999999999999999999', 'from=-5&to=-1', 'from=1970-01-01&to=9999-12-31T00:00:00Z']) {
      const s = ok(await as(alice, 'GET', `${path}?${q}`)).body;
      expect(s.ts.length, q).toBeLessThanOrEqual(361);
      expect(Date.parse(s.from), q).toBeGreaterThanOrEqual(Date.now() - 3600_000 - 20_000);
      expect(Date.parse(s.to), q).toBeLessThanOrEqual(Date.now());
    }
    expectError(await as(alice, 'GET', `${path}?step=1s`), 400, 'bad_request', 'step');
    expectError(await as(alice, 'GET', `${path}?from=soon`), 400, 'bad_request', 'from');
    expectError(await as(alice, 'GET', `${path}?to=1e9`), 400, 'bad_request', 'to');
    expectError(await as(alice, 'GET', '/console/api/keys/k-nope/series'), 404, 'not_found');
  });
});

interface SeriesRig {
  readonly tables: ChartTables;
  readonly t0: number;
  /** The injected clock, 2 s into the minute at t0; tests move it. */
  readonly clock: { ms: number; nowMs(): number };
  /** A KeySeries on those tables and that clock, its timer never firing (tests call roll). */
  readonly newSeries: () => KeySeries;
}

/** Runs `test` against key series on a real LMDB in a temp dir, closed afterwards. */
async function withSeries(keyIds: readonly string[], test: (rig: SeriesRig) => Promise<void>): Promise<void> {
  const store = openStore(tempDir(), 'none', 1);
  try {
    const tables = chartTables(store);
    const t0 = Date.UTC(2026, 0, 15, 12, 0, 0);
    const clock = { ms: t0 + 2_000, nowMs() { return this.ms; } };
    await test({ tables, t0, clock, newSeries: () => new KeySeries({ tables, clock, scheduler: { schedule: () => () => {} }, log: createLogger('silent'), keyIds: () => keyIds }) });
  } finally {
    await store.close();
  }
}

describe('series pieces', () => {
  it('tallies percentiles that are never optimistic, and merges two rows of one bucket as an upper bound', () => {
    const t = new KeyTally();
    for (let us = 1; us <= 100; us++) t.add('GET /v1/positions', us === 100 ? 'rate_limited' : null, us * 10);
    t.add('POST /v1/orders', null, 5000);
    const row = t.toRow();
    expect(row.total).toMatchObject({ requests: 101, errors: 1, errorsByName: { rate_limited: 1 } });
    expect(row.total.p50Us).toBeGreaterThanOrEqual(500);
    expect(row.total.p50Us! / 510).toBeLessThan(1.13);
    expect(row.endpoints['POST /v1/orders']).toMatchObject({ requests: 1, p99Us: expect.any(Number) });
    const merged = mergeRows(row, { total: { requests: 1, errors: 1, errorsByName: { not_found: 1 }, p50Us: 9, p90Us: 9, p99Us: 99_999 }, endpoints: {} });
    expect(merged.total).toMatchObject({ requests: 102, errors: 2, errorsByName: { rate_limited: 1, not_found: 1 }, p99Us: 99_999, p50Us: row.total.p50Us });
  });

  it('reads every percentile of a bucket in one pass, each the upper bound of the bucket its rank falls in', () => {
    const t = new Tally();
    expect(t.percentilesUs([0.5, 0.9, 0.99])).toEqual([null, null, null]);
    // 89 requests at 100 µs, 10 at 10 ms, 1 at 1 s: the ranks 50, 90 and 99 fall in the three buckets.
    for (let i = 0; i < 89; i++) t.add(null, 100);
    for (let i = 0; i < 10; i++) t.add(null, 10_000);
    t.add(null, 1_000_000);
    expect(t.percentilesUs([0.5, 0.9, 0.99, 1])).toEqual([100, 10_000, 10_000, 1_000_000].map((us) => bucketUpperUs(bucketOf(us))));
    expect(t.toRow()).toMatchObject({ p50Us: bucketUpperUs(bucketOf(100)), p90Us: bucketUpperUs(bucketOf(10_000)), p99Us: bucketUpperUs(bucketOf(10_000)) });
  });

  it('closes 10 s buckets into the minute, writes both, reads the open ones live, and sweeps what is past its retention', async () => {
    await withSeries(['k1'], async ({ tables, t0, clock, newSeries }) => {
      const series = newSeries();
      const minuteW = (fromMs: number) => ({ fromMs, toMs: fromMs, stepMs: 60_000 });
      series.record('k1', 'GET /v1/positions', null, 300);
      // Open: read from memory, not yet stored.
      expect(series.rows('k1', '10s', { fromMs: t0, toMs: t0, stepMs: 10_000 }).get(t0)?.total.requests).toBe(1);
      expect([...tables.keySeries10s.getKeys()]).toEqual([]);
      clock.ms = t0 + 10_500;
      series.roll(clock.ms);
      series.record('k1', 'POST /v1/orders', 'invalid_order', 900);
      series.record('k2', 'GET /v1/positions', null, 100);
      expect(series.rows('k1', '1m', minuteW(t0)).get(t0)?.total).toMatchObject({ requests: 2, errors: 1 });
      clock.ms = t0 + 61_000;
      series.roll(clock.ms);
      await series.stop();
      expect([...tables.keySeries10s.getKeys()]).toEqual([['k1', t0], ['k1', t0 + 10_000], ['k2', t0 + 10_000]]);
      expect(tables.keySeries1m.get(['k1', t0])?.total).toMatchObject({ requests: 2, errors: 1, errorsByName: { invalid_order: 1 } });
      expect(Object.keys(tables.keySeries1m.get(['k1', t0])!.endpoints)).toEqual(['GET /v1/positions', 'POST /v1/orders']);
      // An hour and a day on: the sweep of k1 (a key the store knows) drops its 10 s rows, then its minutes.
      const later = newSeries();
      clock.ms = t0 + 3600_000 + 61_000;
      later.roll(clock.ms);
      await later.stop();
      expect([...tables.keySeries10s.getKeys()]).toEqual([['k2', t0 + 10_000]]);
      expect(tables.keySeries1m.get(['k1', t0])).toBeDefined();
      clock.ms = t0 + 86400_000 + 61_000;
      later.roll(clock.ms);
      await later.stop();
      expect(tables.keySeries1m.get(['k1', t0])).toBeUndefined();
    });
  });

  it('closes a bucket of many keys a slice per event-loop turn, reading it from memory until its rows are stored', async () => {
    const keyIds = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    await withSeries(keyIds, async ({ tables, t0, clock, newSeries }) => {
      const series = newSeries();
      for (const [i, keyId] of keyIds.entries()) for (let n = 0; n <= i % 3; n++) series.record(keyId, 'GET /v1/positions', null, 200);
      const tenS = (startMs: number) => ({ fromMs: startMs, toMs: startMs, stepMs: 10_000 });
      clock.ms = t0 + 60_500;
      series.roll(clock.ms);
      // One turn later most rows are still being made: nothing is stored, and every key still reads its bucket.
      await eventLoopTurn();
      expect(tables.keySeries10s.getKeysCount()).toBe(0);
      expect(keyIds.map((k) => series.rows(k, '10s', tenS(t0)).get(t0)?.total.requests)).toEqual(keyIds.map((_, i) => 1 + i % 3));
      expect(series.rows('k999', '1m', { fromMs: t0, toMs: t0, stepMs: 60_000 }).get(t0)?.total.requests).toBe(1);
      await series.stop();
      expect(tables.keySeries10s.getKeysCount()).toBe(1000);
      expect(tables.keySeries1m.get(['k998', t0])?.total.requests).toBe(3);
      expect(series.rows('k998', '10s', tenS(t0)).get(t0)?.total.requests).toBe(3);
    });
  });

  it('clamps a window to the retention and aligns it to the step', () => {
    const now = Date.UTC(2026, 0, 15, 12, 0, 7);
    const q = (o: Record<string, string>) => new Map(Object.entries(o));
    expect(timeWindow(q({}), now, 3600_000, 10_000)).toEqual({ fromMs: now - 7_000 - 3600_000, toMs: now - 7_000, stepMs: 10_000 });
    expect(timeWindow(q({ from: '0', to: String(2 ** 60) }), now, 3600_000, 10_000)).toEqual({ fromMs: now - 7_000 - 3600_000, toMs: now - 7_000, stepMs: 10_000 });
    expect(timeWindow(q({ from: String(now), to: String(now - 60_000) }), now, 3600_000, 10_000)).toEqual({ fromMs: now - 67_000, toMs: now - 67_000, stepMs: 10_000 });
    expect(() => timeWindow(q({ from: 'NaN' }), now, 1, 1)).toThrow(ApiError);
    expect(equityStepMs(3600_000)).toBe(60_000);
    expect(equityStepMs(7 * 86400_000)).toBe(15 * 60_000);
    expect(equityStepMs(30 * 86400_000)).toBe(3600_000);
  });

  it('keeps equity history on LMDB: unchanged samples skipped, values held, the newest old row kept by the sweep', async () => {
    const dir = tempDir();
    const store = openStore(dir, 'none', 1);
    try {
      const history = new EquityHistory(chartTables(store), createLogger('silent'));
      const t0 = Date.UTC(2026, 0, 1);
      const at = (min: number, equity: number) => ({ login: 'L1', atMs: t0 + min * 60_000 + 5_000, balanceCents: 100_000, equityCents: equity });
      await history.record([at(0, 100_000), at(1, 100_000), at(2, 101_000), at(40 * 1440, 99_000), at(40 * 1440 + 1, 99_000)]);
      expect([...chartTables(store).equityHistory.getKeys()]).toEqual([['L1', t0], ['L1', t0 + 120_000], ['L1', t0 + 40 * 86400_000]]);
      const w = { fromMs: t0, toMs: t0 + 4 * 60_000, stepMs: 60_000 };
      expect(history.series('L1', w, t0 + 10 * 60_000)).toMatchObject({ ts: [t0, t0 + 60_000, t0 + 120_000, t0 + 180_000, t0 + 240_000], equity: [1000, 1000, 1010, 1010, 1010] });
      expect(history.series('L2', w, t0 + 10 * 60_000).equity).toEqual([null, null, null, null, null]);
      await history.sweep(['L1'], t0 + 40 * 86400_000 + 60_000);
      // The row of minute 2 is the newest older than 30 days: it gives the value a window starts with.
      expect([...chartTables(store).equityHistory.getKeys()]).toEqual([['L1', t0 + 120_000], ['L1', t0 + 40 * 86400_000]]);
      const late = { fromMs: t0 + 20 * 86400_000, toMs: t0 + 20 * 86400_000, stepMs: 60_000 };
      expect(history.series('L1', late, t0 + 41 * 86400_000).equity).toEqual([1010]);
    } finally {
      await store.close();
    }
  });

  it('tells when a weekly session next opens or closes, without the wall clock', () => {
    const fx = compileSession(FX_SESSION);
    // Wednesday 2026-01-14 12:00 UTC: open, closes Friday 23:55 +03:00 = 20:55 UTC.
    expect(sessionState(FX_SESSION, fx, Date.UTC(2026, 0, 14, 12, 0))).toEqual({ open: true, hours: 'Sun 23:05 – Fri 23:55 (UTC+03:00)', next_change: '2026-01-16T20:55:00.000Z' });
    // Saturday: closed, opens Sunday 23:05 +03:00 = 20:05 UTC.
    expect(sessionState(FX_SESSION, fx, Date.UTC(2026, 0, 17, 9, 30, 30))).toMatchObject({ open: false, next_change: '2026-01-18T20:05:00.000Z' });
    expect(sessionState('24x7', compileSession('24x7'), 0)).toEqual({ open: true, hours: '24x7', next_change: null });
  });
});
