// Client ids past the engine's memory window, on a real LMDB shard environment: the shard's engine
// keeps the last clientIdMemoryMs of them and finds older ones in what the checkpoint noted, then
// in LMDB, for the whole retention and across a restart (DECISIONS: at least 24 h).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Command, Outcome, UnixMs } from '../../src/engine/types.js';
import { NO_STOP_OUT } from '../../src/engine/stop-out.js';
import { FsJournalIo } from '../../src/store/journal/io.js';
import { openShardStore, type ShardStore } from '../../src/store/store.js';
import { recoverShard, type Recovered } from '../../src/shard/recovery.js';
import { account, DAY_MS, ok, place, rejected, SYMBOLS, tick, WED_NOON } from '../engine/fixtures.js';

const MEMORY_MS = 1000;
const dirs: string[] = [];
const stores: ShardStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function open(dir: string): ShardStore {
  const store = openShardStore(dir, 0, 'none', null);
  stores.push(store);
  return store;
}

function recover(store: ShardStore, nowMs: UnixMs): Recovered {
  return recoverShard(store, new FsJournalIo('none'), {
    shard: 0, symbols: SYMBOLS, clientIdRetentionMs: DAY_MS, clientIdMemoryMs: MEMORY_MS, haltedKeys: [], marginPolicy: NO_STOP_OUT, nowMs,
  });
}

describe('client ids beyond the engine\'s memory', () => {
  it('are refused for the whole retention: from the noted checkpoint, from LMDB, and after a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-client-ids-'));
    dirs.push(dir);
    let store = open(dir);
    store.accounts.putSync('usd1', account('usd1', 'USD', 1_000_000));
    const { engine, checkpoint } = recover(store, WED_NOON);
    let lsn = 0;
    // As a shard does: every outcome noted for the checkpoint once applied (and journaled).
    const apply = (cmd: Command, nowMs: UnixMs): Outcome => {
      const outcome = engine.apply(cmd, nowMs);
      checkpoint.note(++lsn, outcome);
      return outcome;
    };
    apply(tick('EURUSD', 108_500, 108_510), WED_NOON);
    const original = ok(apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON), 'place').order;
    const again = (nowMs: number): Outcome => apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), nowMs);

    // Forgotten by the engine, noted and not yet committed.
    expect(rejected(again(WED_NOON + MEMORY_MS))).toMatchObject({ name: 'duplicate_client_id', orderId: original.id });
    expect(engine.snapshot().clientIds).toEqual([]);
    expect(checkpoint.clientId('usd1', 'c-1')).toBeDefined();
    await checkpoint.begin(engine.idCounter);
    expect(checkpoint.clientId('usd1', 'c-1')).toBeUndefined();
    // In LMDB only.
    expect(rejected(again(WED_NOON + DAY_MS - 1))).toMatchObject({ name: 'duplicate_client_id', orderId: original.id });
    await store.close();
    stores.length = 0;

    store = open(dir);
    const restarted = recover(store, WED_NOON + 10 * MEMORY_MS);
    expect(restarted.engine.snapshot().clientIds).toEqual([]);
    restarted.engine.apply(tick('EURUSD', 108_500, 108_510), WED_NOON + DAY_MS - 1);
    expect(rejected(restarted.engine.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS - 1)))
      .toMatchObject({ name: 'duplicate_client_id', orderId: original.id });
    ok(restarted.engine.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS), 'place');
  });
});
