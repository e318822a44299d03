// Changing the shard count between starts: every account moves to the environment of the shard
// it now hashes to, with its orders, positions, client ids and events; nothing is lost, ids stay
// unique, and the moved accounts trade on.
import { afterAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/shard/protocol.js';
import { openStore } from '../../src/store/store.js';
import { startServer, tempDir, type RunningServer } from '../support/server.js';

const LOGINS = ['100001', '100002', '100003'];

async function operatorPost(server: RunningServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.console}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function buy(server: RunningServer, login: string, clientId: string): Promise<{ id: string; ticket: number; status: number }> {
  const res = await operatorPost(server, '/console/api/orders', {
    login, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, source: 'manual', client_id: clientId,
  });
  return { ...(await res.json() as { id: string; ticket: number }), status: res.status };
}

/** What is on disk per account: positions, orders, events, and which shard environment holds them. */
async function onDisk(dataDir: string, shards: number) {
  const store = openStore(dataDir, 'none', shards);
  const byLogin = new Map<string, { shard: number; positions: number[]; orders: string[]; events: number }>();
  store.shards.forEach((dbs, shard) => {
    for (const login of dbs.accounts.getKeys()) {
      byLogin.set(login, {
        shard,
        positions: [...dbs.positions.getRange()].filter((e) => e.value.login === login).map((e) => e.key).sort((a, b) => a - b),
        orders: [...dbs.orders.getRange({ start: [login], end: [login, Number.MAX_SAFE_INTEGER] })].map((e) => e.value.id),
        events: [...dbs.events.getKeys({ start: [login, 0], end: [login, Number.MAX_SAFE_INTEGER] })].length,
      });
    }
  });
  await store.close();
  return byLogin;
}

describe('resharding', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => { for (const s of servers) await s.kill().catch(() => undefined); });

  it('moves accounts with their history when the shard count changes, and keeps ids unique', async () => {
    const dataDir = tempDir();
    const two = await startServer({ dataDir, config: { shards: 2 } });
    servers.push(two);
    await operatorPost(two, '/console/api/quotes', { symbol: 'BTCUSD', bid: 65000, ask: 65001 });
    const first = await Promise.all(LOGINS.flatMap((login) => [1, 2].map((n) => buy(two, login, `a${login}-${n}`))));
    expect(first.every((o) => o.status === 200)).toBe(true);
    expect(await two.stop()).toBe(0);
    const before = await onDisk(dataDir, 2);

    const three = await startServer({ dataDir, config: { shards: 3 } });
    servers.push(three);
    expect(three.logs.some((l) => l.msg === 'accounts moved to their new shards')).toBe(true);
    // A repeated client id is still recognised after its account moved: its history moved with it.
    const again = await operatorPost(three, '/console/api/orders', {
      login: '100002', symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, source: 'manual', client_id: 'a100002-1',
    });
    expect(again.status).toBe(409);
    const later = await Promise.all(LOGINS.map((login) => buy(three, login, `b${login}`)));
    expect(later.every((o) => o.status === 200)).toBe(true);
    expect(await three.stop()).toBe(0);

    const after = await onDisk(dataDir, 3);
    for (const login of LOGINS) {
      const was = before.get(login)!;
      const now = after.get(login)!;
      expect(now.shard).toBe(shardOf(login, 3));
      expect(now.positions).toEqual(expect.arrayContaining(was.positions));
      expect(now.orders).toEqual(expect.arrayContaining(was.orders));
      expect(now.positions).toHaveLength(was.positions.length + 1);
      expect(now.events).toBe(was.events + 2);
    }
    const ids = [...after.values()].flatMap((a) => a.orders);
    expect(new Set(ids).size).toBe(ids.length);
    const tickets = [...after.values()].flatMap((a) => a.positions);
    expect(new Set(tickets).size).toBe(tickets.length);

    // And back down to one shard.
    const one = await startServer({ dataDir, config: { shards: 1 } });
    servers.push(one);
    expect((await buy(one, '100003', 'c1')).status).toBe(200);
    expect(await one.stop()).toBe(0);
    const single = await onDisk(dataDir, 1);
    expect([...single.values()].every((a) => a.shard === 0)).toBe(true);
    expect(single.get('100003')!.positions).toHaveLength(after.get('100003')!.positions.length + 1);
  }, 120_000);
});
