// CPU time per kind of thread of a process (Linux /proc), and the bytes it has written to disk: where
// an order's cost goes besides the threads that handle it. The service names its own threads
// (src/base/thread-name.ts); every other thread is V8's (compiler, garbage collection), libuv's pool
// or LMDB's writer.
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

export interface ThreadCpu {
  readonly mainMs: number;
  readonly shardsMs: number;
  readonly fixMs: number;
  /** V8's, libuv's and LMDB's threads. */
  readonly otherMs: number;
  /** Bytes the process has had written to storage (its page cache writeback included). */
  readonly writtenBytes: number;
}

/** The process's threads' CPU so far, by kind; a thread that has exited no longer counts. */
export function threadCpu(pid: number = process.pid): ThreadCpu {
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
  const written = /write_bytes: (\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'));
  return { mainMs, shardsMs, fixMs, otherMs, writtenBytes: Number(written?.[1] ?? 0) };
}

/** Per order between two readings: `main 5.1 · shards 15.3 · other threads 14.2 µs CPU; 12.3 KB written`. */
export function perOrderNote(before: ThreadCpu, after: ThreadCpu, orders: number): string {
  const us = (ms: number): string => (ms * 1000 / orders).toFixed(1);
  const kb = ((after.writtenBytes - before.writtenBytes) / orders / 1000).toFixed(1);
  return `CPU an order: main ${us(after.mainMs - before.mainMs)}, shards ${us(after.shardsMs - before.shardsMs)}, other threads (GC, LMDB) ${us(after.otherMs - before.otherMs)} µs; ${kb} KB written an order`;
}
