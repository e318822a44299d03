// Signal webhooks through the real server process: both credential forms, every action, every
// sizing rule with hand-computed volumes, allowed symbols, dedup, the limit, 423, partial target
// failure, bad input (nothing traded anywhere), the signal log and the console's webhook routes.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, RestClient, send, type Answer } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { shardOf } from '../../src/shard/protocol.js';
import {
  BAD_A, BAD_B, BAD_HOOKS, CLOSE_A, CLOSE_B, CONSOLE, DEDUP, EUR_RISK, FIXED, HALTED, keyOf, MULT, PARTIAL, PAUSED, RATE, secretOf,
  SIG, STRANGER, TINY, USD_RISK, WEBHOOK_CONFIG, WEBHOOK_SEED,
} from './support/seed.js';

let server: RunningServer;

beforeAll(async () => { server = await startServer({ seed: WEBHOOK_SEED, config: WEBHOOK_CONFIG }); });
afterAll(async () => { await server.stop(); });

function signal(webhookId: string, body: Record<string, unknown> | string, opts: { contentType?: string | null; headers?: Record<string, string> } = {}): Promise<Answer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return send(server.httpPort, 'POST', `/v1/signal/${webhookId}`, { body: text, ...opts });
}

/** A body with the webhook's own secret. */
const withSecret = (webhookId: string, fields: Record<string, unknown>): Record<string, unknown> => ({ secret: secretOf(webhookId), ...fields });

const console_ = (method: string, path: string, body?: unknown): Promise<Answer> => operator(server.consolePort, server.adminToken, method, path, body);

interface Position { ticket: number; symbol: string; side: string; volume: number; source: string; login: string }

async function positions(login: string): Promise<Position[]> {
  const res = await new RestClient(server.httpPort, keyOf(login)).get(`/v1/positions?login=${login}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Position[];
}

function accepted(res: Answer): { signal_id: string; fanout: Record<string, unknown>[]; latency_ms: number } {
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe('accepted');
  return res.body;
}

function refused(res: Answer, status: number, name: string, field?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code: status, name, ...(field === undefined ? {} : { field }) });
  expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
}

const EURUSD_BUY = { action: 'buy', symbol: 'EURUSD' };

describe('sizing rules', () => {
  it('sizes each target by its rule, in its own currency, and tags the positions webhook', async () => {
    // The targets sit in both shards.
    expect(new Set([FIXED, MULT, EUR_RISK, USD_RISK].map((l) => shardOf(l, 2)))).toEqual(new Set([0, 1]));
    // Buy fills at ask 1.10020; sl 1.09520 is 500 ticks away: 0.005 × 100 000 = 500 USD of risk per lot.
    const res = accepted(await signal('wh-size', withSecret('wh-size', { ...EURUSD_BUY, volume: 0.03, sl: 1.0952, tp: 1.1102 })));
    expect(res.signal_id).toMatch(/^wh-size:\d+$/);
    expect(typeof res.latency_ms).toBe('number');
    expect(res.fanout.map((f) => [f.login, f.volume])).toEqual([
      [FIXED, 0.1], // fixed 0.1 lot
      [MULT, 0.07], // 0.03 × 2.5 = 0.075, rounded down
      // EUR account, 1.5% of 10 000 EUR = 150 EUR; 500 USD per lot ÷ 1.1002 (USD→EUR at the EURUSD ask)
      // = 454.463 EUR per lot → 0.33006 → 0.33 (the same-currency formula would give 0.30).
      [EUR_RISK, 0.33],
      [USD_RISK, 0.24], // 1% of 12 345 USD = 123.45 USD ÷ 500 = 0.2469 → 0.24
    ]);
    for (const f of res.fanout) {
      expect(Number.isInteger(f.ticket)).toBe(true);
      const [p] = await positions(f.login as string);
      expect(p).toMatchObject({ ticket: f.ticket, symbol: 'EURUSD', side: 'buy', volume: f.volume, source: 'webhook' });
    }
  });
});

describe('credentials', () => {
  it('accepts X-Svc-Signature over the raw body sent as text/plain, and refuses a wrong one', async () => {
    const body = JSON.stringify({ action: 'sell', symbol: 'EURUSD' });
    const sig = createHmac('sha256', secretOf('wh-sig')).update(body).digest('hex');
    const ok = accepted(await signal('wh-sig', body, { contentType: 'text/plain', headers: { 'x-svc-signature': sig } }));
    expect(ok.fanout).toEqual([{ login: SIG, volume: 0.01, ticket: expect.any(Number) }]);
    expect((await positions(SIG)).map((p) => [p.side, p.source])).toEqual([['sell', 'webhook']]);
    // The signature covers the exact bytes: one more space and it no longer matches.
    refused(await signal('wh-sig', `${body} `, { headers: { 'x-svc-signature': sig } }), 401, 'unauthorized');
    refused(await signal('wh-sig', body, { headers: { 'x-svc-signature': 'not-hex' } }), 401, 'unauthorized');
    // The header wins over a body secret: a right secret does not rescue a wrong signature.
    refused(await signal('wh-sig', withSecret('wh-sig', { action: 'sell', symbol: 'EURUSD' }), { headers: { 'x-svc-signature': sig } }), 401, 'unauthorized');
    expect(await positions(SIG)).toHaveLength(1);
  });

  it('answers 401 to a wrong or missing secret, 404 to an unknown webhook, and logs the refusals', async () => {
    refused(await signal('wh-sig', { secret: `${secretOf('wh-sig')}x`, action: 'buy', symbol: 'EURUSD' }), 401, 'unauthorized');
    refused(await signal('wh-sig', { secret: 'x', action: 'buy', symbol: 'EURUSD' }), 401, 'unauthorized');
    refused(await signal('wh-sig', { action: 'buy', symbol: 'EURUSD' }), 401, 'unauthorized');
    refused(await signal('no-such-hook', withSecret('wh-sig', EURUSD_BUY)), 404, 'not_found');
    const log = await console_('GET', '/console/api/webhooks/wh-sig/signals?limit=3');
    expect(log.status).toBe(200);
    expect(log.body.data.map((e: { status: number; outcome: string }) => [e.status, e.outcome])).toEqual([
      [401, 'rejected'], [401, 'rejected'], [401, 'rejected'],
    ]);
    expect(log.body.data[1].error).toEqual({ name: 'unauthorized', message: 'bad secret' });
    // The secret never reaches the log.
    expect(JSON.stringify(log.body)).not.toContain(secretOf('wh-sig'));
    expect(log.body.next_cursor).toMatch(/^\d+$/);
    const older = await console_('GET', `/console/api/webhooks/wh-sig/signals?cursor=${log.body.next_cursor}`);
    expect(older.body.data.length).toBeGreaterThan(0);
    expect(older.body.data[0].seq).toBeLessThan(log.body.data[2].seq);
  });
});

describe('actions', () => {
  it('close closes this webhook\'s positions in the symbol, oldest first, up to volume; close_all closes all of them', async () => {
    const manual = await console_('POST', '/console/api/orders', { login: CLOSE_A, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01, source: 'manual' });
    expect(manual.status).toBe(200);
    const first = accepted(await signal('wh-close', withSecret('wh-close', { ...EURUSD_BUY, volume: 0.02 })));
    accepted(await signal('wh-close', withSecret('wh-close', { ...EURUSD_BUY, volume: 0.03 })));
    accepted(await signal('wh-close', withSecret('wh-close', { action: 'sell', symbol: 'BTCUSD', volume: 0.01 })));
    expect(first.fanout.map((f) => f.volume)).toEqual([0.05, 0.02]);

    // A: 0.05 + 0.05 EURUSD → 0.06 closes the first and 0.01 of the second. B: 0.02 + 0.03 → both.
    const close = accepted(await signal('wh-close', withSecret('wh-close', { action: 'close', symbol: 'EURUSD', volume: 0.06 })));
    expect(close.fanout.map((f) => [f.login, f.volume])).toEqual([[CLOSE_A, 0.06], [CLOSE_B, 0.05]]);
    const closedA = close.fanout[0]!.closed as { status: string; volume: number; close_price: number; symbol: string }[];
    expect(closedA.map((c) => [c.status, c.volume, c.close_price, c.symbol])).toEqual([['closed', 0.05, 1.1, 'EURUSD'], ['partially_closed', 0.01, 1.1, 'EURUSD']]);
    expect((await positions(CLOSE_A)).map((p) => [p.symbol, p.volume, p.source])).toEqual([
      ['EURUSD', 0.01, 'manual'], ['EURUSD', 0.04, 'webhook'], ['BTCUSD', 0.05, 'webhook'],
    ]);

    const all = accepted(await signal('wh-close', withSecret('wh-close', { action: 'close_all', symbol: 'EURUSD' })));
    expect(all.fanout.map((f) => [f.login, f.volume])).toEqual([[CLOSE_A, 0.09], [CLOSE_B, 0.01]]);
    expect((await positions(CLOSE_A)).map((p) => p.source)).toEqual(['manual']);
    expect(await positions(CLOSE_B)).toEqual([]);
    // Nothing left to close is not an error.
    const none = accepted(await signal('wh-close', withSecret('wh-close', { action: 'close_all', symbol: 'EURUSD' })));
    expect(none.fanout).toEqual([{ login: CLOSE_A, volume: 0, ticket: null, closed: [] }, { login: CLOSE_B, volume: 0, ticket: null, closed: [] }]);
  });

  it('refuses a symbol outside the webhook\'s list with 403', async () => {
    refused(await signal('wh-size', withSecret('wh-size', { action: 'close', symbol: 'BTCUSD' })), 403, 'forbidden', 'symbol');
  });
});

describe('dedup by comment', () => {
  it('answers a repeat within the window with the original result, and trades once for concurrent repeats', async () => {
    const first = accepted(await signal('wh-dedup', withSecret('wh-dedup', { ...EURUSD_BUY, comment: 'd1' })));
    expect(first).not.toHaveProperty('duplicate');
    const again = await signal('wh-dedup', withSecret('wh-dedup', { ...EURUSD_BUY, comment: 'd1' }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first, duplicate: true });

    const burst = await Promise.all([1, 2, 3].map(() => signal('wh-dedup', withSecret('wh-dedup', { ...EURUSD_BUY, comment: 'd2' }))));
    const ids = new Set(burst.map((r) => accepted(r).signal_id));
    expect(ids.size).toBe(1);
    expect(burst.filter((r) => r.body.duplicate === true)).toHaveLength(2);
    expect(await positions(DEDUP)).toHaveLength(2);

    accepted(await signal('wh-dedup', withSecret('wh-dedup', { ...EURUSD_BUY, comment: 'd3' })));
    expect(await positions(DEDUP)).toHaveLength(3);
    const log = await console_('GET', '/console/api/webhooks/wh-dedup/signals');
    const dups = log.body.data.filter((e: { outcome: string }) => e.outcome === 'duplicate');
    expect(dups.map((e: { duplicate_of: string }) => e.duplicate_of).sort()).toEqual([first.signal_id, [...ids][0], [...ids][0]].sort());
  });
});

describe('limit', () => {
  it('lets 10 through at once and answers the rest 429 with Retry-After and the headers', async () => {
    // At most one 10-second boundary (+5 tokens) can pass during the burst, so 10 to 15 get through.
    const answers = await Promise.all(Array.from({ length: 20 }, () => signal('wh-rate', withSecret('wh-rate', EURUSD_BUY))));
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    expect(ok.length).toBeGreaterThanOrEqual(10);
    expect(ok.length).toBeLessThanOrEqual(15);
    expect(ok.length + limited.length).toBe(20);
    for (const r of limited) {
      refused(r, 429, 'rate_limited');
      const retry = Number(r.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(10);
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      expect(r.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now());
    }
    for (const r of ok) expect(r.headers['x-ratelimit-limit']).toBe('5');
    expect(await positions(RATE)).toHaveLength(ok.length);
    const log = await console_('GET', '/console/api/webhooks/wh-rate/signals');
    expect(log.body.data.filter((e: { status: number }) => e.status === 429)).toHaveLength(limited.length);
  });
});

describe('423 and partial failure', () => {
  it('answers 423 while the webhook is paused, and trades again once resumed', async () => {
    refused(await signal('wh-paused', withSecret('wh-paused', EURUSD_BUY)), 423, 'kill_switch_active');
    const resumed = await console_('POST', '/console/api/webhooks/wh-paused/resume');
    expect(resumed.body).toMatchObject({ id: 'wh-paused', paused: false });
    accepted(await signal('wh-paused', withSecret('wh-paused', EURUSD_BUY)));
    expect((await console_('POST', '/console/api/webhooks/wh-paused/pause')).body.paused).toBe(true);
    refused(await signal('wh-paused', withSecret('wh-paused', EURUSD_BUY)), 423, 'kill_switch_active');
    expect(await positions(PAUSED)).toHaveLength(1);
  });

  it('reports a target below 0.01 lot and a kill-switched account, and trades the others', async () => {
    const halt = await console_('PUT', `/console/api/accounts/${HALTED}/kill-switch`, { active: true });
    expect(halt.status, halt.text).toBe(200);
    const res = accepted(await signal('wh-partial', withSecret('wh-partial', { ...EURUSD_BUY, sl: 1.0952, tp: 1.1102 })));
    expect(res.fanout[0]).toEqual({ login: PARTIAL, volume: 0.01, ticket: expect.any(Number) });
    // 1% of 10 USD = 0.10 USD ÷ 500 USD per lot = 0.0002 lot: reported, never rounded up.
    expect(res.fanout[1]).toEqual({
      login: TINY, volume: 0,
      error: { name: 'invalid_order', field: 'volume', message: 'computed size 0.0002 lots (equity 10.00 USD) is below the minimum 0.01 lots' },
    });
    expect(res.fanout[2]).toMatchObject({ login: HALTED, volume: 0, error: { name: 'kill_switch_active' } });
    expect(await positions(TINY)).toEqual([]);
    expect(await positions(HALTED)).toEqual([]);
    expect((await console_('PUT', `/console/api/accounts/${HALTED}/kill-switch`, { active: false })).status).toBe(200);
    expect(accepted(await signal('wh-partial', withSecret('wh-partial', { ...EURUSD_BUY, sl: 1.0952, tp: 1.1102 }))).fanout[2]).toMatchObject({ login: HALTED, volume: 0.01 });
  });
});

describe('bad input', () => {
  const cases: [string, string | Record<string, unknown>, number, string, string | undefined][] = [
    ['malformed JSON', '{"action": "buy",', 400, 'bad_request', undefined],
    ['an array', '[1,2]', 400, 'bad_request', undefined],
    ['an empty body', '', 400, 'bad_request', undefined],
    ['a huge body', JSON.stringify({ comment: 'x'.repeat(10_000) }), 400, 'bad_request', undefined],
    ['a huge comment', { ...EURUSD_BUY, volume: 1, comment: 'c'.repeat(33) }, 400, 'bad_request', 'comment'],
    ['no action', { symbol: 'EURUSD', volume: 1 }, 400, 'bad_request', 'action'],
    ['a wrong action', { action: 'long', symbol: 'EURUSD', volume: 1 }, 400, 'bad_request', 'action'],
    ['no symbol', { action: 'buy', volume: 1 }, 400, 'bad_request', 'symbol'],
    ['no volume for the multiplier', { ...EURUSD_BUY, sl: 1.09, tp: 1.2 }, 400, 'bad_request', 'volume'],
    ['no sl for risk_percent', { ...EURUSD_BUY, volume: 1, tp: 1.2 }, 400, 'bad_request', 'sl'],
    ['no tp for risk_percent', { ...EURUSD_BUY, volume: 1, sl: 1.09 }, 400, 'bad_request', 'tp'],
    ['a volume off the 0.01 step', { ...EURUSD_BUY, volume: 0.015, sl: 1.09, tp: 1.2 }, 422, 'invalid_order', 'volume'],
    ['a volume as text', { ...EURUSD_BUY, volume: '1', sl: 1.09, tp: 1.2 }, 400, 'bad_request', 'volume'],
    ['a price with too many decimals', { ...EURUSD_BUY, volume: 1, sl: 1.090001, tp: 1.2 }, 422, 'invalid_order', 'sl'],
    ['an unknown field', { ...EURUSD_BUY, volume: 1, sl: 1.09, tp: 1.2, qty: 1 }, 400, 'bad_request', 'qty'],
    ['a symbol not allowed', { action: 'buy', symbol: 'BTCUSD', volume: 1, sl: 60000, tp: 70000 }, 403, 'forbidden', 'symbol'],
  ];

  it.each(cases.map((c, i) => [...c, BAD_HOOKS[i % BAD_HOOKS.length]!] as const))('%s: %i %s, nothing traded', async (_what, body, status, name, field, hook) => {
    const text = typeof body === 'string' ? body : JSON.stringify(withSecret(hook, body));
    refused(await signal(hook, text), status, name, field);
  });

  it('left every target untouched and logged each refusal with its reason', async () => {
    expect(await positions(BAD_A)).toEqual([]);
    expect(await positions(BAD_B)).toEqual([]);
    const logged = (await Promise.all(BAD_HOOKS.map((h) => console_('GET', `/console/api/webhooks/${h}/signals`)))).flatMap((r) => r.body.data);
    expect(logged).toHaveLength(cases.length);
    for (const e of logged) {
      expect(e.outcome).toBe('rejected');
      expect(e.error.message.length).toBeGreaterThan(0);
    }
    expect(logged.map((e) => e.error.field).filter((f) => f !== undefined).sort()).toEqual(
      cases.map((c) => c[4]).filter((f) => f !== undefined).sort(),
    );
  });
});

describe('console webhook routes', () => {
  it('creates a webhook with a generated secret shown once, lists it, and the secret works', async () => {
    const created = await console_('POST', '/console/api/webhooks', {
      id: 'wh-made', user: 'u1', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 0.02 } }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: 'wh-made', user: 'u1', paused: false, targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 0.02 } }] });
    const secret = created.body.secret as string;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const list = await console_('GET', '/console/api/webhooks');
    const listed = list.body.data.find((w: { id: string }) => w.id === 'wh-made');
    expect(listed).toEqual({ ...created.body, secret: undefined });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(accepted(await signal('wh-made', { secret, ...EURUSD_BUY })).fanout).toEqual([{ login: CONSOLE, volume: 0.02, ticket: expect.any(Number) }]);
    // Given a secret, the answer does not repeat it.
    const own = await console_('POST', '/console/api/webhooks', {
      user: 'u1', secret: 'my-own-secret-0123456789', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'multiplier', factor: 0.5 } }],
    });
    expect(own.status).toBe(201);
    expect(own.body.id).toMatch(/^wh_[0-9a-f]{16}$/);
    expect(own.body).not.toHaveProperty('secret');
  });

  it.each([
    [{ user: 'u1', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 0.015 } }] }, 400, 'targets[0].sizing.lots'],
    [{ user: 'u1', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'ratio', factor: 1 } }] }, 400, 'targets[0].sizing.type'],
    [{ user: 'u1', symbols: ['EURUSD'], targets: [{ login: STRANGER, sizing: { type: 'fixed', lots: 1 } }] }, 400, 'targets[0].login'],
    [{ user: 'u1', symbols: ['EURUSD'], targets: [{ login: '999999', sizing: { type: 'fixed', lots: 1 } }] }, 404, 'targets[0].login'],
    [{ user: 'nobody', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 1 } }] }, 404, 'user'],
    [{ user: 'u1', symbols: ['XAUUSD'], targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 1 } }] }, 400, 'symbols[0]'],
    [{ id: 'wh-size', user: 'u1', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 1 } }] }, 400, 'id'],
    [{ user: 'u1', symbols: ['EURUSD'], targets: [], extra: 1 }, 400, 'extra'],
    [{ user: 'u1', secret: 'short', symbols: ['EURUSD'], targets: [{ login: CONSOLE, sizing: { type: 'fixed', lots: 1 } }] }, 400, 'secret'],
  ])('refuses %j', async (body, status, field) => {
    const res = await console_('POST', '/console/api/webhooks', body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.error.field).toBe(field);
  });

  it('answers 404 for unknown webhooks and 401 without the operator token', async () => {
    expect((await console_('POST', '/console/api/webhooks/nope/pause')).status).toBe(404);
    expect((await console_('GET', '/console/api/webhooks/nope/signals')).status).toBe(404);
    expect((await send(server.consolePort, 'GET', '/console/api/webhooks')).status).toBe(401);
  });
});
