// Hostile input against the live server: random bodies at POST /orders (fast-check), oversized and
// malformed headers. Every answer is a documented one, rejected bodies change nothing, and the
// server keeps serving.
import fs from 'node:fs';
import fc from 'fast-check';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { operator, RestClient, type Answer } from './support/client.js';
import { expectError, expectRateLimitHeaders } from './support/expect.js';
import { KEYS, PROPERTY_LOGINS, propertyKey, REST_CONFIG, restSeed } from './support/seed.js';

const ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'bad_request', 404: 'not_found', 409: 'duplicate_client_id', 422: 'invalid_order', 429: 'rate_limited', 503: 'market_closed',
};

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ seed: restSeed(Date.now()), config: REST_CONFIG });
  for (const [symbol, bid, ask] of [['EURUSD', 1.1, 1.1002], ['BTCUSD', 65000, 65010]] as const) {
    expect((await operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol, bid, ask })).status).toBe(200);
  }
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const SELF = '\u0000self';

/** Values a field may get: the right kind, the wrong kind, edge numbers, long strings. */
const anyValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 0.01, 0.1, 1, 1e308, -0.01, 1e-9, 0.015, Number.MAX_SAFE_INTEGER, 'buy', 'market', ''),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 80 }),
  fc.string({ minLength: 60, maxLength: 200 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

/** A valid order (for some prices), then up to two fields deleted or replaced by anything. */
const FIELDS = ['login', 'symbol', 'side', 'type', 'volume', 'price', 'sl', 'tp', 'client_id', 'extra'] as const;
const orderish = fc.tuple(
  fc.record({
    login: fc.constant(SELF),
    symbol: fc.constantFrom('EURUSD', 'BTCUSD'),
    side: fc.constantFrom('buy', 'sell'),
    type: fc.constantFrom('market', 'market', 'limit', 'stop'),
    volume: fc.constantFrom(0.01, 0.02, 0.05),
    client_id: fc.constantFrom('c1', 'c2', 'c3', 'c4'),
  }),
  fc.option(fc.constantFrom(1.09, 1.11, 64000, 66000), { nil: undefined }),
  fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.option(anyValue, { nil: undefined })), { maxLength: 2 }),
).map(([base, price, mutations]) => {
  const o: Record<string, unknown> = { ...base };
  if (base.type !== 'market') o['price'] = price ?? 1.09;
  for (const [field, value] of mutations) {
    if (value === undefined) delete o[field];
    else o[field] = value;
  }
  return o;
});

/** Number tokens JSON.stringify never writes. */
const rawNumber = fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '0x10', '01', '1.', '.5', '+1', '1e-400', '"0.01"', '0.01');

const body = fc.oneof(
  { arbitrary: orderish.map((o) => ({ template: JSON.stringify(o) })), weight: 6 },
  fc.tuple(fc.constantFrom('volume', 'price', 'sl'), rawNumber).map(([field, n]) => ({
    template: `{"login":${JSON.stringify(SELF)},"symbol":"EURUSD","side":"buy","type":"${field === 'price' ? 'limit' : 'market'}","volume":${field === 'volume' ? n : '0.01'}${field === 'volume' ? '' : `,"${field}":${n}`}}`,
  })),
  fc.jsonValue().map((v) => ({ template: JSON.stringify(v) ?? 'null' })),
  fc.string({ maxLength: 200 }).map((s) => ({ template: s })),
  fc.constantFrom('{', '{"login":', '{"a":1}}', '\u00ff\u00fe', '{"login":"1"', '[]', '{}', 'null').map((s) => ({ template: s })),
);

function expectDocumented(res: Answer): void {
  expectRateLimitHeaders(res);
  if (res.status === 200) {
    expect(res.body).toMatchObject({ source: 'api', status: expect.stringMatching(/^(filled|pending)$/) });
    expect(typeof res.body.id).toBe('string');
    return;
  }
  const name = ERROR_NAMES[res.status];
  expect(name, `undocumented status ${res.status}: ${res.text}`).toBeDefined();
  expectError(res, name!);
}

describe('random bodies at POST /orders', () => {
  it('answer documented errors or valid orders, and only accepted orders change an account', async () => {
    const clients = PROPERTY_LOGINS.map((login) => ({ login, api: new RestClient(server.httpPort, propertyKey(login)) }));
    const accepted = new Map<string, number[]>(PROPERTY_LOGINS.map((l) => [l, []]));
    const statuses = new Map<number, number>();
    let run = 0;
    await fc.assert(fc.asyncProperty(body, async ({ template }) => {
      const client = clients[run++ % clients.length]!;
      const text = template.split(JSON.stringify(SELF).slice(1, -1)).join(client.login);
      const res = await client.api.post('/v1/orders', text);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expectDocumented(res);
      if (res.status === 200 && res.body.ticket !== null) accepted.get(client.login)!.push(res.body.ticket);
    }), { numRuns: 250 });

    // Most bodies were judged on their content, not throttled.
    expect(250 - (statuses.get(429) ?? 0)).toBeGreaterThan(150);
    for (const { login, api } of clients) {
      const positions = await api.get('/v1/positions');
      expect(positions.status).toBe(200);
      expect(positions.body.data.map((p: { ticket: number }) => p.ticket).sort()).toEqual([...accepted.get(login)!].sort());
      // Fills move margin, never the balance; nothing was closed.
      expect((await api.get(`/v1/accounts/${login}`)).body.balance).toBe(10000);
    }
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});

/** Opens a connection and writes `text`; `closed` settles when the server closes it. */
function rawSocket(text: string): { socket: net.Socket; closed: Promise<string> } {
  const socket = net.connect(server.httpPort, '127.0.0.1');
  let response = '';
  socket.on('data', (d: Buffer) => { response += d.toString('latin1'); });
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(response));
    socket.on('error', () => undefined);
  });
  socket.write(text);
  return { socket, closed };
}

describe('oversized and malformed headers', () => {
  const main = () => new RestClient(server.httpPort, KEYS.main);

  it('drops connections past the HTTP parser\'s limits without disturbing other clients', async () => {
    const huge = rawSocket(`GET /v1/accounts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1 << 20)}\r\n\r\n`);
    expect(await huge.closed).not.toMatch(/^HTTP\/1\.1 200/);
    // These the parser holds unanswered until its idle timeout closes them; others are served meanwhile.
    const stuck = [
      rawSocket(`GET /v1/accounts HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 300 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`),
      rawSocket('\u0000\u0001 NOT HTTP\r\n\r\n'),
    ];
    expect((await main().get('/v1/accounts')).status).toBe(200);
    for (const { socket, closed } of stuck) {
      socket.destroy();
      expect(await closed).not.toMatch(/^HTTP\/1\.1 200/);
    }
    expect((await main().get('/v1/accounts')).status).toBe(200);
  });

  it('answers long or malformed credential headers with 401 in the documented shape', async () => {
    const api = main();
    expectError(await api.get('/v1/accounts', { omit: ['key'], headers: { 'x-svc-key': 'k'.repeat(8000) } }), 'unauthorized');
    expectError(await api.get('/v1/accounts', { ts: '9'.repeat(5000) }), 'unauthorized');
    expectError(await api.get('/v1/accounts', { signature: 'a'.repeat(6000) }), 'unauthorized');
    expectError(await api.get('/v1/accounts', { ts: '-1' }), 'unauthorized');
    expect((await api.get('/v1/accounts')).status).toBe(200);
  });

  it('answers long paths and odd query strings in the documented shape', async () => {
    const api = main();
    expectError(await api.del(`/v1/orders/${'9'.repeat(3000)}`), 'not_found');
    expectError(await api.get(`/v1/positions?${'x'.repeat(3000)}=1`), 'bad_request');
    expectError(await api.get('/v1/positions?limit=%ZZ'), 'bad_request', 'limit');
    expectError(await api.get('/v1/positions?cursor=1e3'), 'bad_request', 'cursor');
    // A bare '?' is part of the path as sent, so of the signed path.
    expect((await api.get('/v1/positions?')).status).toBe(200);
  });
});
