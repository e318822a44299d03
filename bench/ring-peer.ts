// The worker side of bench/ring.bench.ts (run from dist/bench/ring-peer.js), plus the helpers both
// sides share: the cross-thread clock, the 64 B raw frame and the tick frame.
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { FrameReader, FrameWriter, Inbox, RingReader, RingWriter, type RingChannel } from '../src/ring/index.js';
import type { ShardInbound } from '../src/shard/protocol.js';

/**
 * Microseconds on a clock all threads share. performance.now() counts from each thread's own
 * origin, but every origin is a reading of the same monotonic clock (uv_hrtime, which
 * process.hrtime also reads), so hrtime - performance.now() is a per-thread constant; it is
 * sampled once, from the tightest of a few readings.
 */
export function sharedClockUs(): () => number {
  let offsetMs = 0;
  let bestSpreadMs = Infinity;
  for (let i = 0; i < 50; i++) {
    const before = performance.now();
    const hrMs = Number(process.hrtime.bigint()) / 1e6;
    const after = performance.now();
    if (after - before < bestSpreadMs) {
      bestSpreadMs = after - before;
      offsetMs = hrMs - (before + after) / 2;
    }
  }
  return () => (performance.now() + offsetMs) * 1000;
}

export const RAW_FRAME_BYTES = 64;

/** A protocol tick frame; ts carries the send time (µs, shared clock) in the latency runs. */
export function tickFrame(bidTicks: number, ts: number): ShardInbound & { t: 'tick' } {
  return { t: 'tick', quote: { symbol: 'EURUSD', bid: bidTicks, ask: bidTicks + 2, ts } };
}

export type PeerTask =
  | { readonly role: 'sink-raw' | 'sink-frames'; readonly input: RingChannel; readonly frames: number }
  | { readonly role: 'sink-post'; readonly frames: number }
  | { readonly role: 'echo-raw-polling' | 'echo-frames-polling'; readonly input: RingChannel; readonly output: RingChannel; readonly rounds: number }
  | { readonly role: 'echo-frames-inbox'; readonly input: RingChannel; readonly output: RingChannel; readonly rounds: number; readonly spinMicros: number }
  | { readonly role: 'echo-post'; readonly rounds: number }
  | { readonly role: 'idle'; readonly strategy: IdleStrategy; readonly input: RingChannel | null; readonly frames: number };

export type IdleStrategy = 'waitAsync' | 'spin-then-yield' | 'spin-then-setImmediate' | 'postMessage';

export interface IdleReport {
  readonly hopUs: number[];
  readonly timerLateUs: number[];
  readonly elu: number;
}

const DRAIN_BATCH = 1024;
const SPIN_MS = 0.02;
const IMMEDIATE_PHASE_MS = 1;
const PROBE_PERIOD_MS = 1;

function spinUntilReadable(reader: { readonly readable: boolean }, forMs: number): boolean {
  const deadline = performance.now() + forMs;
  for (let polls = 0; ; polls++) {
    if (reader.readable) return true;
    if (polls % 16 === 0 && performance.now() >= deadline) return false;
  }
}

async function sinkRaw(input: RingChannel, frames: number, port: MessagePort): Promise<void> {
  const reader = new RingReader(input);
  const inbox = new Inbox([input]);
  let seen = 0;
  let bad = 0;
  port.postMessage('ready');
  while (seen < frames) {
    const n = reader.drain(DRAIN_BATCH, (view) => {
      if (view.length !== RAW_FRAME_BYTES || view[0] !== (seen & 0xff)) bad++;
      seen++;
    });
    if (n === 0) await inbox.whenReadable();
  }
  inbox.close();
  port.postMessage({ seen, bad });
}

async function sinkFrames(input: RingChannel, frames: number, port: MessagePort): Promise<void> {
  const reader = new FrameReader<ShardInbound>(input);
  const inbox = new Inbox([input]);
  let seen = 0;
  let bad = 0;
  port.postMessage('ready');
  while (seen < frames) {
    const n = reader.drain(DRAIN_BATCH, (frame) => {
      if (frame.t !== 'tick' || frame.quote.bid !== seen) bad++;
      seen++;
    });
    if (n === 0) await inbox.whenReadable();
  }
  inbox.close();
  port.postMessage({ seen, bad });
}

function sinkPost(frames: number, port: MessagePort): void {
  let seen = 0;
  let bad = 0;
  port.on('message', (frame: ShardInbound) => {
    if (frame.t !== 'tick' || frame.quote.bid !== seen) bad++;
    if (++seen === frames) {
      port.postMessage({ seen, bad });
    }
  });
  port.postMessage('ready');
}

/** Echo with both threads busy-polling (bench only: it blocks the loop). Reports leg-1 hops. */
function echoRawPolling(input: RingChannel, output: RingChannel, rounds: number, port: MessagePort): void {
  const reader = new RingReader(input);
  const writer = new RingWriter(output);
  const now = sharedClockUs();
  const reply = new Uint8Array(RAW_FRAME_BYTES);
  const replyView = new DataView(reply.buffer);
  const ringView = new DataView(reader.data.buffer, reader.data.byteOffset, reader.data.byteLength);
  const hops = new Float64Array(rounds);
  port.postMessage('ready');
  for (let round = 0; round < rounds;) {
    reader.drainInPlace(1, (_, start) => {
      hops[round++] = now() - ringView.getFloat64(start, true);
      replyView.setFloat64(0, now(), true);
      while (!writer.tryWrite(reply));
    });
  }
  port.postMessage(Array.from(hops));
}

function echoFramesPolling(input: RingChannel, output: RingChannel, rounds: number, port: MessagePort): void {
  const reader = new FrameReader<ShardInbound>(input);
  const writer = new FrameWriter<ShardInbound>(output);
  const now = sharedClockUs();
  const hops: number[] = [];
  port.postMessage('ready');
  while (hops.length < rounds) {
    reader.drain(1, (frame) => {
      if (frame.t !== 'tick') throw new Error('echo expects ticks');
      hops.push(now() - frame.quote.ts);
      while (!writer.tryWrite(tickFrame(frame.quote.bid, now())));
    });
  }
  port.postMessage(hops);
}

async function echoFramesInbox(input: RingChannel, output: RingChannel, rounds: number, spinMicros: number, port: MessagePort): Promise<void> {
  const reader = new FrameReader<ShardInbound>(input);
  const writer = new FrameWriter<ShardInbound>(output);
  const inbox = new Inbox([input], { spinMicros });
  const now = sharedClockUs();
  const hops: number[] = [];
  port.postMessage('ready');
  while (hops.length < rounds) {
    const n = reader.drain(DRAIN_BATCH, (frame) => {
      if (frame.t !== 'tick') throw new Error('echo expects ticks');
      hops.push(now() - frame.quote.ts);
      if (!writer.tryWrite(tickFrame(frame.quote.bid, now()))) throw new Error('echo ring full in a ping-pong');
    });
    if (n === 0) await inbox.whenReadable();
  }
  inbox.close();
  port.postMessage(hops);
}

function echoPost(rounds: number, port: MessagePort): void {
  const now = sharedClockUs();
  const hops: number[] = [];
  port.on('message', (frame: ShardInbound) => {
    if (frame.t !== 'tick') throw new Error('echo expects ticks');
    hops.push(now() - frame.quote.ts);
    port.postMessage(tickFrame(frame.quote.bid, now()));
    if (hops.length === rounds) {
      port.postMessage(hops);
    }
  });
  port.postMessage('ready');
}

/**
 * A consumer idle between frames that arrive every few ms. It records each frame's one-way hop
 * and, as the cost to its event loop, the lateness of a 1 ms timer running meanwhile and the
 * event-loop utilisation (1 = the loop never idles).
 */
async function idleConsumer(strategy: IdleStrategy, input: RingChannel | null, frames: number, port: MessagePort): Promise<void> {
  const now = sharedClockUs();
  const hopUs: number[] = [];
  const timerLateUs: number[] = [];
  let probeDue = performance.now() + PROBE_PERIOD_MS;
  let probing = true;
  const probe = (): void => {
    timerLateUs.push((performance.now() - probeDue) * 1000);
    probeDue = performance.now() + PROBE_PERIOD_MS;
    if (probing) setTimeout(probe, PROBE_PERIOD_MS);
  };
  setTimeout(probe, PROBE_PERIOD_MS);
  const eluStart = performance.eventLoopUtilization();
  const onFrame = (frame: ShardInbound): void => {
    if (frame.t !== 'tick') throw new Error('idle consumer expects ticks');
    hopUs.push(now() - frame.quote.ts);
  };
  if (strategy === 'postMessage') {
    await new Promise<void>((resolve) => {
      port.on('message', (frame: ShardInbound) => {
        onFrame(frame);
        if (hopUs.length === frames) resolve();
      });
      port.postMessage('ready');
    });
  } else {
    if (input === null) throw new Error(`${strategy} needs a ring`);
    const reader = new FrameReader<ShardInbound>(input);
    const inbox = strategy === 'waitAsync' ? new Inbox([input]) : null;
    port.postMessage('ready');
    while (hopUs.length < frames) {
      if (reader.drain(DRAIN_BATCH, onFrame) > 0) continue;
      if (inbox !== null) await inbox.whenReadable();
      else await yieldUntilReadable(reader, strategy === 'spin-then-yield');
    }
    inbox?.close();
  }
  const elu = performance.eventLoopUtilization(eluStart).utilization;
  probing = false;
  const report: IdleReport = { hopUs, timerLateUs, elu };
  port.postMessage(report);
}

/**
 * The baseline wake strategy: poll for 20 µs, then poll once per event-loop turn
 * (setImmediate); with backoff, after 1 ms of that, once per setTimeout(0) (about 1 ms).
 */
async function yieldUntilReadable(reader: FrameReader<ShardInbound>, backoff: boolean): Promise<void> {
  if (spinUntilReadable(reader, SPIN_MS)) return;
  const immediateUntil = performance.now() + IMMEDIATE_PHASE_MS;
  while (!reader.readable) {
    if (!backoff || performance.now() < immediateUntil) await new Promise((resolve) => setImmediate(resolve));
    else await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

async function runPeer(task: PeerTask, port: MessagePort): Promise<void> {
  switch (task.role) {
    case 'sink-raw': return sinkRaw(task.input, task.frames, port);
    case 'sink-frames': return sinkFrames(task.input, task.frames, port);
    case 'sink-post': return sinkPost(task.frames, port);
    case 'echo-raw-polling': return echoRawPolling(task.input, task.output, task.rounds, port);
    case 'echo-frames-polling': return echoFramesPolling(task.input, task.output, task.rounds, port);
    case 'echo-frames-inbox': return echoFramesInbox(task.input, task.output, task.rounds, task.spinMicros, port);
    case 'echo-post': return echoPost(task.rounds, port);
    case 'idle': return idleConsumer(task.strategy, task.input, task.frames, port);
  }
}

if (!isMainThread && parentPort !== null) {
  void runPeer(workerData as PeerTask, parentPort);
}
