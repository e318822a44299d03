// Names the calling thread for the operating system, so `top -H`, `ps -L`, perf and the benches
// (bench/support/thread-cpu.ts) tell a shard from the FIX thread and from V8's and libuv's own
// threads: Node leaves every thread of the process named `node`. Linux takes a thread's name from
// /proc/thread-self/comm, at most 15 bytes; elsewhere there is no such file and nothing happens.
import fs from 'node:fs';

const MAX_NAME_BYTES = 15;

export function nameThread(name: string): void {
  try {
    fs.writeFileSync('/proc/thread-self/comm', name.slice(0, MAX_NAME_BYTES));
  } catch {
    // Not Linux (or /proc not mounted): the name only helps people and tools read the threads.
  }
}
