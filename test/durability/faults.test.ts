// The journal's promise under the faults a disk can have, through the real process (faults are
// injected with TAS_FAULTS, src/store/faults.ts):
// - power loss: every byte written after the last completed sync is lost; every acknowledged order
//   survives it;
// - a crash right after a journal sync, before the batch's answers and its checkpoint, a crash
//   while a checkpoint is being written, and one between what it writes ahead and its record: the restart
//   replays to exactly the state of a clean run of the same commands;
// - a checkpoint that fails (its commit on a full disk): orders are still accepted, /health says
//   `degraded` until one is durable again, and the next one writes what it held, so a restart has
//   the state of a clean run;
// - a full disk: orders get 503 `unavailable` and /health says so, and both recover once there is
//   room again; a failing sync stops acknowledging for good, and a restart recovers what was
//   acknowledged;
// - a torn journal tail is dropped and logged with its offset; a journal of a newer format refuses
//   the start naming the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import { HEADER_BYTES, RECORD_HEADER_BYTES, segmentIndex } from '../../src/store/journal/format.js';
import { MAIN_JS, startServer, tempDir, type RunningServer } from '../support/server.js';
import { spawnSync } from 'node:child_process';
import { marketOrder, operatorPost, orderLoad, PUSHED_PRICES, recoveredState, untilAcked, type Acked } from './support.js';

const LOGINS = ['100001', '100002', '100003'];
const servers: RunningServer[] = [];
afterAll(async () => { for (const s of servers) await s.kill().catch(() => undefined); });

async function start(dataDir: string, config: Record<string, unknown>, faults?: unknown): Promise<RunningServer> {
  const server = await startServer({ dataDir, config: { ...PUSHED_PRICES, ...config }, env: faults === undefined ? {} : { TAS_FAULTS: JSON.stringify(faults) } });
  servers.push(server);
  return server;
}

interface HealthBody {
  readonly status: string;
  readonly journals?: { shard: number; state: string; message: string }[];
  readonly checkpoints?: { shard: number; failed_in_a_row: number; since: string; message: string }[];
}

async function health(server: RunningServer): Promise<{ status: number; body: HealthBody }> {
  const res = await fetch(`${server.http}/health`);
  return { status: res.status, body: await res.json() as { status: string } };
}

/** Every acknowledged order is stored once: its client id sent again gets 409 with the original. */
async function expectAllKept(server: RunningServer, acked: ReadonlyMap<string, Acked>): Promise<void> {
  for (const [clientId, original] of acked) {
    const res = await operatorPost(server, '/console/api/orders', marketOrder(original.login, clientId));
    expect(res.status).toBe(409);
    expect(((await res.json()) as { order: Acked }).order.id).toBe(original.id);
  }
}

/** Sends the orders one by one until one goes unanswered (the process died), returning how many were answered. */
async function sequential(server: RunningServer, count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    try {
      const res = await operatorPost(server, '/console/api/orders', marketOrder(LOGINS[i % LOGINS.length]!, `s${i}`, i % 3 === 0 ? 'sell' : 'buy'));
      expect(res.status).toBe(200);
    } catch {
      return i;
    }
  }
  return count;
}

describe('power loss', () => {
  it('keeps every acknowledged order when everything after the last sync is lost', async () => {
    const dataDir = tempDir();
    for (let round = 0; round < 3; round++) {
      const server = await start(dataDir, { shards: 2 }, { journal: { lose_unsynced: true, sync_delay_ms: 2 } });
      const load = orderLoad(server, LOGINS, `p${round}-`);
      await untilAcked(load, 40 + round * 25);
      await server.kill();
      await load.done;
      const restarted = await start(dataDir, { shards: 2 });
      await expectAllKept(restarted, load.acked);
      expect(await restarted.stop()).toBe(0);
    }
  }, 120_000);
});

describe('crash between a journal sync and its checkpoint, and during a checkpoint', () => {
  /** The state after `answered` + 1 orders (the last one durable but never answered), and after the same orders in a clean run. */
  async function compare(faults: unknown): Promise<void> {
    const crashed = tempDir();
    const first = await start(crashed, { shards: 1 }, faults);
    const answered = await sequential(first, 2000);
    expect(answered).toBeLessThan(2000);
    await first.kill();
    const restarted = await start(crashed, { shards: 1 });
    expect(await restarted.stop()).toBe(0);

    const clean = tempDir();
    const second = await start(clean, { shards: 1 });
    // The unanswered order may or may not have been durable; the journal says which.
    const replayed = await recoveredState(crashed, 1);
    expect(await sequential(second, answered)).toBe(answered);
    expect(await second.stop()).toBe(0);
    const withoutLast = await recoveredState(clean, 1);
    if (JSON.stringify(replayed) === JSON.stringify(withoutLast)) return;
    const again = await start(clean, { shards: 1 });
    const res = await operatorPost(again, '/console/api/orders', marketOrder(LOGINS[answered % LOGINS.length]!, `s${answered}`, answered % 3 === 0 ? 'sell' : 'buy'));
    expect(res.status).toBe(200);
    expect(await again.stop()).toBe(0);
    expect(replayed).toEqual(await recoveredState(clean, 1));
  }

  it('replays a synced batch whose answers never left to the state of a clean run', async () => {
    // The shard's 30th sync: after the three account upserts, about the 27th order.
    await compare({ journal: { crash_after_sync: 30 } });
  }, 120_000);

  it('recovers from a checkpoint killed midway to the state of a clean run', async () => {
    // Not the first few: start-up's own writes (the fixture's accounts) may take a checkpoint or
    // three on a loaded machine, and a crash there would come before the service is ready.
    await compare({ checkpoint: { crash_during: 6 } });
  }, 120_000);

  it('recovers from a crash between what a checkpoint writes ahead and its record to the state of a clean run', async () => {
    // The tables then hold orders, positions and client ids of records after the checkpoint's LSN,
    // which the replay must neither load as state nor take for duplicates of its own.
    await compare({ checkpoint: { crash_after_ahead: 6 } });
  }, 120_000);
});

describe('a checkpoint that fails', () => {
  /**
   * Opens a position on each account (twice over), restarts so that a checkpoint holds them, then
   * closes them all; with `fullWhile`, every checkpoint fails while that file exists, until one has.
   */
  async function run(dataDir: string, fullWhile?: string): Promise<void> {
    const first = await start(dataDir, { shards: 1 });
    const tickets: [string, number][] = [];
    for (const [i, login] of [...LOGINS, ...LOGINS].entries()) {
      const res = await operatorPost(first, '/console/api/orders', marketOrder(login, `f${i}`));
      expect(res.status).toBe(200);
      tickets.push([login, ((await res.json()) as Acked).ticket]);
    }
    expect(await first.stop()).toBe(0);
    const second = await start(dataDir, { shards: 1 }, fullWhile === undefined ? undefined : { checkpoint: { fail_while: fullWhile } });
    for (const [login, ticket] of tickets) {
      const res = await fetch(`${second.console}/console/api/accounts/${login}/positions/${ticket}`, { method: 'DELETE', headers: { authorization: `Bearer ${second.adminToken}` } });
      expect(res.status).toBe(200);
    }
    if (fullWhile !== undefined) {
      await second.waitForLog((l) => l.msg.startsWith('checkpoint failed'));
      const metrics = await (await fetch(`${second.console}/metrics`, { headers: { authorization: `Bearer ${second.adminToken}` } })).text();
      expect(Number(/^tas_shard_checkpoint_failures_total\{shard="0"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
      fs.rmSync(fullWhile);
    }
    expect(await second.stop()).toBe(0);
  }

  it('leaves orders accepted and /health 200 but degraded, naming the shard, until one is durable again', async () => {
    const dataDir = tempDir();
    const full = path.join(dataDir, 'disk-full');
    const server = await start(dataDir, { shards: 1 }, { checkpoint: { fail_while: full } });
    expect((await health(server)).body).toEqual({ status: 'ok' });
    fs.writeFileSync(full, '');
    const startedMs = Date.now();
    expect((await operatorPost(server, '/console/api/orders', marketOrder('100001', 'c1'))).status).toBe(200);
    await server.waitForLog((l) => l.msg.startsWith('checkpoint failed'));
    // The shard tells the main thread before it answers anything later: this answer comes after.
    expect((await operatorPost(server, '/console/api/orders', marketOrder('100002', 'c2'))).status).toBe(200);
    const degraded = await health(server);
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.checkpoints).toHaveLength(1);
    const [failing] = degraded.body.checkpoints!;
    expect(failing).toMatchObject({ shard: 0, message: expect.stringMatching(/durable in the journal/) });
    expect(failing!.failed_in_a_row).toBeGreaterThanOrEqual(1);
    expect(Date.parse(failing!.since)).toBeGreaterThanOrEqual(startedMs - 1000);

    fs.rmSync(full);
    await server.waitForLog((l) => l.msg === 'checkpoint durable again');
    expect((await operatorPost(server, '/console/api/orders', marketOrder('100003', 'c3'))).status).toBe(200);
    expect(await health(server)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await server.stop()).toBe(0);
  }, 120_000);

  it('is written with the next one: the closes it held survive a restart, as in a clean run', async () => {
    // The closes change positions and accounts a checkpoint held before, which go with the record:
    // dropped with the failed checkpoint, the next record would claim them and the journal let go.
    const full = path.join(tempDir(), 'disk-full');
    fs.writeFileSync(full, '');
    const failing = tempDir();
    await run(failing, full);
    const clean = tempDir();
    await run(clean);
    const state = await recoveredState(failing, 1);
    expect(state).toEqual(await recoveredState(clean, 1));
    expect((state[0] as { positions: unknown[] }).positions).toEqual([]);
  }, 120_000);
});

describe('a full disk and a failing sync', () => {
  it('answers 503 and says so in /health while no journal segment can be made, and recovers once one can', async () => {
    const dataDir = tempDir();
    const flag = path.join(dataDir, 'disk-full');
    const server = await start(dataDir, { shards: 1, journal: { segment_bytes: 65_536, sync_method: 'fdatasync' } }, { journal: { no_space_while: flag } });
    fs.writeFileSync(flag, '');
    const acked = new Map<string, Acked>();
    let refused: { status: number; body: { error: { name: string; message: string } } } | null = null;
    for (let i = 0; refused === null; i++) {
      expect(i).toBeLessThan(5000);
      const res = await operatorPost(server, '/console/api/orders', marketOrder(LOGINS[i % LOGINS.length]!, `f${i}`));
      if (res.status === 200) acked.set(`f${i}`, await res.json() as Acked);
      else refused = { status: res.status, body: await res.json() as { error: { name: string; message: string } } };
    }
    expect(refused.status).toBe(503);
    expect(refused.body.error.name).toBe('unavailable');
    expect(refused.body.error.message).toMatch(/disk of the journal is full/);
    const down = await health(server);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'journal_unavailable', journals: [{ shard: 0, state: 'full' }] });
    await server.waitForLog((l) => l.msg === 'journal unavailable: orders are refused');

    fs.rmSync(flag);
    // The journal tries again on later batches, a few times a second; a refused order changed
    // nothing, so the same order is sent until it goes through.
    let status = 503;
    for (let i = 0; status !== 200; i++) {
      expect(i).toBeLessThan(5000);
      status = (await operatorPost(server, '/console/api/orders', marketOrder('100001', 'after-full'))).status;
      expect([200, 503]).toContain(status);
    }
    await server.waitForLog((l) => l.msg === 'journal available again');
    expect((await health(server)).status).toBe(200);
    await expectAllKept(server, acked);
    expect(await server.stop()).toBe(0);
  }, 120_000);

  it('stops acknowledging for good when a sync fails, and a restart keeps what was acknowledged', async () => {
    const dataDir = tempDir();
    const server = await start(dataDir, { shards: 1 }, { journal: { fail_sync_at: 40 } });
    const acked = new Map<string, Acked>();
    let failed: Response | null = null;
    for (let i = 0; failed === null; i++) {
      const res = await operatorPost(server, '/console/api/orders', marketOrder(LOGINS[i % LOGINS.length]!, `e${i}`));
      if (res.status === 200) acked.set(`e${i}`, await res.json() as Acked);
      else failed = res;
    }
    expect(failed.status).toBe(503);
    expect(((await failed.json()) as { error: { message: string } }).error.message).toMatch(/journal failed/);
    expect((await operatorPost(server, '/console/api/orders', marketOrder('100002', 'later'))).status).toBe(503);
    expect((await health(server)).body).toMatchObject({ status: 'journal_unavailable', journals: [{ shard: 0, state: 'failed' }] });
    await server.kill();
    const restarted = await start(dataDir, { shards: 1 });
    await expectAllKept(restarted, acked);
    expect(await restarted.stop()).toBe(0);
  }, 120_000);
});

describe('a damaged journal', () => {
  async function crashedWithJournal(): Promise<{ dataDir: string; acked: Map<string, Acked>; segment: string }> {
    const dataDir = tempDir();
    const server = await start(dataDir, { shards: 1 });
    const load = orderLoad(server, LOGINS, 't-', 2);
    await untilAcked(load, 30);
    load.stop();
    await load.done;
    await server.kill();
    const dir = path.join(dataDir, 'shard-0', 'journal');
    const used = fs.readdirSync(dir).filter((n) => segmentIndex(n) !== null && fs.readFileSync(path.join(dir, n)).readUInt32LE(0) !== 0).sort();
    return { dataDir, acked: load.acked, segment: path.join(dir, used.at(-1)!) };
  }

  it('drops a torn tail, logs it with its offset, and keeps every acknowledged order', async () => {
    const { dataDir, acked, segment } = await crashedWithJournal();
    const bytes = fs.readFileSync(segment);
    let end = HEADER_BYTES;
    while (bytes.readUInt32LE(end) !== 0) end += RECORD_HEADER_BYTES + bytes.readUInt32LE(end);
    // Half a record after the last one: a write the disk took only in part.
    bytes.writeUInt32LE(400, end);
    bytes.fill(0xab, end + 4, end + 60);
    fs.writeFileSync(segment, bytes);
    const server = await start(dataDir, { shards: 1 });
    const torn = await server.waitForLog((l) => l.msg === 'journal: torn tail dropped (never acknowledged)');
    expect(torn).toMatchObject({ file: segment, offset: end });
    await expectAllKept(server, acked);
    expect(await server.stop()).toBe(0);
  }, 60_000);

  it('refuses to start on a journal of a newer format, naming the file', async () => {
    const { dataDir, segment } = await crashedWithJournal();
    const bytes = fs.readFileSync(segment);
    bytes.writeUInt16LE(7, 4);
    bytes.writeUInt32LE(crc32(bytes.subarray(0, 60)), 60);
    fs.writeFileSync(segment, bytes);
    const run = spawnSync(process.execPath, [MAIN_JS, '--data', dataDir], {
      encoding: 'utf8', timeout: 20_000, env: { ...process.env, TAS_HTTP_PORT: '0', TAS_CONSOLE_PORT: '0', TAS_FIX_PORT: '0', TAS_SHARDS: '1' },
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(`journal segment ${segment} has format version 7`);
  }, 60_000);
});
