// Idempotency across a clean restart for client ids at the edges of the code space (issue 13,
// item 1): ids starting with an astral character (an emoji, U+10FFFF) or with U+FFFF, U+FFFD,
// U+0000 and plain ASCII each keep their 409 (with the original order) after a SIGTERM restart,
// and no second order is filled.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { RestClient } from './support/client.js';
import { expectError } from './support/expect.js';
import { REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

const LOGIN = TRADER_LOGINS[4]!;
const EDGES = ['\u{1F600}order', '\uFFFForder', '\u{10FFFF}', '\uFFFD', '\u0000first', '~tilde', 'a'];
const dataDir = tempDir();
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<RestClient> {
  const server = await startServer({ dataDir, seed: restSeed(Date.now()), config: REST_CONFIG });
  servers.push(server);
  return new RestClient(server.httpPort, traderKey(LOGIN));
}

const order = (clientId: string): string => JSON.stringify({ login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: clientId });

describe('client ids at the edges of the code space', () => {
  it('keep their 409 across a clean restart', async () => {
    let api = await start();
    const placed = new Map<string, string>();
    for (const clientId of EDGES) {
      const res = await api.post('/v1/orders', order(clientId));
      expect(res.status, res.text).toBe(200);
      placed.set(clientId, res.body.id);
      expectError(await api.post('/v1/orders', order(clientId)), 'duplicate_client_id');
    }
    expect(await servers.at(-1)!.stop()).toBe(0);
    api = await start();
    for (const [clientId, id] of placed) {
      const res = await api.post('/v1/orders', order(clientId));
      expectError(res, 'duplicate_client_id');
      expect(res.body.order).toMatchObject({ id, client_id: clientId });
    }
    expect((await api.get('/v1/positions')).body.data).toHaveLength(EDGES.length);
  }, 60_000);
});
