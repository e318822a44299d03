// Keeps the on-disk layout in step with the configured shard count. Accounts live in the
// environment of the shard they hash to (`shardOf(login, shards)`); when the count changes, every
// account whose shard changed is moved — account, orders, pending orders, positions, client ids,
// events and dead-man's switches — in one transaction per source environment, before any shard starts. Ids stay
// unique because each carries the shard that allocated it. A shard's journal holds its own
// shard's history: every old shard first replays its journal into its tables (recovery), so what
// moves is complete and no journal is left to replay under the new layout.
import type { Database } from 'lmdb';
import type { Durability } from '../config/types.js';
import { FsJournalIo } from '../store/journal/io.js';
import { loginRange, MAIN_META, openShardStore, openStore, type ShardStore } from '../store/store.js';
import { shardOf } from './protocol.js';
import { recoverShard, type RecoveryOptions } from './recovery.js';

const LAYOUT_KEY = 'layout:shards';

export interface ReshardReport { readonly from: number; readonly to: number; readonly moved: number }

function copyRange<V, K extends [string, ...(string | number)[]]>(from: Database<V, K>, to: Database<V, K>, login: string): void {
  for (const { key, value } of [...loginRange(from, login)]) {
    to.putSync(key, value);
    from.removeSync(key);
  }
}

function moveAccount(from: ShardStore, to: ShardStore, login: string): void {
  to.accounts.putSync(login, from.accounts.get(login)!);
  from.accounts.removeSync(login);
  copyRange(from.orders, to.orders, login);
  copyRange(from.clientIds, to.clientIds, login);
  copyRange(from.events, to.events, login);
  copyRange(from.deadMen, to.deadMen, login);
  for (const { key, value } of from.pending.getRange()) {
    if (value.login === login) { to.pending.putSync(key, value); from.pending.removeSync(key); }
  }
  for (const { key, value } of from.positions.getRange()) {
    if (value.login === login) { to.positions.putSync(key, value); from.positions.removeSync(key); }
  }
}

/**
 * Run before anything else opens the environments. The layout (shard count) is recorded in the
 * main environment; returns what was moved, or null when the layout already matched.
 */
export async function reshardDataDir(
  dataDir: string, journalRoot: string | null, durability: Durability, shards: number, recovery: Omit<RecoveryOptions, 'shard'>,
): Promise<ReshardReport | null> {
  const main = openStore(dataDir, durability, 0);
  try {
    return await reshard(dataDir, journalRoot, durability, shards, main.table(MAIN_META), recovery);
  } finally {
    await main.close();
  }
}

async function reshard(
  dataDir: string, journalRoot: string | null, durability: Durability, shards: number, layout: Database<number, string>, recovery: Omit<RecoveryOptions, 'shard'>,
): Promise<ReshardReport | null> {
  const previous = layout.get(LAYOUT_KEY);
  if (previous === shards) return null;
  let moved = 0;
  if (previous !== undefined) {
    const envs = Array.from({ length: Math.max(previous, shards) }, (_, i) => openShardStore(dataDir, i, durability, journalRoot));
    try {
      const io = new FsJournalIo(durability === 'none' ? 'none' : 'fdatasync');
      for (let shard = 0; shard < previous; shard++) recoverShard(envs[shard]!, io, { ...recovery, shard });
      for (let source = 0; source < previous; source++) {
        const from = envs[source]!;
        const leaving = [...from.accounts.getKeys()].filter((login) => shardOf(login, shards) !== source);
        for (const login of leaving) {
          const to = envs[shardOf(login, shards)]!;
          // The inner transaction commits first: the copy lands in the target before the source lets
          // go, so a crash in between leaves a duplicate (cleaned on the next start), never a loss.
          from.root.transactionSync(() => {
            to.root.transactionSync(() => moveAccount(from, to, login));
          });
          moved++;
        }
      }
    } finally {
      for (const env of envs) await env.close();
    }
  }
  await layout.put(LAYOUT_KEY, shards);
  // A fresh data dir only records its layout.
  return previous === undefined ? null : { from: previous, to: shards, moved };
}
