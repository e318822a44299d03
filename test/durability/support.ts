// What the durability tests share: orders through the real process's operator route with client
// ids (acknowledged ones recorded), crashes, and the state a data dir recovers to, read from its
// files with the service's own recovery (checkpoint + journal replay, in memory, writing nothing).
import { NO_STOP_OUT } from '../../src/engine/stop-out.js';
import { expect } from 'vitest';
import type { EngineInit } from '../../src/engine/types.js';
import { recoverShard } from '../../src/shard/recovery.js';
import { FsJournalIo } from '../../src/store/journal/io.js';
import { openShardStore, openStore, SYMBOLS } from '../../src/store/store.js';
import type { RunningServer } from '../support/server.js';

export interface Acked { readonly id: string; readonly ticket: number; readonly login: string; readonly status: string }

export async function operatorPost(server: RunningServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.console}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export const marketOrder = (login: string, clientId: string, side: 'buy' | 'sell' = 'buy') => ({
  login, symbol: 'BTCUSD', side, type: 'market', volume: 0.01, source: 'manual', client_id: clientId,
});

/** A config where prices move only when a test pushes them, so two runs fill alike. */
export const PUSHED_PRICES = { prices: { source: 'push', seed: 1, file: null, speed: 1 } };

export interface Load {
  readonly sent: Set<string>;
  readonly acked: Map<string, Acked>;
  /** Resolves once every lane stopped (the process is gone, or `stop` was called). */
  readonly done: Promise<void>;
  stop(): void;
}

/**
 * Orders from `lanes` concurrent lanes, client ids `${prefix}${n}`, over `logins`, until the
 * process dies or stop() is called. A request in flight when the process dies is neither
 * acknowledged nor refused; every answer that arrives must be a fill.
 */
export function orderLoad(server: RunningServer, logins: readonly string[], prefix: string, lanes = 8): Load {
  const sent = new Set<string>();
  const acked = new Map<string, Acked>();
  let n = 0;
  let stopped = false;
  const lane = async (): Promise<void> => {
    while (!stopped) {
      const login = logins[n % logins.length]!;
      const clientId = `${prefix}${n++}`;
      sent.add(clientId);
      let res: Response;
      try {
        res = await operatorPost(server, '/console/api/orders', marketOrder(login, clientId, n % 2 === 0 ? 'buy' : 'sell'));
      } catch {
        return;
      }
      const body = await res.json().catch(() => null) as Acked | null;
      if (body === null) return;
      expect(res.status).toBe(200);
      expect(body.status).toBe('filled');
      acked.set(clientId, body);
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane)).then(() => undefined);
  return { sent, acked, done, stop: () => { stopped = true; } };
}

/**
 * Resolves once `acked` holds `count` entries (awaited turn by turn, no sleeping); throws as soon
 * as the load ends short of it (a lane got an answer that was not a fill), instead of waiting out
 * the test's timeout.
 */
export async function untilAcked(load: Load, count: number): Promise<void> {
  const outcome: { ended: boolean; failure: unknown } = { ended: false, failure: null };
  load.done.then(() => { outcome.ended = true; }, (failure: unknown) => { outcome.ended = true; outcome.failure = failure; });
  while (load.acked.size < count) {
    if (outcome.ended) throw outcome.failure ?? new Error(`the load ended with ${load.acked.size} of ${count} orders acknowledged`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Drops what differs between two runs of the same commands: wall-clock times. */
function timeless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timeless);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([k]) => !/(At|Ms|^ts)$/.test(k))
    .map(([k, v]) => [k, timeless(v)]));
}

/** Every shard's state as a start of this data dir would recover it, without times. */
export async function recoveredState(dataDir: string, shards: number): Promise<unknown[]> {
  const main = openStore(dataDir, 'none', 0);
  const symbols = [...main.table(SYMBOLS).getRange()].map((e) => e.value);
  await main.close();
  const states: EngineInit[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const store = openShardStore(dataDir, shard, 'none', null);
    try {
      const { engine } = recoverShard(store, new FsJournalIo('none'), {
        shard, symbols, clientIdRetentionMs: 24 * 3600_000, haltedKeys: [], marginPolicy: NO_STOP_OUT, nowMs: Date.now(), persist: false,
      });
      states.push(engine.snapshot());
    } finally {
      await store.close();
    }
  }
  // Client ids are listed by age: without their times, by account and id.
  return states.map(({ clientIds, ...state }) => timeless({
    ...state, clientIds: [...clientIds].sort((a, b) => a.login.localeCompare(b.login) || a.clientId.localeCompare(b.clientId)),
  }));
}
