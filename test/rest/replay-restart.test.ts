// The replay guard across restarts, through the real process (DECISIONS: a signature already
// accepted for a POST or DELETE within the 5 s window gets 401). Captured requests are resent byte
// for byte after a clean SIGTERM restart and after a SIGKILL: neither places a second order nor
// closes a position twice. After a clean stop the guard's memory is handed over, so fresh requests
// pass at once; after a crash nothing says which signatures the dead process accepted, so every
// timestamp before the start plus the window is refused (the log line names that time).
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { RestClient, type Answer } from './support/client.js';
import { expectError } from './support/expect.js';
import { REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

/** Timestamps are signed this far ahead (inside the 5 s window), so a restart has ~8 s to finish. */
const AHEAD_MS = 3000;

const servers: RunningServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<RunningServer> {
  const server = await startServer({ dataDir, seed: restSeed(Date.now()), config: REST_CONFIG });
  servers.push(server);
  return server;
}

/** A request as captured on the wire: resent later with the very same headers and body. */
interface Captured { readonly method: string; readonly path: string; readonly ts: string; readonly body?: string }

function resend(api: RestClient, c: Captured): Promise<Answer> {
  return api.call(c.method, c.path, { ts: c.ts, ...(c.body === undefined ? {} : { body: c.body }) });
}

const orderBody = (login: string): string => JSON.stringify({ login, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.02 });

async function positions(api: RestClient): Promise<{ ticket: number; volume: number }[]> {
  const res = await api.get('/v1/positions');
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A first server on a fresh data dir, and a market order placed on it as captured. */
async function placedOnFirst(login: string): Promise<{ dataDir: string; first: RunningServer; api: RestClient; place: Captured; placed: Answer }> {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const first = await start(dataDir);
  const api = new RestClient(first.httpPort, traderKey(login));
  const place: Captured = { method: 'POST', path: '/v1/orders', ts: String(Date.now() + AHEAD_MS), body: orderBody(login) };
  const placed = await resend(api, place);
  expect(placed.status, placed.text).toBe(200);
  return { dataDir, first, api, place, placed };
}

describe('replayed POST and DELETE after a restart', () => {
  it('are refused after a clean stop, and fresh requests pass at once', async () => {
    const login = TRADER_LOGINS[2]!;
    const { dataDir, first, api: firstApi, place, placed } = await placedOnFirst(login);
    let api = firstApi;
    const ts = place.ts;
    const close: Captured = { method: 'DELETE', path: `/v1/positions/${placed.body.ticket}?volume=0.01`, ts };
    expect((await resend(api, close)).body).toMatchObject({ status: 'partially_closed', volume: 0.01 });
    // Before the restart, the guard of the running process.
    expectError(await resend(api, place), 'unauthorized');

    expect(await first.stop()).toBe(0);
    const second = await start(dataDir);
    api = new RestClient(second.httpPort, traderKey(login));
    for (const c of [place, close]) {
      const res = await resend(api, c);
      expectError(res, 'unauthorized');
      expect(res.body.error.message).toMatch(/replay/);
    }
    expect(await positions(api)).toEqual([expect.objectContaining({ ticket: placed.body.ticket, volume: 0.01 })]);
    // No fence after a clean stop: a request signed now is served.
    expect((await api.post('/v1/orders', orderBody(login))).status).toBe(200);
    expect(await positions(api)).toHaveLength(2);
    expect(second.logs.some((l) => l.msg.startsWith('replay guard'))).toBe(false);
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it('are refused after a SIGKILL: every timestamp before the start plus the window is', async () => {
    const login = TRADER_LOGINS[3]!;
    const { dataDir, first, place, placed } = await placedOnFirst(login);
    await first.kill();
    const second = await start(dataDir);
    const api = new RestClient(second.httpPort, traderKey(login));
    const fence = await second.waitForLog((l) => l.msg.startsWith('replay guard'));
    const refuseBeforeMs = fence['refuse_before_ms'] as number;
    expect(refuseBeforeMs).toBeGreaterThan(Number(place.ts));

    const replayed = await resend(api, place);
    expectError(replayed, 'unauthorized');
    expect(replayed.body.error.message).toContain(String(refuseBeforeMs));
    // A fresh request signed just before the fence is refused too; one signed at it is served.
    const early = await api.post('/v1/orders', orderBody(login), { ts: String(refuseBeforeMs - 1) });
    expectError(early, 'unauthorized');
    expect((await api.post('/v1/orders', orderBody(login), { ts: String(refuseBeforeMs) })).status).toBe(200);
    expect((await positions(api)).map((p) => p.ticket)).toEqual([placed.body.ticket, expect.any(Number)]);
  }, 60_000);
});
