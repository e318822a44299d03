// The SDK's REST half against the real server: signed calls, typed answers, the spec's errors as
// ApiError (name, status, field, request id, the original order of a duplicate), and 429s retried
// after their Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, RestClient, type RestOptions } from '../../src/client/index.js';
import { startServer, type RunningServer } from '../support/server.js';
import { KEYS, LOGIN, OTHER_LOGIN, STREAM_CONFIG, streamSeed, type Credentials } from '../stream/support/seed.js';

let server: RunningServer;
beforeAll(async () => { server = await startServer({ seed: streamSeed(), config: STREAM_CONFIG }); });
afterAll(async () => { await server?.stop(); });

const sdk = (key: Credentials = KEYS.main, extra: Partial<RestOptions> = {}): RestClient =>
  new RestClient({ baseUrl: `${server.http}/v1`, keyId: key.id, secret: key.secret, ...extra });

async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('RestClient', () => {
  it('reads the key\'s account', async () => {
    const api = sdk();
    const list = await api.accounts();
    expect(list.next_cursor).toBeNull();
    expect(list.data).toEqual([expect.objectContaining({ login: LOGIN, type: 'demo', currency: 'USD', balance: 10000, leverage: 100 })]);
    expect((await api.accounts({ type: 'live' })).data).toEqual([]);
    expect(await api.account(LOGIN)).toMatchObject({ login: LOGIN, server: 'Demo-1', equity: 10000, free_margin: 10000 });
    expect(api.rateLimit).toMatchObject({ limit: 50 });
  });

  it('places, lists, partially and fully closes a position; places and cancels a pending order', async () => {
    const api = sdk();
    const order = await api.placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.02, client_id: 'sdk-1' });
    expect(order).toMatchObject({ status: 'filled', price: 65010, volume: 0.02, source: 'api', key_id: KEYS.main.id, client_id: 'sdk-1' });
    const positions = await api.positions({ symbol: 'BTCUSD' });
    expect(positions.data).toEqual([expect.objectContaining({ ticket: order.ticket, open_price: 65010, profit: -0.2, source: 'api' })]);
    expect(await api.closePosition(order.ticket!, 0.01)).toEqual({ ticket: order.ticket, status: 'partially_closed', close_price: 65000, profit: -0.1, volume: 0.01 });
    expect(await api.closePosition(order.ticket!)).toMatchObject({ status: 'closed', volume: 0 });

    const pending = await api.placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'sell', type: 'limit', volume: 0.01, price: 66000 });
    expect(pending).toMatchObject({ status: 'pending', ticket: null });
    expect(await api.cancelOrder(pending.id)).toMatchObject({ id: pending.id, status: 'cancelled' });
  });

  it('turns every refusal into an ApiError with the spec\'s name', async () => {
    const api = sdk();
    const volume = await refusal(api.placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.005 }));
    expect(volume).toMatchObject({ name: 'invalid_order', status: 422, field: 'volume' });
    expect(volume.requestId).toMatch(/\S+/);
    expect(volume.message.length).toBeGreaterThan(0);
    expect(await refusal(api.account(OTHER_LOGIN))).toMatchObject({ name: 'not_found', status: 404 });

    const first = await api.placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: 'sdk-dup' });
    const dup = await refusal(api.placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: 'sdk-dup' }));
    expect(dup).toMatchObject({ name: 'duplicate_client_id', status: 409 });
    expect(dup.order).toMatchObject({ id: first.id, ticket: first.ticket });
    expect(await refusal(api.cancelOrder(first.id))).toMatchObject({ name: 'invalid_order', field: 'id' });
    await api.closePosition(first.ticket!);

    expect(await refusal(sdk({ id: KEYS.main.id, secret: 'wrong' }).accounts())).toMatchObject({ name: 'unauthorized', status: 401 });
    expect(await refusal(sdk(KEYS.readOnly).placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01 })))
      .toMatchObject({ name: 'forbidden', status: 403 });
  });

  it('waits out a 429 for its Retry-After and tries again, a bounded number of times', async () => {
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    };
    const patient = sdk(KEYS.slow, { fetch: counting });
    // rate_limit 1, burst 2: the third and fourth reads within a second are refused, then retried.
    for (let i = 0; i < 4; i++) expect((await patient.account(LOGIN)).login).toBe(LOGIN);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);

    const impatient = sdk(KEYS.slow, { maxRetries: 0 });
    let refused: ApiError | null = null;
    for (let i = 0; i < 4 && !refused; i++) refused = await impatient.account(LOGIN).then(() => null, (e: ApiError) => e);
    expect(refused).toMatchObject({ name: 'rate_limited', status: 429 });
    expect(refused!.retryAfterMs).toBeGreaterThanOrEqual(1000);
  });

  it('lists and reads the account\'s orders (filters, client_id) and the symbols, typed from the API schemas', async () => {
    const api = sdk(KEYS.other);
    const filled = await api.placeOrder({ login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: 'sdk-read-1' });
    const pending = await api.placeOrder({ login: OTHER_LOGIN, symbol: 'BTCUSD', side: 'sell', type: 'limit', volume: 0.01, price: 70000 });
    expect(await api.listOrders()).toEqual({ data: [filled, pending], next_cursor: null });
    expect((await api.listOrders({ status: 'pending' })).data).toEqual([pending]);
    expect((await api.listOrders({ limit: 1 })).next_cursor).toBe(filled.id);
    expect((await api.listOrders({ since: filled.created_at, symbol: 'BTCUSD' })).data.length).toBe(2);
    expect(await api.getOrder(pending.id)).toEqual(pending);
    expect(await api.getOrderByClientId('sdk-read-1')).toEqual(filled);
    expect(await refusal(api.getOrderByClientId('nobody'))).toMatchObject({ name: 'not_found', status: 404 });
    expect(await refusal(api.listOrders({ status: 'foo' as 'pending' }))).toMatchObject({ name: 'bad_request', field: 'status' });
    const symbols = await api.symbols();
    expect(symbols.data.find((s) => s.name === 'BTCUSD')).toMatchObject({ digits: 2, min_volume: 0.01, volume_step: 0.01, open: true });
  });

  it('corrects its clock from GET /v1/time when a 401 says the timestamp is off, and signs on with the offset', async () => {
    for (const skewMs of [60_000, -45_000]) {
      const fetched: string[] = [];
      const recording: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        fetched.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${res.status}`);
        return res;
      };
      const api = sdk(KEYS.main, { nowMs: () => Date.now() + skewMs, fetch: recording });
      expect((await api.account(LOGIN)).login).toBe(LOGIN);
      expect(fetched).toEqual([`GET /v1/accounts/${LOGIN} 401`, 'GET /v1/time 200', `GET /v1/accounts/${LOGIN} 200`]);
      expect(Math.abs(api.clockOffsetMs + skewMs)).toBeLessThan(1000);
      expect(Math.abs(api.serverNowMs() - Date.now())).toBeLessThan(1000);
      // Later calls, trading ones included, are signed with the corrected clock at once.
      const order = await api.placeOrder({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01 });
      await api.closePosition(order.ticket!);
      expect(fetched.slice(3).every((f) => f.endsWith(' 200'))).toBe(true);
    }
    // A bad signature is not a clock problem: no time request, the 401 is thrown.
    const fetched: string[] = [];
    const wrong = sdk({ id: KEYS.main.id, secret: 'wrong' }, { fetch: async (input, init) => { fetched.push(String(input)); return fetch(input, init); } });
    expect(await refusal(wrong.accounts())).toMatchObject({ name: 'unauthorized', status: 401 });
    expect(fetched).toHaveLength(1);
  });

  it('reads the server time without credentials', async () => {
    const before = Date.now();
    const { time_ms: serverMs, time } = await sdk().serverTime();
    expect(serverMs).toBeGreaterThanOrEqual(before);
    expect(time).toBe(new Date(serverMs).toISOString());
  });
});
