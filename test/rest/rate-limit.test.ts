// The documented limits against the live server: bursts see 429 with Retry-After exactly when the
// bucket is empty, per key for reads, per account for trade calls, per address before
// authentication; every answer carries the three headers.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { operator, RestClient, send, type Answer } from './support/client.js';
import { expectError, expectRateLimitHeaders } from './support/expect.js';
import { BURST_LOGIN, KEYS, MAIN_LOGIN, REST_CONFIG, restSeed } from './support/seed.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ seed: restSeed(Date.now()), config: REST_CONFIG });
  const q = await operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol: 'BTCUSD', bid: 65000, ask: 65010 });
  expect(q.status).toBe(200);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const remaining = (res: Answer): number => Number(res.headers['x-ratelimit-remaining']);

/**
 * Calls until the first 429 (or `max` calls) and checks the bucket's promise on the way: while the
 * previous answer reported a whole token left, the next call is served; the 429 follows an answer
 * that reported none. Returns the answers.
 */
async function burstUntilRefused(call: () => Promise<Answer>, max: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < max; i++) {
    const res = await call();
    expectRateLimitHeaders(res);
    const previous = answers[answers.length - 1];
    if (previous && remaining(previous) >= 1) expect(res.status, `call ${i} after remaining ${remaining(previous)}`).not.toBe(429);
    answers.push(res);
    if (res.status === 429) {
      expect(previous && remaining(previous)).toBe(0);
      expectError(res, 'rate_limited');
      expect(remaining(res)).toBe(0);
      return answers;
    }
  }
  throw new Error(`no 429 in ${max} calls`);
}

describe('read limit per key', () => {
  it('serves a burst of twice the rate, then 429 with Retry-After until a token refills', async () => {
    const slow = new RestClient(server.httpPort, KEYS.slow); // rate_limit 1: burst 2
    const startedMs = Date.now();
    const answers = await burstUntilRefused(() => slow.get('/v1/accounts'), 10);
    expect(answers.slice(0, 2).map((a) => [a.status, remaining(a)])).toEqual([[200, 1], [200, 0]]);
    // A token refills each second: only a very slow machine lets a third call through.
    expect(answers.length).toBeLessThanOrEqual(3 + Math.floor((Date.now() - startedMs) / 1000));
    const refused = answers[answers.length - 1]!;
    expect(refused.headers['x-ratelimit-limit']).toBe('1');
    expect(refused.headers['retry-after']).toBe('1');
    // Full again two tokens (2 s at 1/s) after the burst began.
    const resetMs = Number(refused.headers['x-ratelimit-reset']);
    expect(resetMs).toBeGreaterThanOrEqual(startedMs + 2000);
    expect(resetMs).toBeLessThanOrEqual(Date.now() + 2000);
  });

  it('keeps other keys of the same account unaffected', async () => {
    const res = await new RestClient(server.httpPort, KEYS.readOnly).get('/v1/accounts');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expect(remaining(res)).toBe(199);
  });
});

describe('trade limit per account', () => {
  it('serves 20 trade calls at once, then 429 without placing anything', async () => {
    const trader = new RestClient(server.httpPort, KEYS.burst);
    const order = (i: number) => ({ login: BURST_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: `burst-${i}` });
    let i = 0;
    const answers = await burstUntilRefused(() => trader.post('/v1/orders', order(i++)), 40);
    const filled = answers.filter((a) => a.status === 200);
    // 20 from the burst, plus whatever refilled at 10/s while the orders were committed.
    expect(filled.length).toBeGreaterThanOrEqual(20);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('10');
    expect(remaining(answers[0]!)).toBe(19);
    const positions = await trader.get('/v1/positions');
    expect(positions.body.data.map((p: { ticket: number }) => p.ticket).sort()).toEqual(filled.map((a) => a.body.ticket).sort());
  });

  it('shares the account\'s bucket between its keys', async () => {
    const main = new RestClient(server.httpPort, KEYS.main);
    const sibling = new RestClient(server.httpPort, KEYS.paused);
    // Refused trade calls (a foreign order id) cost a token like any other.
    await burstUntilRefused(() => main.del('/v1/orders/999999999'), 40);
    const drainedAtMs = Date.now();
    const res = await sibling.del('/v1/orders/999999999');
    // Refused, or served by a token refilled since (10/s): a bucket of its own would have 19 left.
    if (res.status === 429) expectError(res, 'rate_limited');
    else expect(res.status).toBe(404);
    expect(remaining(res)).toBeLessThanOrEqual(Math.floor((Date.now() - drainedAtMs) / 100));
    expect((await sibling.get(`/v1/accounts/${MAIN_LOGIN}`)).status).toBe(200);
  });
});

describe('before authentication', () => {
  it('limits unauthenticated requests per address and leaves signed ones alone', async () => {
    const answers = await burstUntilRefused(() => send(server.httpPort, 'GET', '/v1/accounts'), 100);
    expect(answers.length).toBeGreaterThanOrEqual(41);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('20');
    expect((await new RestClient(server.httpPort, KEYS.readOnly).get('/v1/accounts')).status).toBe(200);
    // Unknown routes count as unauthenticated too (from another address: a bucket of its own).
    const unknown = await burstUntilRefused(() => send(server.httpPort, 'GET', '/nowhere', { localAddress: '127.0.0.3' }), 100);
    expect(unknown[0]!.status).toBe(404);
    expect(unknown.length).toBeGreaterThanOrEqual(41);
  });
});

describe('headers on every response', () => {
  it('are sent on answers, errors and unknown routes', async () => {
    const main = new RestClient(server.httpPort, KEYS.readOnly);
    for (const res of [
      await main.get('/v1/positions'),
      await main.get(`/v1/accounts/${MAIN_LOGIN}`),
      await main.get('/v1/accounts/1'),
      await main.post('/v1/orders', {}),
      await send(server.httpPort, 'GET', '/v1/x', { localAddress: '127.0.0.2' }),
    ]) expectRateLimitHeaders(res);
  });
});
