// The journal's promise through the real process, over many crashes: orders stream in from
// concurrent clients, the process is SIGKILLed at an arbitrary moment, and restarted on the same
// data, twenty times in the suite (`make kill-soak`: a hundred). Afterwards every acknowledged order is there once (its client id, sent
// again, is refused with 409 and the original order), nothing that was never sent exists, and ids
// keep growing across restarts, each carrying its account's shard.
import { afterAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/shard/protocol.js';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { marketOrder, operatorPost, orderLoad, PUSHED_PRICES, untilAcked, type Acked } from './support.js';

const LOGINS = ['100001', '100002', '100003'];
const SHARDS = 2;
/** KILL_SOAK_CYCLES sets how many (`make kill-soak` runs 100); twenty in `make test`. */
const CYCLES = cyclesFrom(process.env['KILL_SOAK_CYCLES']);
const MS_PER_CYCLE = 12_000;
// Every fill opens a position on one of the three demo accounts, and their margin holds a few
// thousand 0.01 lots in all: a longer run sends fewer orders per cycle (20 cycles: 20 to 109 each,
// as always; 100 cycles: 5 to 22), so the whole run stays near 1,300 orders.
const MIN_ORDERS = Math.max(5, Math.round((20 * 20) / CYCLES));
const ORDERS_SPAN = Math.max(10, Math.round((90 * 20) / CYCLES));
const CONFIG = { shards: SHARDS, ...PUSHED_PRICES };

function cyclesFrom(text: string | undefined): number {
  if (text === undefined) return 20;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`KILL_SOAK_CYCLES must be a whole number of cycles, not ${text}`);
  return n;
}

describe(`kill -9 under load, ${CYCLES} times`, () => {
  const dataDir = tempDir();
  const servers: RunningServer[] = [];
  afterAll(async () => { for (const s of servers) await s.kill().catch(() => undefined); });

  it('keeps every acknowledged order exactly once, and ids keep growing', async () => {
    const acked = new Map<string, Acked>();
    const sent = new Set<string>();
    const maxId = new Map<number, number>();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await startServer({ dataDir, config: CONFIG });
      servers.push(server);
      const load = orderLoad(server, LOGINS, `k${cycle}-`);
      // A different amount of work each time, so the kill lands in different places.
      await untilAcked(load, MIN_ORDERS + ((cycle * 37) % ORDERS_SPAN));
      await server.kill();
      await load.done;
      for (const c of load.sent) sent.add(c);
      for (const [c, o] of load.acked) {
        acked.set(c, o);
        const shard = shardOf(o.login, SHARDS);
        // Ids are counter × 64 + shard: each shard's grow across every restart.
        expect(Number(o.id) % 64).toBe(shard);
        if (cycle > 0 && !maxId.has(shard)) expect(Number(o.id)).toBeGreaterThan(0);
      }
      for (const o of load.acked.values()) {
        const shard = shardOf(o.login, SHARDS);
        maxId.set(shard, Math.max(maxId.get(shard) ?? 0, Number(o.id)));
      }
    }

    const last = await startServer({ dataDir, config: CONFIG });
    servers.push(last);
    for (const [clientId, original] of acked) {
      const res = await operatorPost(last, '/console/api/orders', marketOrder(original.login, clientId));
      expect(res.status).toBe(409);
      const body = await res.json() as { error: { name: string }; order: Acked };
      expect(body.error.name).toBe('duplicate_client_id');
      expect(body.order.id).toBe(original.id);
    }
    // Sent but never acknowledged: durable or not, never twice.
    let recovered = 0;
    for (const clientId of sent) {
      if (acked.has(clientId)) continue;
      const login = LOGINS[Number(clientId.split('-')[1]) % LOGINS.length]!;
      const res = await operatorPost(last, '/console/api/orders', marketOrder(login, clientId));
      expect([200, 409]).toContain(res.status);
      if (res.status === 409) recovered++;
      const again = await operatorPost(last, '/console/api/orders', marketOrder(login, clientId));
      expect(again.status).toBe(409);
    }
    expect(recovered).toBeLessThanOrEqual(sent.size - acked.size);
    // A new order continues its shard's ids.
    for (const login of LOGINS) {
      const res = await operatorPost(last, '/console/api/orders', marketOrder(login, `after-${login}`));
      const order = await res.json() as Acked;
      expect(Number(order.id)).toBeGreaterThan(maxId.get(shardOf(login, SHARDS)) ?? 0);
    }
    expect(await last.stop()).toBe(0);
  }, CYCLES * MS_PER_CYCLE);
});
