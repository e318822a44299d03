// CPU time per kind of thread of a process (Linux /proc), and the bytes the disk under a directory
// wrote: where an order's cost goes besides the threads that handle it. The service names its own
// threads (src/base/thread-name.ts); every other thread is V8's (compiler, garbage collection),
// libuv's pool or LMDB's writer. The disk's own count (/proc/diskstats), not the process's
// write_bytes: that counts a page each time it is dirtied, and LMDB rewrites the same pages from
// commit to commit (write_bytes said 113-173 KB an order through REST where the disk wrote 7-13).
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const CLOCK_TICKS_PER_SEC = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** user + system ms of one /proc stat file (a process's or one thread's). */
export function cpuMsOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 1000 / CLOCK_TICKS_PER_SEC;
}

export interface Usage {
  readonly mainMs: number;
  readonly shardsMs: number;
  readonly fixMs: number;
  /** V8's, libuv's and LMDB's threads. */
  readonly otherMs: number;
  /** Bytes the disk holding the directory has written, for every process. */
  readonly diskBytes: number;
}

/** Sectors (512 B) the block device holding `dir` has written since boot. */
function diskWrittenBytes(dir: string): number {
  const dev = fs.statSync(dir).dev;
  const major = (dev >> 8) & 0xfff;
  const minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  for (const line of fs.readFileSync('/proc/diskstats', 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (Number(f[0]) === major && Number(f[1]) === minor) return Number(f[9]) * 512;
  }
  return Number.NaN;
}

/** The process's threads' CPU so far, by kind (a thread that has exited no longer counts), and the disk's writes. */
export function usage(dir: string, pid: number = process.pid): Usage {
  let mainMs = 0;
  let shardsMs = 0;
  let fixMs = 0;
  let otherMs = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let name: string;
    let ms: number;
    try {
      name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      ms = cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      continue;
    }
    if (tid === String(pid)) mainMs += ms;
    else if (name.startsWith('tas-shard-')) shardsMs += ms;
    else if (name === 'tas-fix') fixMs += ms;
    else otherMs += ms;
  }
  return { mainMs, shardsMs, fixMs, otherMs, diskBytes: diskWrittenBytes(dir) };
}

/** Per order between two readings: `CPU an order: main 5.1, shards 15.3, other threads 14.2 µs; the disk wrote 6.2 KB an order`. */
export function perOrderNote(before: Usage, after: Usage, orders: number): string {
  const us = (ms: number): string => (ms * 1000 / orders).toFixed(1);
  const kb = ((after.diskBytes - before.diskBytes) / orders / 1000).toFixed(1);
  const fixMs = after.fixMs - before.fixMs;
  const fix = fixMs > 0 ? `, FIX ${us(fixMs)}` : '';
  return `CPU an order: main ${us(after.mainMs - before.mainMs)}, shards ${us(after.shardsMs - before.shardsMs)}${fix}, other threads (GC, LMDB) ${us(after.otherMs - before.otherMs)} µs; the disk wrote ${kb} KB an order`;
}
