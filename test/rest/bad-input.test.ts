// Hostile input against the live server: random bodies at POST /orders (fast-check), client ids
// across the whole UTF-16 code space, duplicated headers, oversized and malformed headers. Every
// answer is a documented one, rejected bodies change nothing, and the server keeps serving. (Deep
// and big bodies: big-input.test.ts.)
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import fc from 'fast-check';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { operator, RestClient, type Answer } from './support/client.js';
import { expectError, expectRateLimitHeaders } from './support/expect.js';
import { KEYS, PROPERTY_LOGINS, propertyKey, REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

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

/** Code units from anywhere: lone surrogates and noncharacters included, astral characters, the edges. */
const codeUnits = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ufffd', '\ufffe', '\uffff', '\u{10ffff}', '"', '\\', 'a'),
);
const anyClientId = fc.array(codeUnits, { minLength: 1, maxLength: 40 }).map((units) => units.join(''));

/** Retries while the account's trade bucket is empty (documented 429 with Retry-After). */
async function unthrottled(call: () => Promise<Answer>): Promise<Answer> {
  for (;;) {
    const res = await call();
    if (res.status !== 429) return res;
    await new Promise((r) => setTimeout(r, Number(res.headers['retry-after']) * 1000));
  }
}

describe('client ids across the code space', () => {
  it('are refused when not well-formed, else echoed exactly and idempotent, never colliding', async () => {
    const clients = TRADER_LOGINS.map((login) => ({ login, api: new RestClient(server.httpPort, traderKey(login)) }));
    const accepted = new Map<string, Map<string, string>>(TRADER_LOGINS.map((l) => [l, new Map()]));
    let run = 0;
    await fc.assert(fc.asyncProperty(anyClientId, async (clientId) => {
      const { login, api } = clients[run++ % clients.length]!;
      const body = JSON.stringify({ login, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: clientId });
      const res = await unthrottled(() => api.post('/v1/orders', body));
      const seen = accepted.get(login)!;
      if (!clientId.isWellFormed() || clientId.length > 64) {
        expectError(res, 'bad_request', 'client_id');
        return;
      }
      const original = seen.get(clientId);
      if (original !== undefined) {
        expectError(res, 'duplicate_client_id');
        expect(res.body.order).toMatchObject({ id: original, client_id: clientId });
        return;
      }
      expect(res.status, res.text).toBe(200);
      expect(res.body.client_id).toBe(clientId);
      seen.set(clientId, res.body.id);
      const again = await unthrottled(() => api.post('/v1/orders', body));
      expectError(again, 'duplicate_client_id');
      expect(again.body.order).toMatchObject({ id: res.body.id, client_id: clientId });
    }), { numRuns: 120 });
    for (const { login, api } of clients) {
      const positions = await api.get('/v1/positions');
      expect(positions.body.data).toHaveLength(accepted.get(login)!.size);
    }
  }, 60_000);
});

/**
 * Everything read on a fresh connection until the server closes it (requests end with Connection:
 * close), from an address of its own: its refusals drain that address's anonymous bucket only.
 */
function roundTrip(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: server.httpPort, host: '127.0.0.1', localAddress: '127.0.0.7' }, () => socket.write(text));
    let response = '';
    socket.on('data', (d: Buffer) => { response += d.toString('latin1'); });
    socket.on('close', () => resolve(response));
    socket.on('error', reject);
  });
}

/** A header of a signed request and what a duplicate of it may carry instead. */
const DUPLICATES = {
  'X-SVC-KEY': fc.constantFrom(KEYS.other.id, 'nobody', ''),
  'X-SVC-TIMESTAMP': fc.constantFrom('1', '', String(Date.now() + 60_000)),
  'X-SVC-SIGNATURE': fc.constantFrom('ab'.repeat(32), 'zz', ''),
  'Content-Type': fc.constantFrom('text/plain', 'application/json', ''),
  'Content-Length': fc.constantFrom('0', '1', '99999', ''),
  Host: fc.constantFrom('evil.example', ''),
  'X-Forwarded-For': fc.constantFrom('10.0.0.1', '::1', 'garbage'),
} as const;
type DupName = keyof typeof DUPLICATES;

const duplication = fc.array(
  fc.constantFrom(...(Object.keys(DUPLICATES) as DupName[])).chain((name) => fc.tuple(fc.constant(name), DUPLICATES[name], fc.boolean())),
  { minLength: 1, maxLength: 4 },
);

describe('duplicated headers', () => {
  it('get documented answers, a conflicting length 400, and change nothing but what was served', async () => {
    const login = PROPERTY_LOGINS[0]!;
    const key = propertyKey(login);
    const api = new RestClient(server.httpPort, key);
    const before = (await api.get('/v1/positions')).body.data.length;
    let placed = 0;
    let run = 0;
    await fc.assert(fc.asyncProperty(duplication, fc.boolean(), async (dups, isOrder) => {
      const body = isOrder ? JSON.stringify({ login, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: `dup-${run++}` }) : '';
      const method = isOrder ? 'POST' : 'GET';
      const target = isOrder ? '/v1/orders' : '/v1/positions';
      const ts = String(Date.now() + run);
      const headers: [string, string][] = [
        ['Host', '127.0.0.1'], ['X-SVC-KEY', key.id], ['X-SVC-TIMESTAMP', ts],
        ['X-SVC-SIGNATURE', createHmac('sha256', key.secret).update(`${ts}${method}${target}${body}`).digest('hex')],
        ...(isOrder ? [['Content-Type', 'application/json'], ['Content-Length', String(body.length)]] as [string, string][] : []),
      ];
      // Each duplicate goes in right after its original, or at the very start (ahead of it).
      for (const [name, value, ahead] of dups) {
        const at = headers.findIndex(([n]) => n === name);
        if (ahead || at < 0) headers.unshift([name, value]);
        else headers.splice(at + 1, 0, [name, value]);
      }
      const lengths = headers.filter(([n]) => n === 'Content-Length').map(([, v]) => v);
      const text = await roundTrip(`${method} ${target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}Connection: close\r\n\r\n${body}`);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (new Set(lengths).size > 1) {
        // Refused before any route (or the connection dropped when bytes beyond the first length were pipelined behind it).
        expect([0, 400], text.slice(0, 200)).toContain(status);
        return;
      }
      // Answered in the documented set, never a 5xx; the body of an error is the error shape.
      expect([200, 400, 401, 403, 404, 409, 422, 429, 0], text.slice(0, 200)).toContain(status);
      if (status >= 400) expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe(status);
      if (status === 200 && isOrder) placed++;
    }), { numRuns: 150 });
    expect((await api.get('/v1/positions')).body.data.length).toBe(before + placed);
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
  }, 60_000);
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
