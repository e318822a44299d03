// GET /metrics on the console listener, scraped from the real process: operator token only, the
// Prometheus text format, every metric of docs/metrics.md and no other, and counters that move
// when an order, a stream connection, a FIX session and a kill switch happen.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_CERT_FILE } from '../../src/fix/tls-cert.js';
import { frame, utc } from '../fix-session/support/harness.js';
import { RawClient } from '../fix-session/support/raw-client.js';
import { operator, RestClient, send } from '../rest/support/client.js';
import { TestStream } from '../stream/support/stream-client.js';
import { startServer, type RunningServer } from '../support/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEMO = { id: 'demo-key', secret: 'demo-secret-0123456789abcdef' };

let server: RunningServer;
beforeAll(async () => { server = await startServer({ config: { fix: { session: '24x7' } } }); });
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

interface Scrape { readonly text: string; value(name: string, labels?: Record<string, string>): number }

async function scrape(): Promise<Scrape> {
  const res = await send(server.consolePort, 'GET', '/metrics', { headers: { authorization: `Bearer ${server.adminToken}` } });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = res.text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  return {
    text: res.text,
    // The sum over the samples whose labels include `labels` (0 when none).
    value(name, labels = {}) {
      let sum = 0;
      for (const line of samples) {
        const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
        if (!m || m[1] !== name) continue;
        const has = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
        if (Object.entries(labels).every(([k, v]) => has[k] === v)) sum += Number(m[3]);
      }
      return sum;
    },
  };
}

describe('GET /metrics', () => {
  it('needs the operator token', async () => {
    expect((await send(server.consolePort, 'GET', '/metrics')).status).toBe(401);
    expect((await send(server.consolePort, 'GET', '/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('lists exactly the metrics docs/metrics.md documents, each with its help text', async () => {
    const documented = [...fs.readFileSync(path.join(ROOT, 'docs/metrics.md'), 'utf8').matchAll(/^\| `(tas_[a-z_]+)` \|/gm)].map((m) => m[1]);
    const served = [...(await scrape()).text.matchAll(/^# HELP (\S+) \S/gm)].map((m) => m[1]);
    expect(served.sort()).toEqual(documented.sort());
    expect(new Set(served).size).toBe(served.length);
  });

  it('counts a REST order by source and result, and the request by route and status', async () => {
    const before = await scrape();
    const api = new RestClient(server.httpPort, DEMO);
    const res = await api.post('/v1/orders', { login: '100001', symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01 });
    expect(res.status, res.text).toBe(200);
    const refused = await api.post('/v1/orders', { login: '100001', symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.001 });
    expect(refused.status).toBe(422);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>): number => after.value(name, labels) - before.value(name, labels);
    expect(moved('tas_orders_total', { source: 'api', result: 'filled' })).toBe(1);
    expect(moved('tas_http_requests_total', { route: 'POST /v1/orders', status: '200' })).toBe(1);
    expect(moved('tas_http_requests_total', { route: 'POST /v1/orders', status: '422' })).toBe(1);
    expect(moved('tas_http_request_duration_seconds_count', { route: 'POST /v1/orders' })).toBe(2);
    expect(after.value('tas_http_request_duration_seconds_sum', { route: 'POST /v1/orders' })).toBeGreaterThan(0);
    // The fill was journaled: one more sync on some shard, timed, and a batch of at least one command.
    expect(moved('tas_shard_journal_syncs_total', {})).toBeGreaterThanOrEqual(1);
    expect(moved('tas_shard_journal_sync_seconds_count', {})).toBe(moved('tas_shard_journal_syncs_total', {}));
    expect(moved('tas_shard_journal_sync_seconds_sum', {})).toBeGreaterThan(0);
    expect(moved('tas_shard_batch_commands_count', {})).toBeGreaterThanOrEqual(1);
    // Its checkpoint follows behind the journal, within the shard's checkpoint interval.
    let later = after;
    while (later.value('tas_shard_checkpoints_total') <= before.value('tas_shard_checkpoints_total')) later = await scrape();
    expect(later.value('tas_shard_checkpoint_failures_total')).toBe(0);
  });

  it('counts stream connections, FIX sessions and their messages, and kill switch triggers', async () => {
    const stream = await TestStream.connect(server.httpPort, DEMO);
    expect((await scrape()).value('tas_ws_connections')).toBe(1);
    stream.ws.close();
    await stream.closed;
    await expect.poll(async () => (await scrape()).value('tas_ws_connections')).toBe(0);
    expect((await scrape()).value('tas_ws_connections_opened_total')).toBe(1);

    const ca = fs.readFileSync(path.join(server.dataDir, GENERATED_CERT_FILE), 'utf8');
    const fix = await RawClient.connect(server.fixPort!, ca);
    const header = (type: string, seq: number): string => `35=${type}|34=${seq}|49=TAS_100001|52=${utc(Date.now())}|56=TASGW|`;
    fix.write(frame(`${header('A', 1)}98=0|108=30|141=Y|553=${DEMO.id}|554=${DEMO.secret}|`));
    expect((await fix.next()).type).toBe('A');
    fix.write(frame(`${header('D', 2)}11=m-1|1=100001|55=BTCUSD|54=1|60=${utc(Date.now())}|38=0.01|40=1|59=3|`));
    expect((await fix.next((m) => m.type === '8')).get(150)).toBe('F');
    const during = await scrape();
    expect(during.value('tas_fix_sessions')).toBe(1);
    expect(during.value('tas_fix_logons_total')).toBe(1);
    expect(during.value('tas_fix_messages_total', { direction: 'in', msg_type: 'A' })).toBe(1);
    expect(during.value('tas_fix_messages_total', { direction: 'in', msg_type: 'D' })).toBe(1);
    expect(during.value('tas_fix_messages_total', { direction: 'out', msg_type: '8' })).toBe(1);
    expect(during.value('tas_fix_messages_total', { direction: 'out', msg_type: 'admin' })).toBe(1);
    fix.write(frame(header('5', 3)));
    await fix.next((m) => m.type === '5');
    await expect.poll(async () => (await scrape()).value('tas_fix_sessions')).toBe(0);

    const triggered = await operator(server.consolePort, server.adminToken, 'POST', '/console/api/users/demo/kill-switch/trigger');
    expect(triggered.status, triggered.text).toBe(200);
    const after = await scrape();
    expect(after.value('tas_kill_switch_triggers_total', { scope: 'user' })).toBe(1);
    // The REST and FIX fills count under source api; the kill switch closed them (position events, not orders).
    expect(after.value('tas_orders_total', { source: 'api', result: 'filled' })).toBe(2);
  });

  it('reports each thread\'s heap: main, FIX and every shard', async () => {
    // The worker threads record their figures at start and every second.
    const s = await scrape();
    for (const thread of ['main', 'fix', 'shard-0', 'shard-1']) {
      const used = s.value('tas_thread_heap_used_bytes', { thread });
      expect(used).toBeGreaterThan(1 << 20);
      expect(s.value('tas_thread_heap_total_bytes', { thread })).toBeGreaterThanOrEqual(used);
      expect(s.value('tas_thread_malloced_bytes', { thread })).toBeGreaterThan(0);
      // Every thread holds shared rings (the shard's own at least a megabyte each).
      expect(s.value('tas_thread_external_bytes', { thread })).toBeGreaterThan(1 << 20);
    }
    expect(s.text).not.toMatch(/^tas_thread_heap_used_bytes\{thread="shard-2"\}/m);
  });

  it('reports the shards\' ring fill and queue depth per shard', async () => {
    const s = await scrape();
    for (const shard of ['0', '1']) {
      for (const ring of ['main_in', 'main_out', 'fix_in', 'fix_out']) expect(s.text).toMatch(new RegExp(`^tas_shard_ring_fill_ratio\\{shard="${shard}",ring="${ring}"\\} 0(\\.\\d+)?$`, 'm'));
      expect(s.text).toMatch(new RegExp(`^tas_shard_queue_depth\\{shard="${shard}"\\} 0$`, 'm'));
    }
  });
});
