// The physical floor of an acknowledged order: one fdatasync of a small write on the data volume.
// Benches that ack orders measure it in the same run and report their latency beside it.
import fs from 'node:fs';
import path from 'node:path';
import { percentile } from './stats.js';

export interface FsyncFloor { readonly p50Us: number; readonly p99Us: number }

export function measureFsyncFloor(dir: string, iterations = 2000): FsyncFloor {
  const file = path.join(dir, 'fsync-floor.probe');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(128, 7);
  const samples: number[] = [];
  try {
    for (let i = 0; i < iterations; i++) {
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
