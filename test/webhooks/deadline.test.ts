// The fan-out deadline: with webhooks.deadline_ms at 20 ms and every journal sync held 100 ms
// longer (the durability tests' fault injection), a signal to 120 accounts is answered before its
// targets are done, whatever the machine's speed (a 1 ms deadline alone was met by all 120 targets
// in one CI run); they are reported as `timeout`, still trade, and the signal log ends up with every
// target's own result.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operator, send } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { FAULTS_VARIABLE } from '../../src/config/env.js';

const LOGINS = Array.from({ length: 120 }, (_, i) => String(700_001 + i));
const SEED = {
  symbols: [{ name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, session: '24x7' }],
  users: [{ id: 'u1', password: 'password-u1', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' }],
  accounts: LOGINS.map((login) => ({ login, user: 'u1', currency: 'USD', balance: 10000 })),
  webhooks: [{
    id: 'wh-wide', user: 'u1', secret: 'wh-wide-secret-0123456789', symbols: ['EURUSD'],
    targets: LOGINS.map((login) => ({ login, sizing: { type: 'fixed', lots: 0.01 } })),
  }],
};

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    seed: SEED, config: { prices: { source: 'push' }, webhooks: { deadline_ms: 20 } },
    env: { [FAULTS_VARIABLE]: JSON.stringify({ journal: { sync_delay_ms: 100 } }) },
  });
});
afterAll(async () => { await server.stop(); });

interface Entry { login: string; volume: number; ticket?: number; error?: { name: string } }

describe('fan-out deadline', () => {
  it('answers timeouts for targets not done, which finish on their own into the signal log', async () => {
    const res = await send(server.httpPort, 'POST', '/v1/signal/wh-wide', {
      body: JSON.stringify({ secret: 'wh-wide-secret-0123456789', action: 'buy', symbol: 'EURUSD' }),
    });
    expect(res.status, res.text).toBe(200);
    const fanout = res.body.fanout as Entry[];
    expect(fanout.map((f) => f.login)).toEqual(LOGINS);
    const timedOut = fanout.filter((f) => f.error?.name === 'timeout');
    expect(timedOut.length).toBeGreaterThan(0);
    for (const f of fanout) expect(f.error === undefined ? Number.isInteger(f.ticket) : f.volume === 0).toBe(true);

    // The late results arrive on the server's own time: poll its log until they are all in.
    const final = await vi.waitFor(async () => {
      const log = await operator(server.consolePort, server.adminToken, 'GET', '/console/api/webhooks/wh-wide/signals');
      const entry = log.body.data[0];
      expect(entry).toMatchObject({ signal_id: res.body.signal_id, pending_targets: 0 });
      return entry.fanout as Entry[];
    }, { timeout: 10_000, interval: 20 });
    expect(final.map((f) => [f.login, f.volume])).toEqual(LOGINS.map((l) => [l, 0.01]));
    const tickets = final.map((f) => f.ticket);
    expect(new Set(tickets).size).toBe(LOGINS.length);
    // What was answered in time is what the log keeps.
    for (const [i, f] of fanout.entries()) if (f.error === undefined) expect(final[i]).toEqual(f);
  });
});
