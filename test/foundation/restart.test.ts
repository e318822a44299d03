// The foundation's promise, through the real process: quotes and operator orders stream in, the
// process is SIGKILLed mid-stream, and a restart on the same data finds every acknowledged order
// and nothing that was never sent; ids never repeat; each account's orders came from its shard.
import { afterAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/shard/protocol.js';
import { openStore } from '../../src/store/store.js';
import { startServer, tempDir, type RunningServer } from '../support/server.js';

const LOGINS = ['100001', '100002', '100003'];
const SHARDS = 2;

async function operatorPost(server: RunningServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.console}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const order = (login: string, clientId: string) => ({
  login, symbol: 'BTCUSD', side: clientId.endsWith('1') ? 'sell' : 'buy', type: 'market', volume: 0.01, source: 'manual', client_id: clientId,
});

describe('restart after SIGKILL', () => {
  const dataDir = tempDir();
  const servers: RunningServer[] = [];
  afterAll(async () => { for (const s of servers) await s.kill().catch(() => undefined); });

  it('keeps every acknowledged order and invents none', async () => {
    const first = await startServer({ dataDir, config: { shards: SHARDS } });
    servers.push(first);
    expect(first.logs.filter((l) => l.msg === 'shard recovered').map((l) => l['thread']).sort()).toEqual(['shard-0', 'shard-1']);
    expect((await operatorPost(first, '/console/api/quotes', { symbol: 'BTCUSD', bid: 65000, ask: 65001 })).status).toBe(200);

    const sent = new Set<string>();
    const acked = new Map<string, { id: string; ticket: number; login: string }>();
    let n = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const login = LOGINS[n % LOGINS.length]!;
        const clientId = `c${n++}`;
        sent.add(clientId);
        let res: Response;
        try {
          res = await operatorPost(first, '/console/api/orders', order(login, clientId));
        } catch {
          return; // the process is gone: this request is in flight, neither acked nor refused
        }
        expect(res.status).toBe(200);
        const body = await res.json() as { id: string; ticket: number; login: string; status: string };
        expect(body.status).toBe('filled');
        acked.set(clientId, body);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    while (acked.size < 300) await new Promise((r) => setImmediate(r));
    await first.kill();
    await Promise.all(workers);

    const second = await startServer({ dataDir, config: { shards: SHARDS } });
    servers.push(second);
    // Every acknowledged client id is known to its account after the restart: a repeat is 409 with the original.
    for (const [clientId, ack] of [...acked].slice(0, 40)) {
      const res = await operatorPost(second, '/console/api/orders', order(ack.login, clientId));
      expect(res.status).toBe(409);
      const body = await res.json() as { error: { name: string }; order: { id: string; ticket: number } };
      expect(body.error.name).toBe('duplicate_client_id');
      expect(body.order.id).toBe(ack.id);
      expect(body.order.ticket).toBe(ack.ticket);
    }
    // New ids continue past the old ones.
    const fresh = await operatorPost(second, '/console/api/orders', order('100001', 'after-restart'));
    expect(fresh.status).toBe(200);
    const freshOrder = await fresh.json() as { id: string };
    expect(Number(freshOrder.id)).toBeGreaterThan(Math.max(...[...acked.values()].map((a) => Number(a.id))));
    expect(await second.stop()).toBe(0);

    // On disk: acknowledged ⊆ stored ⊆ sent, every filled order has its open position, ids unique
    // and each id carries the shard of its account.
    const store = openStore(dataDir, 'none', SHARDS);
    const stored = store.shards.flatMap((d) => [...d.orders.getRange()].map((e) => e.value)).filter((o) => o.clientId !== 'after-restart');
    const storedClientIds = new Set(stored.map((o) => o.clientId!));
    for (const clientId of acked.keys()) expect(storedClientIds.has(clientId)).toBe(true);
    for (const clientId of storedClientIds) expect(sent.has(clientId)).toBe(true);
    expect(storedClientIds.size).toBe(stored.length);
    expect(new Set(stored.map((o) => o.id)).size).toBe(stored.length);
    for (const o of stored) {
      expect(o.status).toBe('filled');
      expect(store.shards[shardOf(o.login, SHARDS)]!.positions.get(o.ticket!)).toBeDefined();
      expect(Number(o.id) % 64).toBe(shardOf(o.login, SHARDS));
    }
    await store.close();
  }, 120_000);
});
