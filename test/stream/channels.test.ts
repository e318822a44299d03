// Each op and channel through the real server with a `ws` client: quotes (latest on subscribe,
// every pushed tick, unsubscribe, the 200-symbol limit), order and position events for every change
// the REST API, the console, SL/TP, pending triggers, webhooks and the kill switch cause, each with
// its seq, snapshots, since_seq, and the throttled account channel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { EUR_LOGIN, KEYS, KILL_LOGIN, LADDER, LOGIN, OTHER_LOGIN, STREAM_CONFIG, streamSeed, WEBHOOK } from './support/seed.js';
import { operatorOrder, pushQuote, rest, TestStream, type Msg } from './support/stream-client.js';

let server: RunningServer;
beforeAll(async () => { server = await startServer({ seed: streamSeed(), config: STREAM_CONFIG }); });
afterAll(async () => { await server?.stop(); });

const isPositionEvent = (m: Msg): boolean => m.channel === 'position' && m.live !== true;
/** Order and position events (live P&L updates carry no seq). */
const isEvent = (m: Msg): boolean => (m.channel === 'order' || m.channel === 'position') && m.live !== true;

async function subscribeEvents(key = KEYS.other, extra: Record<string, unknown> = {}): Promise<{ s: TestStream; seq: number }> {
  const s = await TestStream.connect(server.httpPort, key);
  const ack = await s.request({ op: 'subscribe', id: 1, channels: ['orders', 'positions'], ...extra });
  expect(ack.channel).toBe('subscribed');
  const snap = await s.take((m) => m.channel === 'snapshot');
  return { s, seq: snap.seq };
}

describe('quotes', () => {
  it('acks, sends the latest quote of each symbol, then every pushed tick, and stops after unsubscribe', async () => {
    await pushQuote(server, 'EURUSD', 1.1, 1.1002);
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    const ack = await s.request({ op: 'subscribe', id: 7, channels: ['quotes'], symbols: ['EURUSD', 'BTCUSD'] });
    expect(ack).toEqual({ channel: 'subscribed', id: 7, channels: ['quotes'], symbols: ['EURUSD', 'BTCUSD'] });
    const eur = await s.take((m) => m.channel === 'quote' && m.symbol === 'EURUSD');
    expect(eur).toMatchObject({ bid: 1.1, ask: 1.1002 });
    expect(Object.keys(eur).sort()).toEqual(['ask', 'bid', 'channel', 'symbol', 'ts']);
    await s.take((m) => m.channel === 'quote' && m.symbol === 'BTCUSD');

    for (let i = 1; i <= 20; i++) await pushQuote(server, 'EURUSD', (110000 + i) / 100000, (110020 + i) / 100000);
    const bids: number[] = [];
    for (let i = 1; i <= 20; i++) bids.push((await s.take((m) => m.channel === 'quote' && m.symbol === 'EURUSD')).bid);
    expect(bids).toEqual(Array.from({ length: 20 }, (_, i) => (110001 + i) / 100000));

    const un = await s.request({ op: 'unsubscribe', id: 8, channels: ['quotes'], symbols: ['EURUSD'] });
    expect(un).toEqual({ channel: 'unsubscribed', id: 8, channels: ['quotes'], symbols: ['EURUSD'] });
    await pushQuote(server, 'EURUSD', 1.2, 1.2002);
    await pushQuote(server, 'BTCUSD', 65001, 65011);
    await s.take((m) => m.channel === 'quote' && m.symbol === 'BTCUSD' && m.bid === 65001);
    expect(s.messages.some((m) => m.channel === 'quote' && m.bid === 1.2)).toBe(false);
    await pushQuote(server, 'BTCUSD', 65000, 65010);
    await s.close();
  });

  it('takes up to 200 symbols per connection; one more is refused (rate_limited) and changes nothing', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    expect((await s.request({ op: 'subscribe', id: 1, channels: ['quotes'], symbols: LADDER.slice(0, 150) })).channel).toBe('subscribed');
    // Already-subscribed symbols count once.
    expect((await s.request({ op: 'subscribe', id: 2, channels: ['quotes'], symbols: LADDER.slice(100, 200) })).channel).toBe('subscribed');
    const over = await s.request({ op: 'subscribe', id: 3, channels: ['quotes'], symbols: [LADDER[200], 'BTCUSD'] });
    expect(over).toMatchObject({ channel: 'error', id: 3, name: 'rate_limited', field: 'symbols' });
    await pushQuote(server, LADDER[200]!, 101, 101.5);
    await pushQuote(server, 'BTCUSD', 65002, 65012);
    await pushQuote(server, LADDER[199]!, 102, 102.5);
    await s.take((m) => m.channel === 'quote' && m.symbol === LADDER[199] && m.bid === 102);
    expect(s.messages.some((m) => m.channel === 'quote' && (m.symbol === LADDER[200] || m.symbol === 'BTCUSD'))).toBe(false);
    // Unsubscribing makes room.
    await s.request({ op: 'unsubscribe', id: 4, channels: ['quotes'], symbols: [LADDER[0]] });
    expect((await s.request({ op: 'subscribe', id: 5, channels: ['quotes'], symbols: [LADDER[200]] })).channel).toBe('subscribed');
    await pushQuote(server, 'BTCUSD', 65000, 65010);
    await s.close();
  });

  it('batches the ticks of one turn into one frame, newline-separated', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    await s.request({ op: 'subscribe', id: 1, channels: ['quotes'], symbols: LADDER.slice(0, 3) });
    await s.take((m) => m.channel === 'quote' && m.symbol === LADDER[2]);
    const framesBefore = s.frames.length;
    // Pushes in flight together land in the same turns on the server.
    await Promise.all(Array.from({ length: 60 }, (_, i) => pushQuote(server, LADDER[i % 3]!, 200 + i, 200.5 + i)));
    for (let i = 0; i < 60; i++) await s.take((m) => m.channel === 'quote' && m.bid >= 200);
    const frames = s.frames.slice(framesBefore).filter((f) => f.includes('"channel":"quote"'));
    expect(frames.flatMap((f) => f.split('\n'))).toHaveLength(60);
    expect(frames.length).toBeLessThan(60);
    await s.close();
  });
});

describe('order and position events', () => {
  it('a REST market order, partial and full close: order and position messages with contiguous seq', async () => {
    const { s, seq } = await subscribeEvents();
    const placed = await rest(server, KEYS.other, 'POST', '/orders', { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.02 });
    expect(placed.status).toBe(200);
    const order = await s.take((m) => m.channel === 'order' && m.id === placed.body.id);
    expect(order).toMatchObject({
      login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', status: 'filled', price: 65010, volume: 0.02,
      ticket: placed.body.ticket, source: 'api', key_id: KEYS.other.id,
    });
    const opened = await s.take((m) => isPositionEvent(m) && m.status === 'open');
    expect(opened).toMatchObject({ login: OTHER_LOGIN, ticket: placed.body.ticket, symbol: 'BTCUSD', side: 'buy', volume: 0.02, open_price: 65010, source: 'api', profit: -0.2 });

    const partial = await rest(server, KEYS.other, 'DELETE', `/positions/${placed.body.ticket}?volume=0.01`);
    expect(partial.body.status).toBe('partially_closed');
    expect(await s.take((m) => isPositionEvent(m) && m.status === 'partially_closed'))
      .toMatchObject({ ticket: placed.body.ticket, volume: 0.01, closed_volume: 0.01, close_price: 65000, profit: -0.1, reason: 'client' });
    await rest(server, KEYS.other, 'DELETE', `/positions/${placed.body.ticket}`);
    expect(await s.take((m) => isPositionEvent(m) && m.status === 'closed'))
      .toMatchObject({ ticket: placed.body.ticket, volume: 0.01, close_price: 65000, profit: -0.1, reason: 'client' });

    const events = s.messages.filter(isEvent);
    expect(events.map((e) => e.seq)).toEqual([seq + 1, seq + 2, seq + 3, seq + 4]);
    for (const e of events) expect(typeof e.ts).toBe('number');
    await s.close();
  });

  it('pending orders: placed, cancelled through REST, and filled by a pushed tick', async () => {
    const { s } = await subscribeEvents();
    const limit = await rest(server, KEYS.other, 'POST', '/orders', { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'limit', volume: 0.01, price: 64000 });
    expect(await s.take((m) => m.channel === 'order' && m.id === limit.body.id)).toMatchObject({ status: 'pending', ticket: null, price: 64000 });
    await rest(server, KEYS.other, 'DELETE', `/orders/${limit.body.id}`);
    expect(await s.take((m) => m.channel === 'order' && m.id === limit.body.id)).toMatchObject({ status: 'cancelled' });

    const trigger = await rest(server, KEYS.other, 'POST', '/orders', { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'limit', volume: 0.01, price: 64500 });
    await s.take((m) => m.channel === 'order' && m.id === trigger.body.id && m.status === 'pending');
    await pushQuote(server, 'BTCUSD', 64490, 64500);
    const filled = await s.take((m) => m.channel === 'order' && m.id === trigger.body.id && m.status === 'filled');
    const opened = await s.take((m) => isPositionEvent(m) && m.ticket === filled.ticket);
    expect(opened).toMatchObject({ status: 'open', open_price: 64500, source: 'api' });
    await pushQuote(server, 'BTCUSD', 65000, 65010);
    await rest(server, KEYS.other, 'DELETE', `/positions/${filled.ticket}`);
    await s.take((m) => isPositionEvent(m) && m.ticket === filled.ticket && m.status === 'closed');
    const seqs = s.messages.filter(isEvent).map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    await s.close();
  });

  it('SL and TP closes carry their reason; console orders stream too', async () => {
    const { s } = await subscribeEvents();
    const tp = await operatorOrder(server, { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 0.01, tp: 65500, source: 'strategy' });
    const sl = await operatorOrder(server, { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 0.01, sl: 64500 });
    expect(await s.take((m) => m.channel === 'order' && m.id === tp.body.id)).toMatchObject({ source: 'strategy', status: 'filled' });
    await pushQuote(server, 'BTCUSD', 65500, 65510);
    expect(await s.take((m) => isPositionEvent(m) && m.ticket === tp.body.ticket && m.status === 'closed'))
      .toMatchObject({ reason: 'tp', close_price: 65500, profit: 4.9 });
    await pushQuote(server, 'BTCUSD', 64500, 64510);
    expect(await s.take((m) => isPositionEvent(m) && m.ticket === sl.body.ticket && m.status === 'closed'))
      .toMatchObject({ reason: 'sl', close_price: 64500, profit: -5.1, source: 'manual' });
    await pushQuote(server, 'BTCUSD', 65000, 65010);
    await s.close();
  });

  it('webhook fills and kill-switch closes reach the account\'s subscribers', async () => {
    const { s } = await subscribeEvents(KEYS.kill);
    const signal = await fetch(`${server.http}/v1/signal/${WEBHOOK.id}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: WEBHOOK.secret, action: 'buy', symbol: 'BTCUSD' }),
    });
    expect(signal.status).toBe(200);
    const byHook = await s.take((m) => isPositionEvent(m) && m.status === 'open');
    expect(byHook).toMatchObject({ login: KILL_LOGIN, source: 'webhook', volume: 0.01 });
    expect(await s.take((m) => m.channel === 'order' && m.ticket === byHook.ticket)).toMatchObject({ source: 'webhook' });
    const trigger = await fetch(`${server.console}/console/api/users/u2/kill-switch/trigger`, {
      method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' }, body: '{}',
    });
    expect(trigger.status).toBe(200);
    expect(await s.take((m) => isPositionEvent(m) && m.ticket === byHook.ticket && m.status === 'closed')).toMatchObject({ reason: 'kill_switch' });
    await s.close();
  });

  it('a plain subscribe starts with a snapshot of open positions and pending orders at the account\'s seq', async () => {
    const pos = await operatorOrder(server, { login: EUR_LOGIN, symbol: 'BTCUSD', side: 'sell', volume: 0.01 });
    const pend = await operatorOrder(server, { login: EUR_LOGIN, symbol: 'BTCUSD', side: 'sell', type: 'limit', volume: 0.01, price: 66000 });
    const s = await TestStream.connect(server.httpPort, KEYS.eur);
    await s.request({ op: 'subscribe', id: 1, channels: ['positions'] });
    const onlyPositions = await s.take((m) => m.channel === 'snapshot');
    expect(onlyPositions.orders).toBeUndefined();
    expect(onlyPositions.positions).toEqual([expect.objectContaining({ ticket: pos.body.ticket, side: 'sell', open_price: 65000, source: 'manual' })]);
    expect(typeof onlyPositions.positions[0].profit).toBe('number');
    // One page: it and its end leave with the ack, in one frame.
    expect(await s.take((m) => m.channel === 'snapshot_end')).toEqual({
      channel: 'snapshot_end', login: EUR_LOGIN, seq: onlyPositions.seq, ts: expect.any(Number), pages: 1, position_count: 1,
    });
    expect(s.frames.some((f) => f.includes('"channel":"subscribed"') && f.includes('"channel":"snapshot_end"'))).toBe(true);
    await s.request({ op: 'subscribe', id: 2, channels: ['orders'], login: EUR_LOGIN });
    const orders = await s.take((m) => m.channel === 'snapshot');
    expect(orders.positions).toBeUndefined();
    expect(orders.orders).toEqual([expect.objectContaining({ id: pend.body.id, status: 'pending', price: 66000 })]);
    expect(orders.seq).toBe(onlyPositions.seq);
    expect(orders.seq).toBeGreaterThanOrEqual(3);
    await s.close();
  });

  it('since_seq replays the journaled events after it, then goes live; one ahead of the account is refused', async () => {
    const { s: first, seq: start } = await subscribeEvents();
    const placed = await rest(server, KEYS.other, 'POST', '/orders', { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'sell', type: 'market', volume: 0.01 });
    await first.take((m) => isPositionEvent(m) && m.ticket === placed.body.ticket);
    const seen = first.messages.filter(isEvent);

    const s = await TestStream.connect(server.httpPort, KEYS.other);
    const ahead = await s.request({ op: 'subscribe', id: 1, channels: ['orders', 'positions'], since_seq: start + 1000 });
    expect(ahead).toMatchObject({ channel: 'error', id: 1, name: 'bad_request', field: 'since_seq' });
    expect((await s.request({ op: 'subscribe', id: 2, channels: ['orders', 'positions'], since_seq: start })).channel).toBe('subscribed');
    const replayed = [await s.take(isEvent), await s.take(isEvent)];
    expect(replayed).toEqual(seen);
    expect(s.of('snapshot')).toHaveLength(0);
    await rest(server, KEYS.other, 'DELETE', `/positions/${placed.body.ticket}`);
    expect((await s.take(isEvent)).seq).toBe(start + 3);
    // since_seq applies to the first subscribe of a login's events on a connection only.
    expect(await s.request({ op: 'subscribe', id: 3, channels: ['positions'], since_seq: start })).toMatchObject({ name: 'bad_request', field: 'since_seq' });
    await Promise.all([first.close(), s.close()]);
  });

  it('orders only: position events are not sent, and unsubscribe stops the rest', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.other);
    await s.request({ op: 'subscribe', id: 1, channels: ['orders'] });
    const placed = await rest(server, KEYS.other, 'POST', '/orders', { login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01 });
    await s.take((m) => m.channel === 'order' && m.id === placed.body.id);
    expect(await s.request({ op: 'unsubscribe', id: 2, channels: ['orders'] })).toMatchObject({ channel: 'unsubscribed', login: OTHER_LOGIN });
    await s.request({ op: 'subscribe', id: 3, channels: ['quotes'], symbols: ['EURUSD'] });
    await rest(server, KEYS.other, 'DELETE', `/positions/${placed.body.ticket}`);
    await pushQuote(server, 'EURUSD', 1.3, 1.3002);
    await s.take((m) => m.channel === 'quote' && m.bid === 1.3);
    expect(s.messages.filter(isEvent)).toHaveLength(1);
    await s.close();
  });
});

describe('account channel', () => {
  it('sends the state at once, then changes at most every 100 ms', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    await s.request({ op: 'subscribe', id: 1, channels: ['account'] });
    const initial = await s.take((m) => m.channel === 'account');
    expect(Object.keys(initial).sort()).toEqual(['balance', 'channel', 'equity', 'free_margin', 'login', 'margin', 'margin_call', 'margin_level', 'seq', 'ts']);
    expect(initial).toMatchObject({ login: LOGIN, balance: 10000 });

    const placed = await operatorOrder(server, { login: LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 1 });
    const withMargin = await s.take((m) => m.channel === 'account' && m.margin > 0);
    expect(withMargin.seq).toBeGreaterThan(initial.seq);
    // Many ticks move the equity; the updates stay 100 ms apart.
    for (let i = 1; i <= 40; i++) await pushQuote(server, 'BTCUSD', 65000 + i, 65010 + i);
    const last = await s.take((m) => m.channel === 'account' && m.equity === 10000 + 40 - 10);
    const updates = s.of('account').filter((m) => m.ts >= withMargin.ts);
    for (let i = 1; i < updates.length; i++) expect(updates[i].ts - updates[i - 1].ts).toBeGreaterThanOrEqual(100);
    expect(updates.length).toBeLessThan(40);
    expect(last).toMatchObject({ margin: withMargin.margin, free_margin: last.equity - withMargin.margin });
    await pushQuote(server, 'BTCUSD', 65000, 65010);
    expect(placed.status).toBe(200);
    await s.close();
  });
});
