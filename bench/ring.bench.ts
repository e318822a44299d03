/**
 * SPSC ring benchmarks, all in one run and next to postMessage in the same run.
 *   npx tsc -p tsconfig.json && node dist/bench/ring.bench.js
 *
 * benchRing() resolves to rows { name, median, p99, throughput }:
 *   median, p99   latency in microseconds, or null when the row measures only throughput;
 *   throughput    per second (frames/s, ops/s), or null when the row measures only latency.
 * Hop latencies are ONE-WAY, measured with a clock all threads share (see sharedClockUs in
 * ring-peer.ts): the sender stamps the frame, the receiver subtracts the stamp on arrival.
 *
 * Threads: the machine has 2 cores, so every run uses the main thread plus ONE worker.
 *   codec       single thread: msgpackr encode/decode of a protocol tick frame, per codec
 *               choice; per op, timed in batches of 64 ops (tinybench). And a shard's batch
 *               frame through a ring and back (write + drain), as msgpackr records against the
 *               wire form the shards use (shard/batch-wire.ts: events as one event-codec block):
 *               512 market-order replies, and a kill switch closing 10,000 positions.
 *   throughput  main produces N frames as fast as the sink worker (an Inbox consumer) takes
 *               them; ring and postMessage runs alternate, 3 each, and the median run counts.
 *   hop         ping-pong main <-> echo worker, one frame in flight; both legs pooled; the
 *               first tenth of each run (JIT warm-up) is dropped.
 *   wake        main sends one tick every 2 ms to a worker that idles in between, per wake
 *               strategy; the worker also runs a 1 ms timer and reports its lateness and the
 *               event-loop utilisation (ELU, 1 = the loop never idles) as its cost, and main
 *               times its own send call (the ring's includes Atomics.notify when it rings).
 * Run directly, it also prints the ratios to the goals and the load average: other processes
 * on a 2-core box move every row, the throughput rows most.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Packr, Unpackr, RESET_BUFFER_MODE, REUSE_BUFFER_MODE } from 'msgpackr';
import { Bench } from 'tinybench';
import { FrameReader, FrameWriter, Inbox, RingReader, RingWriter, createDoorbell, createRing, type RingChannel } from '../src/ring/index.js';
import { copyBytes } from '../src/ring/copy-bytes.js';
import { Engine } from '../src/engine/engine.js';
import type { AccountRecord, Command, Outcome } from '../src/engine/types.js';
import { fromWire, toWire, type WireOutbound } from '../src/shard/batch-wire.js';
import type { OutItem, ShardInbound, ShardOutbound } from '../src/shard/protocol.js';
import { percentile } from './support/stats.js';
import { RAW_FRAME_BYTES, sharedClockUs, tickFrame, type IdleReport, type IdleStrategy, type PeerTask } from './ring-peer.js';

export interface Row {
  readonly name: string;
  readonly median: number | null;
  readonly p99: number | null;
  readonly throughput: number | null;
}

const RING_BYTES = 1 << 18;
const THROUGHPUT_REPEATS = 3;
const RAW_FRAMES = 2_000_000;
const TICK_FRAMES = 1_000_000;
const POST_FRAMES = 300_000;
const HOP_ROUNDS = { rawPolling: 200_000, framesPolling: 100_000, framesInbox: 50_000, framesInboxNoSpin: 10_000, post: 20_000 } as const;
const WAKE_FRAMES = 500;
const WAKE_INTERVAL_MS = 2;
const CODEC_BATCH = 64;

interface Peer {
  readonly worker: Worker;
  /** The next message the peer posts. */
  next<T>(): Promise<T>;
  stop(): Promise<void>;
}

async function startPeer(task: PeerTask): Promise<Peer> {
  const worker = new Worker(new URL('./ring-peer.js', import.meta.url), { workerData: task });
  const queued: unknown[] = [];
  const waiting: ((message: unknown) => void)[] = [];
  worker.on('message', (message: unknown) => {
    const take = waiting.shift();
    if (take) take(message);
    else queued.push(message);
  });
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`ring peer ${task.role} exited with ${code}`)));
  });
  failed.catch(() => undefined);
  const peer: Peer = {
    worker,
    next: <T>() => Promise.race([
      queued.length > 0 ? Promise.resolve(queued.shift() as T) : new Promise<T>((resolve) => waiting.push(resolve as (m: unknown) => void)),
      failed,
    ]),
    stop: async () => { worker.removeAllListeners('exit'); await worker.terminate(); },
  };
  await peer.next<'ready'>();
  return peer;
}

function latencyRow(name: string, samplesUs: readonly number[]): Row {
  return { name, median: percentile(samplesUs, 0.5), p99: percentile(samplesUs, 0.99), throughput: null };
}

const median = (values: readonly number[]): number => percentile(values, 0.5);

function newChannel(): RingChannel {
  return createRing(RING_BYTES, createDoorbell());
}

// ---------------------------------------------------------------------------------------- codec

async function codecRows(): Promise<Row[]> {
  const tick = tickFrame(108_123, 1_700_000_000_000);
  const flags = REUSE_BUFFER_MODE | RESET_BUFFER_MODE;
  const mapsPackr = new Packr({ useRecords: false });
  const sequentialPackr = new Packr({ sequential: true });
  const encodedMaps = Buffer.from(mapsPackr.pack(tick));
  const encodedInline = Buffer.from(new Packr().pack(tick));
  const sequentialUnpackr = new Unpackr({ sequential: true });
  sequentialUnpackr.unpack(Buffer.from(sequentialPackr.pack(tick))); // the first frame carries the shapes
  const encodedSequential = Buffer.from(sequentialPackr.pack(tick));
  const mapsUnpackr = new Unpackr({ useRecords: false });
  const inlineUnpackr = new Unpackr();

  // The same sequential frame sitting in a ring's DATA region, decoded three ways.
  const ring = new Uint8Array(new SharedArrayBuffer(RING_BYTES), 0, RING_BYTES);
  const at = RING_BYTES / 2 + 4;
  ring.set(encodedSequential, at);
  const end = at + encodedSequential.length;
  const ringBuffer = Buffer.from(ring.buffer, ring.byteOffset, ring.byteLength);
  const copy = Buffer.allocUnsafeSlow(4096);
  const bounds = { start: at, end };
  const primed = (): Unpackr => {
    const unpackr = new Unpackr({ sequential: true });
    unpackr.unpack(Buffer.from(new Packr({ sequential: true }).pack(tick)));
    return unpackr;
  };
  const viaCopy = primed();
  const viaView = primed();
  const viaRegion = primed();

  const tasks: Record<string, () => void> = {
    [`codec tick encode: msgpack maps (${encodedMaps.length} B)`]: () => { mapsPackr.pack(tick, flags); },
    [`codec tick encode: records, sequential (${encodedSequential.length} B)`]: () => { sequentialPackr.pack(tick, flags); },
    [`codec tick decode: msgpack maps (${encodedMaps.length} B)`]: () => { mapsUnpackr.unpack(encodedMaps); },
    [`codec tick decode: records inline per frame (${encodedInline.length} B)`]: () => { inlineUnpackr.unpack(encodedInline); },
    [`codec tick decode: records, sequential (${encodedSequential.length} B)`]: () => { sequentialUnpackr.unpack(encodedSequential); },
    'codec tick decode from ring: copy out, then decode (FrameReader)': () => {
      copyBytes(ring, at, copy, 0, end - at);
      viaCopy.unpack(copy, end - at);
    },
    'codec tick decode from ring: in place, view per frame': () => { viaView.unpack(ring.subarray(at, end)); },
    'codec tick decode from ring: in place, ring region + bounds': () => { viaRegion.unpack(ringBuffer, bounds); },
  };
  const bench = new Bench({ time: 400, warmupTime: 100 });
  for (const [name, op] of Object.entries(tasks)) {
    bench.add(name, () => { for (let i = 0; i < CODEC_BATCH; i++) op(); });
  }
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    // Per op, from batches of CODEC_BATCH ops (tinybench times in ms).
    const perOpUs = (ms: number): number => (ms * 1000) / CODEC_BATCH;
    return {
      name: task.name,
      median: perOpUs(result.latency.p50),
      p99: perOpUs(result.latency.p99),
      throughput: result.throughput.mean * CODEC_BATCH,
    };
  });
}

/** A market-order batch and a kill-switch batch, as a shard's engine makes them. */
function shardBatches(): { readonly places: ShardOutbound; readonly kill: ShardOutbound } {
  const startMs = 1_700_000_000_000;
  const accounts: AccountRecord[] = Array.from({ length: 1000 }, (_, i) => ({
    login: String(700_000 + i), user: 'bench', type: 'demo', group: 'demo', currency: 'USD', leverage: 100, server: 'Demo-1',
    balance: 100_000_000, margin: 0, seq: 0, accountHalted: false, userHalted: false,
  }));
  const engine = new Engine({
    shardId: 0, idCounter: 0, accounts, pendingOrders: [], positions: [], clientIds: [], haltedKeys: [], clientIdRetentionMs: 86_400_000,
    symbols: [{ name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7' }],
    quotes: [{ symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: startMs }],
  });
  let n = 0;
  const buy = (login: string): Command => ({
    kind: 'place', login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 1, sizing: null, price: null, sl: null, tp: null,
    clientId: `c-${n++}`, source: 'webhook', keyId: null, webhookId: 'hook-1',
  });
  const reply = (corr: number, o: Outcome): OutItem => {
    if (!o.result.ok) throw new Error(`bench command refused: ${o.result.message}`);
    return { k: 'reply', corr, answer: { t: 'done', result: o.result }, events: o.events };
  };
  const placed = accounts.slice(0, 512).map((a, i) => reply(i, engine.apply(buy(a.login), startMs)));
  for (let round = 0; round < 10; round++) for (const a of accounts) engine.apply(buy(a.login), startMs);
  const killed = accounts.map((a, i) => reply(i, engine.apply({ kind: 'killSwitch', login: a.login, scope: 'user', active: true }, startMs)));
  return {
    places: { t: 'batch', shard: 0, lsn: 1, accounts: accounts.slice(0, 512), items: placed },
    kill: { t: 'batch', shard: 0, lsn: 2, accounts: [], items: killed },
  };
}

/** Write + drain of one batch frame through a ring, as msgpackr records and in the wire form. */
async function batchCodecRows(): Promise<Row[]> {
  const { places, kill } = shardBatches();
  const asRecords = (): (frame: ShardOutbound) => void => {
    const channel = createRing(1 << 24, createDoorbell());
    const writer = new FrameWriter<ShardOutbound>(channel);
    const reader = new FrameReader<ShardOutbound>(channel);
    return (frame) => {
      if (!writer.tryWrite(frame)) throw new Error('bench ring full');
      reader.drain(1, () => undefined);
    };
  };
  const asWire = (): (frame: ShardOutbound) => void => {
    const channel = createRing(1 << 24, createDoorbell());
    const writer = new FrameWriter<WireOutbound>(channel);
    const reader = new FrameReader<WireOutbound>(channel);
    return (frame) => {
      if (!writer.tryWrite(toWire(frame))) throw new Error('bench ring full');
      reader.drain(1, (f) => { fromWire(f); });
    };
  };
  const tasks: Record<string, () => void> = {};
  for (const [what, frame] of [['512 market-order replies', places], ['kill switch, 10,000 closes', kill]] as const) {
    const records = asRecords();
    const wire = asWire();
    tasks[`batch frame write + drain, ${what}: msgpackr records`] = () => { records(frame); };
    tasks[`batch frame write + drain, ${what}: wire form (event block)`] = () => { wire(frame); };
  }
  const bench = new Bench({ time: 1000, warmupTime: 300 });
  for (const [name, op] of Object.entries(tasks)) bench.add(name, op);
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    return { name: task.name, median: result.latency.p50 * 1000, p99: result.latency.p99 * 1000, throughput: null };
  });
}

// ----------------------------------------------------------------------------------- throughput

const pause = new Int32Array(new SharedArrayBuffer(4));
/**
 * A producer facing a full ring retries at once a few times, then pauses 20 µs per retry,
 * which frees its core for the consumer when other processes compete for the 2 cores.
 * (Bench only: it blocks the main thread, which serves nothing here.)
 */
function backOff(tries: number): void {
  if (tries > 64) Atomics.wait(pause, 0, 0, 0.02);
}

async function ringRawThroughput(): Promise<number> {
  const input = newChannel();
  const peer = await startPeer({ role: 'sink-raw', input, frames: RAW_FRAMES });
  const writer = new RingWriter(input);
  const payload = new Uint8Array(RAW_FRAME_BYTES);
  const started = performance.now();
  for (let i = 0; i < RAW_FRAMES; i++) {
    payload[0] = i & 0xff;
    for (let tries = 1; !writer.tryWrite(payload); tries++) backOff(tries);
  }
  const done = await peer.next<{ seen: number; bad: number }>();
  const seconds = (performance.now() - started) / 1000;
  await peer.stop();
  if (done.bad !== 0) throw new Error(`raw sink saw ${done.bad} bad frames`);
  return RAW_FRAMES / seconds;
}

async function ringTickThroughput(): Promise<number> {
  const input = newChannel();
  const peer = await startPeer({ role: 'sink-frames', input, frames: TICK_FRAMES });
  const writer = new FrameWriter<ShardInbound>(input);
  const started = performance.now();
  for (let i = 0; i < TICK_FRAMES; i++) {
    const frame = tickFrame(i, 1_700_000_000_000);
    for (let tries = 1; !writer.tryWrite(frame); tries++) backOff(tries);
  }
  const done = await peer.next<{ seen: number; bad: number }>();
  const seconds = (performance.now() - started) / 1000;
  await peer.stop();
  if (done.bad !== 0) throw new Error(`tick sink saw ${done.bad} bad frames`);
  return TICK_FRAMES / seconds;
}

async function postTickThroughput(): Promise<number> {
  const peer = await startPeer({ role: 'sink-post', frames: POST_FRAMES });
  const started = performance.now();
  for (let i = 0; i < POST_FRAMES; i++) peer.worker.postMessage(tickFrame(i, 1_700_000_000_000));
  const done = await peer.next<{ seen: number; bad: number }>();
  const seconds = (performance.now() - started) / 1000;
  await peer.stop();
  if (done.bad !== 0) throw new Error(`postMessage sink saw ${done.bad} bad frames`);
  return POST_FRAMES / seconds;
}

async function throughputRows(): Promise<Row[]> {
  const runs = { raw: [] as number[], tick: [] as number[], post: [] as number[] };
  for (let i = 0; i < THROUGHPUT_REPEATS; i++) {
    runs.post.push(await postTickThroughput());
    runs.raw.push(await ringRawThroughput());
    runs.tick.push(await ringTickThroughput());
  }
  const row = (name: string, perRun: number[]): Row => ({ name, median: null, p99: null, throughput: median(perRun) });
  return [
    row(`throughput postMessage: tick objects, structured clone (median of ${THROUGHPUT_REPEATS})`, runs.post),
    row(`throughput ring: raw ${RAW_FRAME_BYTES} B frames (median of ${THROUGHPUT_REPEATS})`, runs.raw),
    row(`throughput ring: msgpackr tick frames, encode + decode (median of ${THROUGHPUT_REPEATS})`, runs.tick),
  ];
}

// ------------------------------------------------------------------------------------------ hop

async function hopRawPolling(): Promise<number[]> {
  const input = newChannel();
  const output = newChannel();
  const rounds = HOP_ROUNDS.rawPolling;
  const peer = await startPeer({ role: 'echo-raw-polling', input, output, rounds });
  const writer = new RingWriter(input);
  const reader = new RingReader(output);
  const now = sharedClockUs();
  const ping = new Uint8Array(RAW_FRAME_BYTES);
  const pingView = new DataView(ping.buffer);
  const replyView = new DataView(reader.data.buffer, reader.data.byteOffset, reader.data.byteLength);
  const hops: number[] = [];
  for (let round = 0; round < rounds; round++) {
    pingView.setFloat64(0, now(), true);
    while (!writer.tryWrite(ping));
    while (reader.drainInPlace(1, (_, start) => { hops.push(now() - replyView.getFloat64(start, true)); }) === 0);
  }
  const echoed = await peer.next<number[]>();
  await peer.stop();
  return [...echoed, ...hops];
}

/** spinMicros null: both threads busy-poll; else both wait in an Inbox with that spin budget. */
async function hopFrames(spinMicros: number | null, rounds: number): Promise<number[]> {
  const input = newChannel();
  const output = newChannel();
  const peer = await startPeer(spinMicros === null
    ? { role: 'echo-frames-polling', input, output, rounds }
    : { role: 'echo-frames-inbox', input, output, rounds, spinMicros });
  const writer = new FrameWriter<ShardInbound>(input);
  const reader = new FrameReader<ShardInbound>(output);
  const inbox = spinMicros === null ? null : new Inbox([output], { spinMicros });
  const now = sharedClockUs();
  const hops: number[] = [];
  const onReply = (frame: ShardInbound): void => {
    if (frame.t !== 'tick') throw new Error('expected an echoed tick');
    hops.push(now() - frame.quote.ts);
  };
  for (let round = 0; round < rounds; round++) {
    if (!writer.tryWrite(tickFrame(round, now()))) throw new Error('ping ring full in a ping-pong');
    while (reader.drain(1, onReply) === 0) {
      if (inbox !== null) await inbox.whenReadable();
    }
  }
  inbox?.close();
  const echoed = await peer.next<number[]>();
  await peer.stop();
  return [...echoed, ...hops];
}

async function hopPost(): Promise<number[]> {
  const rounds = HOP_ROUNDS.post;
  const peer = await startPeer({ role: 'echo-post', rounds });
  const now = sharedClockUs();
  const hops: number[] = [];
  for (let round = 0; round < rounds; round++) {
    peer.worker.postMessage(tickFrame(round, now()));
    const reply = await peer.next<ShardInbound>();
    if (reply.t !== 'tick') throw new Error('expected an echoed tick');
    hops.push(now() - reply.quote.ts);
  }
  const echoed = await peer.next<number[]>();
  await peer.stop();
  return [...echoed, ...hops];
}

/** Drops the first tenth of each run (JIT warm-up). */
function steady(samples: readonly number[]): number[] {
  return samples.slice(Math.floor(samples.length / 10));
}

async function hopRows(): Promise<Row[]> {
  return [
    latencyRow('hop postMessage: tick object, one-way (event loops)', steady(await hopPost())),
    latencyRow(`hop ring: raw ${RAW_FRAME_BYTES} B frame, one-way, both threads polling`, steady(await hopRawPolling())),
    latencyRow('hop ring: msgpackr tick, one-way incl. encode + decode, both threads polling', steady(await hopFrames(null, HOP_ROUNDS.framesPolling))),
    latencyRow('hop ring: msgpackr tick, one-way incl. encode + decode, Inbox (adaptive spin <= 20 µs) both sides', steady(await hopFrames(20, HOP_ROUNDS.framesInbox))),
    latencyRow('hop ring: msgpackr tick, one-way incl. encode + decode, Inbox without spin (pure waitAsync)', steady(await hopFrames(0, HOP_ROUNDS.framesInboxNoSpin))),
  ];
}

// ----------------------------------------------------------------------------------------- wake

/** The consumer's report, plus what each send cost the producer (µs; the ring's includes any notify). */
async function wakeRun(strategy: IdleStrategy): Promise<IdleReport & { sendUs: number[] }> {
  const input = strategy === 'postMessage' ? null : newChannel();
  const peer = await startPeer({ role: 'idle', strategy, input, frames: WAKE_FRAMES });
  const writer = input === null ? null : new FrameWriter<ShardInbound>(input);
  const now = sharedClockUs();
  const sendUs: number[] = [];
  for (let i = 0; i < WAKE_FRAMES; i++) {
    await new Promise((resolve) => setTimeout(resolve, WAKE_INTERVAL_MS));
    const sentAt = now();
    const frame = tickFrame(i, sentAt);
    if (writer === null) peer.worker.postMessage(frame);
    else if (!writer.tryWrite(frame)) throw new Error('idle consumer ring full');
    sendUs.push(now() - sentAt);
  }
  const report = await peer.next<IdleReport>();
  await peer.stop();
  return { ...report, sendUs };
}

async function wakeRows(): Promise<Row[]> {
  const strategies: readonly [IdleStrategy, string][] = [
    ['waitAsync', 'ring + Inbox: adaptive spin <= 20 µs, then Atomics.waitAsync doorbell'],
    ['spin-then-yield', 'ring: spin 20 µs, setImmediate polls for 1 ms, then setTimeout(0) polls'],
    ['spin-then-setImmediate', 'ring: spin 20 µs, then setImmediate polls (no backoff)'],
    ['postMessage', 'postMessage (baseline)'],
  ];
  const rows: Row[] = [];
  for (const [strategy, label] of strategies) {
    const report = await wakeRun(strategy);
    rows.push(latencyRow(`wake idle consumer, ${label}: hop one-way`, steady(report.hopUs)));
    rows.push(latencyRow(`wake idle consumer, ${label}: producer's send call`, steady(report.sendUs)));
    rows.push(latencyRow(`wake idle consumer, ${label}: its 1 ms timer lateness [ELU ${(report.elu * 100).toFixed(1)}%]`, steady(report.timerLateUs)));
  }
  return rows;
}

export async function benchRing(): Promise<Row[]> {
  return [
    ...await codecRows(),
    ...await batchCodecRows(),
    ...await throughputRows(),
    ...await hopRows(),
    ...await wakeRows(),
  ];
}

function printRows(rows: readonly Row[]): void {
  const fixed = (value: number | null, digits: number): string => (value === null ? '' : value.toFixed(digits));
  console.table(rows.map((row) => ({
    name: row.name,
    'median µs': fixed(row.median, 2),
    'p99 µs': fixed(row.p99, 2),
    'per s': row.throughput === null ? '' : Math.round(row.throughput).toLocaleString('en-US'),
  })));
  const find = (prefix: string): Row | undefined => rows.find((row) => row.name.startsWith(prefix));
  const post = find('throughput postMessage')?.throughput ?? NaN;
  const raw = find('throughput ring: raw')?.throughput ?? NaN;
  const tick = find('throughput ring: msgpackr')?.throughput ?? NaN;
  console.log(`ring/postMessage throughput: raw frames ${(raw / post).toFixed(1)}x, msgpackr ticks ${(tick / post).toFixed(1)}x (goal >= 10x)`);
  for (const row of rows.filter((r) => r.name.startsWith('hop ring'))) {
    console.log(`hop p50 ${fixed(row.median, 2)} µs (goal < 5 µs): ${row.name}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Other processes on a 2-core box skew every row; the load average says how much.
  const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`node ${process.version}, ${availableParallelism()} cores, load average before: ${load()}`);
  printRows(await benchRing());
  console.log(`load average after: ${load()}`);
}
