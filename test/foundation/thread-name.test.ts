// Threads the service starts carry their names for the operating system (top -H, ps -L, perf and the
// benches' CPU per kind of thread), where Node leaves every thread named `node`.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

// The compiled module: a worker thread runs plain JavaScript (make test builds dist/ first).
const MODULE = new URL('../../dist/src/base/thread-name.js', import.meta.url).href;
// The worker stays alive (a listener on its port) until terminated: a thread's /proc/self/task
// entry goes when the thread ends.
const WORKER = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(workerData).then(({ nameThread }) => {
    nameThread('tas-shard-12345678-too-long');
    parentPort.on('message', () => undefined);
    parentPort.postMessage(require('node:fs').readlinkSync('/proc/thread-self').split('/').at(-1));
  });
`;

describe('nameThread', () => {
  it('names the calling thread only, cut to the 15 bytes Linux keeps', async () => {
    const worker = new Worker(WORKER, { eval: true, workerData: MODULE });
    const tid = await new Promise<string>((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
    try {
      expect(fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()).toBe('tas-shard-12345');
      expect(fs.readFileSync(`/proc/self/task/${process.pid}/comm`, 'utf8').trim()).not.toMatch(/^tas-/);
    } finally {
      await worker.terminate();
    }
  });
});
