// The journal in a directory of its own (config `journal.dir`), through the real process: the
// shards journal there and nothing in the data directory; after a power loss (every byte written
// after the last sync dropped, then kill -9) with no checkpoint durable since the orders, the
// restart replays them from there and every acknowledged order is kept once. Started without the
// setting, the data directory's journal is missing where the service would look: the start is
// refused, naming the directory, instead of running without the records.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { segmentIndex } from '../../src/store/journal/format.js';
import { MAIN_JS, startServer, tempDir, type RunningServer } from '../support/server.js';
import { marketOrder, operatorPost, orderLoad, PUSHED_PRICES, untilAcked } from './support.js';

const LOGINS = ['100001', '100002', '100003'];
const SHARDS = 2;
const servers: RunningServer[] = [];
afterAll(async () => { for (const s of servers) await s.kill().catch(() => undefined); });

async function start(dataDir: string, walDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ dataDir, config: { ...PUSHED_PRICES, shards: SHARDS, journal: { dir: walDir } }, env });
  servers.push(server);
  return server;
}

const segments = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => segmentIndex(n) !== null) : []);

describe('journal.dir', () => {
  it('holds every shard\'s journal, replayed from there after a power loss', async () => {
    const dataDir = tempDir();
    const walDir = tempDir('tas-wal-');
    const stalled = path.join(tempDir('tas-flag-'), 'checkpoints-fail');
    fs.writeFileSync(stalled, '');
    const faults = { journal: { lose_unsynced: true }, checkpoint: { fail_while: stalled } };
    const first = await start(dataDir, walDir, { TAS_FAULTS: JSON.stringify(faults) });
    const load = orderLoad(first, LOGINS, 'w-', 4);
    await untilAcked(load, 60);
    load.stop();
    await load.done;
    await first.kill();

    for (let shard = 0; shard < SHARDS; shard++) {
      expect(segments(path.join(walDir, `shard-${shard}`)).length).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(walDir, `shard-${shard}`, 'journal.id'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, `shard-${shard}`, 'journal'))).toBe(false);
    }

    const second = await start(dataDir, walDir);
    const replayed = second.logs.filter((l) => l.msg === 'journal replayed').reduce((n, l) => n + (l['replayed'] as number), 0);
    expect(replayed).toBeGreaterThanOrEqual(load.acked.size);
    for (const [clientId, original] of load.acked) {
      const res = await operatorPost(second, '/console/api/orders', marketOrder(original.login, clientId));
      expect(res.status).toBe(409);
      expect(((await res.json()) as { order: { id: string } }).order.id).toBe(original.id);
    }
    expect(await second.stop()).toBe(0);

    const run = spawnSync(process.execPath, [MAIN_JS, '--data', dataDir], {
      encoding: 'utf8', timeout: 20_000,
      env: { ...process.env, TAS_HTTP_PORT: '0', TAS_CONSOLE_PORT: '0', TAS_FIX_PORT: '0', TAS_SHARDS: String(SHARDS) },
    });
    expect(run.status).not.toBe(0);
    // Whichever shard checks first stops the start.
    const inPlace = (shard: number): string => `is not in ${path.join(dataDir, `shard-${shard}`, 'journal')}: it has no journal.id`;
    expect([0, 1].some((shard) => (run.stdout + run.stderr).includes(inPlace(shard)))).toBe(true);
  }, 60_000);
});
