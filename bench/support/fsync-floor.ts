// The physical floor of an acknowledged order: one fdatasync of a small write on the data volume.
// Benches that ack orders measure it in the same run and report their latency beside it.
import fs from 'node:fs';
import path from 'node:path';
import { percentile } from './stats.js';

export interface FsyncFloor { readonly p50Us: number; readonly p99Us: number }

/**
 * Back to back (`ratePerSec` omitted), or one sync every 1/ratePerSec s with the thread asleep in
 * between, as a shard is at that rate. On this 2-core VM a sync that follows an idle gap costs
 * more than one right behind another (about 2x after 2 ms, 4-5x after 50 ms, in a probe), so an
 * order path at a fixed rate is compared with the floor at its rate.
 */
export function measureFsyncFloor(dir: string, iterations = 2000, ratePerSec?: number): FsyncFloor {
  const gapMs = ratePerSec === undefined ? 0 : 1000 / ratePerSec;
  const asleep = new Int32Array(new SharedArrayBuffer(4));
  const file = path.join(dir, 'fsync-floor.probe');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(128, 7);
  const samples: number[] = [];
  try {
    for (let i = 0; i < iterations; i++) {
      if (gapMs > 0) Atomics.wait(asleep, 0, 0, gapMs);
      fs.writeSync(fd, block, 0, block.length, (i % 64) * block.length);
      const t0 = process.hrtime.bigint();
      fs.fdatasyncSync(fd);
      samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
  return { p50Us: percentile(samples, 0.5), p99Us: percentile(samples, 0.99) };
}
