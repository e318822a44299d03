// The upgrade at /v1 through the real server (DECISIONS "Authentication", "Rate limits"): the
// signed string is the REST rule for GET /v1; every refusal comes before the upgrade with REST's
// status and error body; 5 connections per key; heartbeats.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { KEYS, STREAM_CONFIG, streamSeed } from './support/seed.js';
import { hmacHex, refusal, streamUrl, TestStream, type Refusal } from './support/stream-client.js';

let server: RunningServer;
beforeAll(async () => { server = await startServer({ seed: streamSeed(), config: STREAM_CONFIG }); });
afterAll(async () => { await server?.stop(); });

/** A plain GET from a given local address. */
function fetchFrom(localAddress: string, url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http.get(url, { localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    }).on('error', reject);
  });
}

function expectRefused(r: Refusal, status: number, name: string): void {
  expect(r.status).toBe(status);
  expect(r.body.error).toMatchObject({ code: status, name });
  expect(r.body.error.message.length).toBeGreaterThan(0);
  expect(r.body.error.request_id).toBe(r.headers['x-request-id']);
}

describe('stream upgrade', () => {
  it('accepts the signature of "ts GET /v1", in lower or upper case hex', async () => {
    const lower = await TestStream.connect(server.httpPort, KEYS.main);
    const ts = String(Date.now());
    const upper = await TestStream.open(streamUrl(server.httpPort, KEYS.main, { ts, sig: hmacHex(KEYS.main.secret, `${ts}GET/v1`).toUpperCase() }));
    expect((await lower.request({ op: 'ping', id: 1 })).channel).toBe('pong');
    expect((await upper.request({ op: 'ping', id: 'p' })).channel).toBe('pong');
    await Promise.all([lower.close(), upper.close()]);
  });

  it('refuses bad credentials with 401 before the upgrade', async () => {
    const port = server.httpPort;
    const ts = String(Date.now());
    // Signed over the URL that carries it, not over GET /v1: refused.
    const overQuery = hmacHex(KEYS.main.secret, `${ts}GET/v1?key=${KEYS.main.id}&ts=${ts}`);
    const cases: [string, string][] = [
      ['bad signature', streamUrl(port, KEYS.main, { sig: 'ab'.repeat(32) })],
      ['signed over the query', streamUrl(port, KEYS.main, { ts, sig: overQuery })],
      ['another key\'s secret', streamUrl(port, { id: KEYS.main.id, secret: KEYS.other.secret })],
      ['no key', streamUrl(port, KEYS.main, { omit: ['key'] })],
      ['no ts', streamUrl(port, KEYS.main, { omit: ['ts'] })],
      ['no sig', streamUrl(port, KEYS.main, { omit: ['sig'] })],
      ['stale ts', streamUrl(port, KEYS.main, { ts: String(Date.now() - 60_000) })],
      ['unknown key', streamUrl(port, { id: 'nobody', secret: 'x' })],
      ['expired key', streamUrl(port, KEYS.expired)],
      ['paused key', streamUrl(port, KEYS.paused)],
    ];
    for (const [what, url] of cases) {
      const r = await refusal(url);
      expect(r.status, what).toBe(401);
      expectRefused(r, 401, 'unauthorized');
    }
  });

  it('refuses a key without the read scope, or from outside its whitelist, with 403', async () => {
    expectRefused(await refusal(streamUrl(server.httpPort, KEYS.tradeOnly)), 403, 'forbidden');
    expectRefused(await refusal(streamUrl(server.httpPort, KEYS.whitelisted)), 403, 'forbidden');
    // A read-only key streams.
    const ro = await TestStream.connect(server.httpPort, KEYS.readOnly);
    await ro.close();
  });

  it('allows 5 connections per key; the 6th gets 429 with Retry-After, and a freed slot is reusable', async () => {
    const open = await Promise.all(Array.from({ length: 5 }, () => TestStream.connect(server.httpPort, KEYS.limit)));
    const sixth = await refusal(streamUrl(server.httpPort, KEYS.limit));
    expectRefused(sixth, 429, 'rate_limited');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Other keys are not affected.
    const other = await TestStream.connect(server.httpPort, KEYS.readOnly);
    await open[0]!.close();
    // The server frees the slot when it sees the close; the client's close handshake completes after that.
    const again = await TestStream.connect(server.httpPort, KEYS.limit);
    await Promise.all([...open.slice(1), again, other].map((s) => s.close()));
  });

  it('sends a heartbeat every stream.heartbeat_ms', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    const first = await s.take((m) => m.channel === 'heartbeat');
    const second = await s.take((m) => m.channel === 'heartbeat');
    expect(Object.keys(first).sort()).toEqual(['channel', 'ts']);
    expect(second.ts - first.ts).toBeGreaterThanOrEqual(150);
    expect(second.ts - first.ts).toBeLessThan(2000);
    await s.close();
  });

  it('charges failed upgrades to the address\'s anonymous bucket, shared with REST: 429 after the burst', async () => {
    // An address of its own, so its bucket starts full (burst 40, 20 per second).
    const from = { localAddress: '127.0.0.5' };
    const bad = streamUrl(server.httpPort, KEYS.main, { sig: 'ab'.repeat(32) });
    const answers: Refusal[] = [];
    while (answers.length < 200 && answers.at(-1)?.status !== 429) answers.push(await refusal(bad, from));
    expect(answers.at(-1)?.status).toBe(429);
    // The burst of 40, plus what refilled while they were made.
    expect(answers.length).toBeGreaterThan(40);
    expect(answers.slice(0, 40).every((r) => r.status === 401)).toBe(true);
    const limited = answers.at(-1)!;
    expectRefused(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['x-ratelimit-limit']).toBe('20');
    // One bucket with REST: an unsigned REST call from that address finds it empty, but for what
    // refilled since (20 per second; a bucket of its own would have 39 left)...
    const drainedAtMs = Date.now();
    const rest = await fetchFrom(from.localAddress, `${server.http}/v1/accounts`);
    expect([401, 429]).toContain(rest.status);
    expect(Number(rest.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(Math.floor((Date.now() - drainedAtMs) / 50));
    // ...while a correctly signed upgrade from it is not charged and goes through.
    await (await TestStream.open(streamUrl(server.httpPort, KEYS.main), from)).close();
  });

  it('closes the open streams of a key paused after their upgrade (1008, reason), and refuses new ones', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.other);
    const operator = (action: string) => fetch(`${server.console}/console/api/keys/${KEYS.other.id}/${action}`, {
      method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect((await operator('pause')).status).toBe(200);
    expect(await s.closed).toEqual({ code: 1008, reason: 'key is paused' });
    expectRefused(await refusal(streamUrl(server.httpPort, KEYS.other)), 401, 'unauthorized');
    expect((await operator('resume')).status).toBe(200);
    await (await TestStream.connect(server.httpPort, KEYS.other)).close();
  });
});
