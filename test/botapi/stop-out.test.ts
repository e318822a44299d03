// Stop-out through the real process: an account whose group has a margin-call level at 150% and a
// stop-out level at 80% (config margin.groups) sees margin_call on its account channel once a
// pushed quote takes its margin level below 150%, and a pushed adverse quote below 80% closes its
// most losing position first (reason stop_out), until the level is back above 80%.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { streamSeed } from '../stream/support/seed.js';
import { pushQuote, rest, TestStream } from '../stream/support/stream-client.js';

const THIN = '100077';
const KEY = { id: 'k-thin', secret: 'secret-of-k-thin-0123456789' };

function seed(): Record<string, unknown> {
  const s = streamSeed();
  return {
    ...s,
    accounts: [...(s['accounts'] as unknown[]), { login: THIN, user: 'u1', type: 'demo', group: 'demo\\thin', currency: 'USD', balance: 1000, leverage: 100, server: 'Demo-1' }],
    keys: [...(s['keys'] as unknown[]), { ...KEY, name: 'thin', login: THIN, scopes: ['read', 'trade'], rate_limit: 50 }],
  };
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    seed: seed(),
    config: { prices: { source: 'push' }, margin: { margin_call_percent: 100, stop_out_percent: 50, groups: { 'demo\\thin': { margin_call_percent: 150, stop_out_percent: 80 } } } },
  });
});
afterAll(async () => { await server?.stop(); });

const order = (volume: number) => ({ login: THIN, symbol: 'EURUSD', side: 'buy', type: 'market', volume });

describe('stop-out', () => {
  it('flags the margin call, then closes the most losing position first on an adverse quote', async () => {
    const s = await TestStream.connect(server.httpPort, KEY);
    await s.request({ op: 'subscribe', id: 1, channels: ['positions', 'account'] });
    await s.take((m) => m.channel === 'account' && m.margin_call === false);
    // EURUSD at 1.1002: 0.3 lot holds 330 of margin, 0.2 lot 220 (550 in all; balance 1,000).
    const big = await rest(server, KEY, 'POST', '/orders', order(0.3));
    const small = await rest(server, KEY, 'POST', '/orders', order(0.2));
    expect([big.status, small.status]).toEqual([200, 200]);
    // 1.0880: the 0.5 lot loses ~612 → equity ~388, level ~70%: below 80%. First, 1.0950: level ~135%: a margin call only.
    await pushQuote(server, 'EURUSD', 1.095, 1.0952);
    expect(await s.take((m) => m.channel === 'account' && m.margin_call === true)).toMatchObject({ login: THIN });
    expect((await rest(server, KEY, 'GET', '/positions')).body.data).toHaveLength(2);
    await pushQuote(server, 'EURUSD', 1.088, 1.0882);
    const closed = await s.take((m) => m.channel === 'position' && m.live !== true && m.status === 'closed');
    expect(closed).toMatchObject({ ticket: big.body.ticket, reason: 'stop_out' });
    const left = (await rest(server, KEY, 'GET', '/positions')).body.data;
    expect(left.map((p: { ticket: number }) => p.ticket)).toEqual([small.body.ticket]);
    const account = (await rest(server, KEY, 'GET', `/accounts/${THIN}`)).body;
    expect(account.margin_level).toBeGreaterThanOrEqual(80);
    // Equity is what it was at that price: the loss moved from floating into the balance.
    expect(account.equity).toBeCloseTo(1000 - (1.1002 - 1.088) * 50_000, 2);
    await s.close();
  });
});
