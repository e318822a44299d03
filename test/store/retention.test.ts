// History retention on a real LMDB shard environment: events older than the cut leave from the
// start of each account's range, newer ones stay; client ids older than their window leave.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/types.js';
import { pruneHistory } from '../../src/store/retention.js';
import { openShardStore, type ShardStore } from '../../src/store/store.js';

const dirs: string[] = [];
const stores: ShardStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function event(login: string, seq: number, ts: number): EngineEvent {
  return {
    type: 'order', seq, ts,
    order: {
      id: String(seq), login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 1, price: 108_500, requestedPrice: null,
      sl: null, tp: null, status: 'filled', ticket: seq + 1, source: 'api', keyId: 'k', clientId: null, webhookId: null,
      createdAt: ts, filledAt: ts, closedAt: null, reason: null,
    },
  };
}

describe('pruneHistory', () => {
  it('cuts each account\'s events older than the retention and stale client ids, and nothing else', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-retention-'));
    dirs.push(dir);
    const store = openShardStore(dir, 0, 'none', null);
    stores.push(store);
    const account = (login: string) => ({
      login, user: 'u', type: 'demo' as const, group: 'g', currency: 'USD', leverage: 100, server: 's',
      balance: 0, margin: 0, seq: 10, accountHalted: false, userHalted: false,
    });
    store.root.transactionSync(() => {
      for (const login of ['a', 'b']) {
        store.accounts.putSync(login, account(login));
        for (let seq = 1; seq <= 10; seq++) store.events.putSync([login, seq], event(login, seq, seq * 1000));
        store.clientIds.putSync([login, 'old'], { orderId: '1', atMs: 1000 });
        store.clientIds.putSync([login, 'new'], { orderId: '2', atMs: 9000 });
      }
    });

    expect(await pruneHistory(store, 4000, 5000, () => Promise.resolve())).toEqual({ events: 6, clientIds: 2 });
    for (const login of ['a', 'b']) {
      expect([...store.events.getKeys({ start: [login, 0], end: [login, 99] })].map((k) => k[1])).toEqual([4, 5, 6, 7, 8, 9, 10]);
      expect([...store.clientIds.getKeys({ start: [login], end: [login, '\uffff'] })].map((k) => k[1])).toEqual(['new']);
    }
    expect(await pruneHistory(store, 4000, 5000, () => Promise.resolve())).toEqual({ events: 0, clientIds: 0 });
  });
});
