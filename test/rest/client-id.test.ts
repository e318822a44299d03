// Client ids that a store could alter, through the real server and across a clean restart: a
// client id that is not well-formed UTF-16 (a lone surrogate, which UTF-8 cannot carry) and a body
// that is not UTF-8 are refused with 400 before anything is placed, on REST and on the console's
// operator route, so two such ids can never collide; well-formed ids (astral characters included)
// come back exactly as sent and stay idempotent after the restart.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { RestClient, send, type Answer, type Credentials } from './support/client.js';
import { expectError } from './support/expect.js';
import { REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

const LOGIN = TRADER_LOGINS[1]!;
/** Another account for the raw-bytes test: each account's trade bucket holds 20 calls. */
const BYTES_LOGIN = TRADER_LOGINS[5]!;
const dataDir = tempDir();
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  const server = await startServer({ dataDir, seed: restSeed(Date.now()), config: REST_CONFIG });
  servers.push(server);
  return server;
}

/** The order body as JSON text around `clientIdJson`, the client id's JSON exactly as sent. */
const orderText = (clientIdJson: string, login = LOGIN): string =>
  `{"login":"${login}","symbol":"BTCUSD","side":"buy","type":"market","volume":0.01,"client_id":${clientIdJson}}`;

/** Lone surrogates, high and low, alone and beside other text. */
const ILL_FORMED = ['"\\ud800X"', '"\\ud801X"', '"X\\udc00"', '"\\udfff"', '"a\\ud83d"', '"\\ude00\\ud83d"'];
/**
 * Well-formed ids across the code space, those at its edges first (issue 13, item 1: ids sorting
 * after a '\uffff' range end were once not reloaded after a restart).
 */
const WELL_FORMED = [
  '\u{1F600}order', '\uFFFForder', '\u{10FFFF}', '\uFFFD', '\u0000first', '~tilde',
  'a\u{1F600}', 'x\u{10FFFF}', 'z\uFFFD', '\u00e9t\u00e9', 'tab\there', 'nul\u0000nul', 'id-\u4e2d\u6587', '"quoted"\\',
];

/** A signed POST of raw bytes (the test client's calls send text, always UTF-8). */
function postBytes(port: number, key: Credentials, path: string, body: Buffer): Promise<Answer> {
  const ts = String(Date.now());
  const signature = createHmac('sha256', key.secret).update(`${ts}POST${path}`).update(body).digest('hex');
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path,
      headers: { 'content-type': 'application/json', 'x-svc-key': key.id, 'x-svc-timestamp': ts, 'x-svc-signature': signature },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: JSON.parse(text) as unknown });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function positionTickets(api: RestClient): Promise<number[]> {
  const res = await api.get('/v1/positions');
  expect(res.status).toBe(200);
  return res.body.data.map((p: { ticket: number }) => p.ticket);
}

describe('client ids that are not well-formed UTF-16, across a restart', () => {
  const accepted = new Map<string, { id: string; ticket: number }>();

  it('are refused with 400 (field client_id); well-formed ones are echoed exactly', async () => {
    const server = await start();
    const api = new RestClient(server.httpPort, traderKey(LOGIN));
    for (const json of ILL_FORMED) expectError(await api.post('/v1/orders', orderText(json)), 'bad_request', 'client_id');
    // The console's operator route parses orders the same way.
    const viaConsole = await send(server.consolePort, 'POST', '/console/api/orders', {
      body: orderText(ILL_FORMED[0]!).replace('}', ',"source":"manual"}'),
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect(viaConsole.status).toBe(400);
    expect(viaConsole.body.error).toMatchObject({ name: 'bad_request', field: 'client_id' });
    expect(await positionTickets(api)).toEqual([]);

    for (const clientId of WELL_FORMED) {
      const res = await api.post('/v1/orders', orderText(JSON.stringify(clientId)));
      expect(res.status, res.text).toBe(200);
      expect(res.body.client_id).toBe(clientId);
      accepted.set(clientId, { id: res.body.id, ticket: res.body.ticket });
    }
  });

  it('refuses a body that is not UTF-8, so byte-different ids never meet as one', async () => {
    const server = servers.at(-1)!;
    const key = traderKey(BYTES_LOGIN);
    const api = new RestClient(server.httpPort, key);
    const before = await positionTickets(api);
    // Bytes that are not UTF-8: decoded leniently, each would read as U+FFFD and the ids collide.
    for (const bad of [[0xff], [0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80]]) {
      const [head, tail] = orderText('"@X"', BYTES_LOGIN).split('@');
      const body = Buffer.concat([Buffer.from(head!), Buffer.from(bad), Buffer.from(tail!)]);
      expectError(await postBytes(server.httpPort, key, '/v1/orders', body), 'bad_request');
    }
    expect(await positionTickets(api)).toEqual(before);
  });

  it('keeps all of it after a clean restart: still refused, and well-formed ids still 409 with the original', async () => {
    expect(await servers.at(-1)!.stop()).toBe(0);
    const server = await start();
    const api = new RestClient(server.httpPort, traderKey(LOGIN));
    for (const json of ILL_FORMED) expectError(await api.post('/v1/orders', orderText(json)), 'bad_request', 'client_id');
    for (const [clientId, original] of accepted) {
      const res = await api.post('/v1/orders', orderText(JSON.stringify(clientId)));
      expectError(res, 'duplicate_client_id');
      expect(res.body.order).toMatchObject({ id: original.id, ticket: original.ticket, client_id: clientId });
    }
    expect((await positionTickets(api)).sort()).toEqual([...accepted.values()].map((o) => o.ticket).sort());
  });
});
