// Rings across real threads, on the compiled code (build first: npx tsc -p tsconfig.json).
// Frames carry a sequence number and a checksum (fixtures/checksummed.mjs), so the consumer
// detects any lost, reordered, duplicated or torn frame.
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameWriter, createDoorbell, createRing, doorbellState, type RingChannel } from '../../dist/src/ring/index.js';

const fixture = (name: string): URL => new URL(`./fixtures/${name}`, import.meta.url);

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

/** Starts a fixture worker and resolves with the one message it posts when done. */
function run<T>(name: string, workerData: unknown): Promise<T> {
  const worker = new Worker(fixture(name), { workerData });
  workers.push(worker);
  return new Promise<T>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${name} exited (${code}) before reporting`)));
  });
}

interface ProducerReport { readonly written: number; readonly fullReturns: number }
interface ConsumerReport { readonly received: number[]; readonly errors: string[] }

function produce(channel: RingChannel, frames: number, seed: number, options: { minBytes?: number; maxBytes?: number; burst?: number; pauseMs?: number; afterPark?: boolean } = {}): Promise<ProducerReport> {
  return run<ProducerReport>('producer.mjs', { channel, frames, seed, minBytes: 8, maxBytes: 300, ...options });
}

function consume(channels: RingChannel[], framesPerRing: number[], slow = false): Promise<ConsumerReport> {
  return run<ConsumerReport>('consumer.mjs', { channels, framesPerRing, slow });
}

describe('rings across threads', () => {
  it('delivers two million frames of random sizes in order, none torn', async () => {
    const frames = 2_000_000;
    const channel = createRing(1 << 16, createDoorbell());
    const [produced, consumed] = await Promise.all([produce(channel, frames, 1), consume([channel], [frames])]);
    expect(consumed.errors).toEqual([]);
    expect(consumed.received).toEqual([frames]);
    expect(produced.written).toBe(frames);
  });

  it('wraps at every offset of a small ring under concurrency (largest frames included)', async () => {
    const frames = 30_000;
    // 256 B ring: frames of 8..124 B (its largest) wrap at every 4-aligned offset over the run.
    const channel = createRing(256, createDoorbell());
    const [, consumed] = await Promise.all([
      produce(channel, frames, 2, { minBytes: 8, maxBytes: 124 }),
      consume([channel], [frames]),
    ]);
    expect(consumed.errors).toEqual([]);
    expect(consumed.received).toEqual([frames]);
  });

  it('a full ring says so (false), loses nothing, and takes the frame once the consumer catches up', async () => {
    const frames = 5_000;
    const channel = createRing(1024, createDoorbell());
    const [produced, consumed] = await Promise.all([produce(channel, frames, 3), consume([channel], [frames], true)]);
    expect(produced.fullReturns).toBeGreaterThan(0);
    expect(consumed.errors).toEqual([]);
    expect(consumed.received).toEqual([frames]);
  });

  it('many producers, each with its own ring, into one consumer: the shared doorbell wakes it for any of them', async () => {
    const bell = createDoorbell();
    const channels = [0, 1, 2].map(() => createRing(4096, bell));
    const counts = [300, 200, 100];
    // Bursts with pauses between them, so the consumer parks and each producer has to wake it.
    const pauses = [3, 5, 7];
    const [consumed] = await Promise.all([
      consume(channels, counts),
      ...channels.map((channel, i) => produce(channel, counts[i] ?? 0, 10 + i, { burst: 10, pauseMs: pauses[i] ?? 0 })),
    ]);
    expect(consumed.errors).toEqual([]);
    expect(consumed.received).toEqual(counts);
    const state = doorbellState(bell);
    expect(state.parks).toBeGreaterThan(10);
    expect(state.rings).toBeGreaterThanOrEqual(state.parks);
  });

  it('a consumer that sleeps is woken by the next frame, and its thread stays alive while it sleeps', async () => {
    const bell = createDoorbell();
    const channel = createRing(4096, bell);
    const frames = 20;
    // Each frame after the first is written only once the consumer (whose only live handle is its
    // Inbox) has parked again, however the threads are scheduled.
    const [consumed] = await Promise.all([
      consume([channel], [frames]),
      produce(channel, frames, 4, { afterPark: true }),
    ]);
    expect(consumed.errors).toEqual([]);
    expect(consumed.received).toEqual([frames]);
    // Every frame after the first found it parked, and each such wake delivered it.
    expect(doorbellState(bell).parks).toBeGreaterThanOrEqual(frames - 1);
  });

  it('carries msgpackr frames of any shape to another thread, through a ring small enough to fill', async () => {
    // msgpackr renames a "__proto__" key when decoding (its prototype-pollution guard); protocol
    // frames have fixed keys, so such values are left out.
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)).filter((text) => !text.includes('"__proto__"'));
    const values = fc.sample(json.map((text) => JSON.parse(text) as unknown), { numRuns: 3_000, seed: 42 });
    const channel = createRing(4096, createDoorbell());
    const echoed = run<unknown[]>('frame-echo.mjs', { channel, count: values.length });
    const writer = new FrameWriter<unknown>(channel);
    let fullReturns = 0;
    for (const value of values) {
      while (!writer.tryWrite(value)) {
        fullReturns++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    expect(await echoed).toEqual(values);
    expect(fullReturns).toBeGreaterThan(0);
  });
});
