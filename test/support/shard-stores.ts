// Shard stores on real LMDB in temporary directories: each store is closed and each directory
// removed after the test that made it.
import fs from 'node:fs';
import { afterEach } from 'vitest';
import { openShardStore, type ShardStore } from '../../src/store/store.js';
import { tempDir } from './server.js';

export interface ShardStores {
  /** A new temporary directory. */
  dir(): string;
  /** Shard `shard`'s store in `dataDir` (durability `none`), its journal in place unless `journalRoot` is given. */
  open(dataDir?: string, shard?: number, journalRoot?: string | null): ShardStore;
  /** Closes `store` before the test ends (a restart opens its directory again). */
  close(store: ShardStore): Promise<void>;
}

export function shardStores(prefix: string): ShardStores {
  const dirs: string[] = [];
  const stores: ShardStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const dir = (): string => {
    const d = tempDir(prefix);
    dirs.push(d);
    return d;
  };
  return {
    dir,
    open: (dataDir = dir(), shard = 0, journalRoot = null) => {
      const s = openShardStore(dataDir, shard, 'none', journalRoot);
      stores.push(s);
      return s;
    },
    close: async (store) => {
      stores.splice(stores.indexOf(store), 1);
      await store.close();
    },
  };
}
