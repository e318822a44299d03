// The snapshot of a large account through the real server (DECISIONS "WebSocket messages"): 6,000
// open positions and 300 pending orders, about 1.3 MB of JSON, to connections whose send buffer
// limit is 128 KiB. The snapshot comes in pages of at most 32 KiB (a quarter of the limit) and a
// snapshot_end; a reader that keeps up gets all of it and is never closed; events of the account
// that happen meanwhile follow snapshot_end in seq order; and every page after the first costs a
// token of the connection's op budget (50 per second, burst 100), so snapshots cannot be asked for
// faster than that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { KEYS, LOGIN, streamSeed } from './support/seed.js';
import { operatorOrder, rest, TestStream, type Msg } from './support/stream-client.js';

const POSITIONS = 6000;
const PENDING = 300;
const MAX_BUFFER_BYTES = 128 * 1024;
const PAGE_BYTES = MAX_BUFFER_BYTES / 4;
/** A page ends at the record that takes it past PAGE_BYTES: one record over at most. */
const PAGE_LIMIT = PAGE_BYTES + 1024;
const OPS_PER_SECOND = 50;
const OPS_BURST = 100;

let server: RunningServer;
const tickets: number[] = [];
const pendingIds: string[] = [];

/** `count` operator orders, `inFlight` at a time. */
async function place(count: number, inFlight: number, order: Record<string, unknown>): Promise<{ id: string; ticket: number | null }[]> {
  const out: { id: string; ticket: number | null }[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) {
      next++;
      const res = await operatorOrder(server, order);
      expect(res.status).toBe(200);
      out.push(res.body);
    }
  }));
  return out;
}

beforeAll(async () => {
  const seed = streamSeed();
  const accounts = (seed['accounts'] as Record<string, unknown>[]).map((a) => (a['login'] === LOGIN ? { ...a, balance: 100_000_000 } : a));
  server = await startServer({
    seed: { ...seed, accounts },
    config: { prices: { source: 'push' }, durability: 'none', stream: { heartbeat_ms: 60_000, max_buffer_bytes: MAX_BUFFER_BYTES } },
  });
  for (const o of await place(POSITIONS, 32, { login: LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 0.01 })) tickets.push(o.ticket!);
  for (const o of await place(PENDING, 32, { login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'limit', price: 60000, volume: 0.01 })) pendingIds.push(o.id);
  tickets.sort((a, b) => a - b);
  pendingIds.sort((a, b) => Number(a) - Number(b));
}, 120_000);
afterAll(async () => { await server?.stop(); });

/** Every message of the snapshot that starts at or after message `from`: its pages, then its end. */
async function snapshotOf(s: TestStream): Promise<{ pages: Msg[]; end: Msg }> {
  const end = await s.take((m) => m.channel === 'snapshot_end', 20_000);
  const pages = s.messages.slice(0, s.messages.indexOf(end)).filter((m) => m.channel === 'snapshot' && m.seq === end.seq);
  return { pages: pages.slice(pages.findLastIndex((p) => p.page === 1)), end };
}

describe('a large snapshot', () => {
  it('comes in bounded pages and a snapshot_end, all of it, to a reader that keeps up', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    await s.request({ op: 'subscribe', id: 1, channels: ['positions', 'orders'] });
    const { pages, end } = await snapshotOf(s);
    expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
    expect(end).toMatchObject({ login: LOGIN, pages: pages.length, position_count: POSITIONS, order_count: PENDING });
    expect(pages.length).toBeGreaterThan(1_000_000 / PAGE_BYTES);
    for (const p of pages) {
      expect(JSON.stringify(p).length).toBeLessThanOrEqual(PAGE_LIMIT);
      expect(p.seq).toBe(end.seq);
      expect(Array.isArray(p.positions) && Array.isArray(p.orders)).toBe(true);
    }
    expect(pages.flatMap((p) => p.positions.map((x: Msg) => x.ticket))).toEqual(tickets);
    expect(pages.flatMap((p) => p.orders.map((x: Msg) => x.id))).toEqual(pendingIds);
    expect(pages[0].positions[0]).toMatchObject({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 0.01, source: 'manual' });
    expect(typeof pages[0].positions[0].profit).toBe('number');
    // Still open and served.
    expect((await s.request({ op: 'ping', id: 2 })).channel).toBe('pong');
    expect(server.logs.some((l) => l.msg === 'stream consumer too slow: closed')).toBe(false);
    await s.close();
  });

  it('holds the account\'s events that happen meanwhile until snapshot_end, then sends them in seq order', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    // Spend the op budget first, so the pages come at the refill rate, well after the order below.
    for (let i = 0; i < OPS_BURST - 2; i++) s.send({ op: 'ping', id: `p${i}` });
    await s.take((m) => m.id === `p${OPS_BURST - 3}`);
    await s.request({ op: 'subscribe', id: 1, channels: ['positions'] });
    const first = await s.take((m) => m.channel === 'snapshot');
    const placed = await rest(server, KEYS.main, 'POST', '/orders', { login: LOGIN, symbol: 'BTCUSD', side: 'sell', type: 'market', volume: 0.01 });
    expect(placed.status).toBe(200);
    const { end } = await snapshotOf(s);
    // Live P&L messages (`live: true`, no seq) are not events: the new position's may come at any
    // time, snapshot or not (live.ts), so none of the checks below counts them.
    // The order was answered while the snapshot was still on its way.
    expect(s.messages.indexOf(end)).toBeGreaterThan(s.messages.indexOf(first));
    const position = await s.take((m) => m.channel === 'position' && m.live !== true && m.ticket === placed.body.ticket);
    expect(position.seq).toBe(end.seq + 2);
    const events = s.messages.filter((m) => (m.channel === 'position' || m.channel === 'order') && m.live !== true);
    expect(s.messages.indexOf(events[0])).toBeGreaterThan(s.messages.indexOf(end));
    expect(events.map((m) => m.seq)).toEqual([end.seq + 2]);
    await s.close();
  });

  it('charges every page after the first to the connection\'s op budget', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    let refused = 0;
    /** Sends the op until it is not refused for the rate, as a client backing off would. */
    const accepted = async (op: Record<string, unknown>): Promise<void> => {
      for (;;) {
        s.send(op);
        // An op refused for the rate is not read, so its error has no id.
        const answer = await s.take((m) => m.id === op['id'] || (m.channel === 'error' && m.id === null));
        if (answer.channel !== 'error') return;
        expect(answer.name).toBe('rate_limited');
        refused++;
        await new Promise((r) => setTimeout(r, 1000 / OPS_PER_SECOND));
      }
    };
    const startedMs = Date.now();
    let tokens = 0;
    for (let i = 0; i < 6; i++) {
      await accepted({ op: 'subscribe', id: `s${i}`, channels: ['positions', 'orders'] });
      const { end } = await snapshotOf(s);
      await accepted({ op: 'unsubscribe', id: `u${i}`, channels: ['positions', 'orders'] });
      tokens += 2 + end.pages - 1;
    }
    const elapsedMs = Date.now() - startedMs;
    // A full bucket of OPS_BURST, then OPS_PER_SECOND: no faster than this, however fast the machine.
    expect(tokens).toBeGreaterThan(OPS_BURST + OPS_PER_SECOND);
    expect(elapsedMs).toBeGreaterThanOrEqual(((tokens - OPS_BURST) / OPS_PER_SECOND) * 1000 - 50);
    // The pages took the tokens as they came: the client's own ops found the bucket empty.
    expect(refused).toBeGreaterThan(0);
    await s.close();
  }, 60_000);
});
