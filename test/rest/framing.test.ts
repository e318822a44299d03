// Request framing through the real server, on raw sockets (node:http never sends two lengths): a
// request whose Content-Length headers disagree is refused with 400 and its connection closed, on
// every listener, before any route sees it, so a request smuggled behind it (framed by the other
// length, as a proxy in front may read it) is never served. Identical repeats are one length.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { RestClient } from './support/client.js';
import { REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

let server: RunningServer;

beforeAll(async () => { server = await startServer({ seed: restSeed(Date.now()), config: REST_CONFIG }); });
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const TRADER = TRADER_LOGINS[0]!;
const trader = traderKey(TRADER);

/** Writes `bytes` on a fresh connection and resolves with everything read until the server closes it. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (d: Buffer) => { text += d.toString('latin1'); });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const statusLines = (text: string): string[] => text.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];

/** A signed market order as raw request text; `lengths` are its Content-Length headers. */
function signedOrder(clientId: string, lengths: (body: string) => readonly string[]): { body: string; head: string } {
  const body = JSON.stringify({ login: TRADER, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: clientId });
  const ts = String(Date.now());
  const sig = createHmac('sha256', trader.secret).update(`${ts}POST/v1/orders${body}`).digest('hex');
  const head = [
    'POST /v1/orders HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json',
    `X-SVC-KEY: ${trader.id}`, `X-SVC-TIMESTAMP: ${ts}`, `X-SVC-SIGNATURE: ${sig}`,
    ...lengths(body).map((l) => `Content-Length: ${l}`),
  ].join('\r\n');
  return { body, head: `${head}\r\n\r\n` };
}

async function positionCount(): Promise<number> {
  const res = await new RestClient(server.httpPort, trader).get('/v1/positions');
  expect(res.status).toBe(200);
  return res.body.data.length;
}

function expectRefused(text: string): void {
  expect(statusLines(text)).toEqual(['HTTP/1.1 400']);
  expect(text).toMatch(/\r\nConnection: close\r\n/i);
  const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: number; name: string; message: string } };
  expect(body.error).toMatchObject({ code: 400, name: 'bad_request' });
  expect(body.error.message).toMatch(/Content-Length/);
}

describe('two different Content-Length headers', () => {
  it('refuse a signed order with 400, close the connection and place nothing', async () => {
    const before = await positionCount();
    const { head, body } = signedOrder('framing-1', (b) => [String(b.length), String(b.length + 10)]);
    expectRefused(await exchange(server.httpPort, head + body));
    const { head: shorter, body: same } = signedOrder('framing-2', (b) => [String(b.length), String(b.length - 1)]);
    expectRefused(await exchange(server.httpPort, shorter + same));
    expect(await positionCount()).toBe(before);
  });

  it('never serve a request smuggled behind one', async () => {
    const before = await positionCount();
    // A signed GET (answered at once, so the connection reads on) whose first length frames an
    // order as a request of its own on the same connection; the second length covers it as a body.
    const smuggled = signedOrder('framing-smuggled', (b) => [String(b.length)]);
    const tail = smuggled.head + smuggled.body;
    const ts = String(Date.now());
    const sig = createHmac('sha256', trader.secret).update(`${ts}GET/v1/positions`).digest('hex');
    const carrier = `GET /v1/positions HTTP/1.1\r\nHost: x\r\nX-SVC-KEY: ${trader.id}\r\nX-SVC-TIMESTAMP: ${ts}\r\nX-SVC-SIGNATURE: ${sig}\r\n`
      + `Content-Length: 0\r\nContent-Length: ${tail.length}\r\n\r\n`;
    const text = await exchange(server.httpPort, carrier + tail);
    // Refused, or the connection dropped before the answer: never a second answer.
    expect(statusLines(text).length).toBeLessThanOrEqual(1);
    if (text !== '') expectRefused(text);
    expect(await positionCount()).toBe(before);
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('are refused on the webhook, stream, health and console routes too', async () => {
    const cases = [
      [server.httpPort, 'POST /v1/signal/nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
      [server.httpPort, 'GET /v1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n'],
      [server.httpPort, 'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n'],
      [server.httpPort, 'GET /v1/positions HTTP/1.1\r\nHost: x\r\nContent-Length: \r\nContent-Length: 4\r\n\r\n'],
      [server.consolePort, 'POST /console/api/quotes HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n{}'],
    ] as const;
    for (const [port, request] of cases) expectRefused(await exchange(port, request));
  });

  it('leave identical repeats alone: one length, served as usual', async () => {
    const before = await positionCount();
    const { head, body } = signedOrder('framing-same', (b) => [String(b.length), String(b.length)]);
    const text = await exchange(server.httpPort, `${head.replace('Host: 127.0.0.1', 'Host: 127.0.0.1\r\nConnection: close')}${body}`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200']);
    expect(await positionCount()).toBe(before + 1);
  });
});
