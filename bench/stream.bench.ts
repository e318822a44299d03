/**
 * Quote fan-out of the WebSocket stream, next to the same fan-out on the `ws` package, same run:
 *   npx tsc -p tsconfig.json && node dist/bench/stream.bench.js
 *
 * 1,000 connections × 10 symbols (a universe of 100 symbols, so every symbol has 100 subscribers);
 * ticks at a fixed rate, round robin over the symbols, each stamped with its DUE time, in steps of
 * 200k, 600k and 1.2M quotes/s offered. Reported per step and server: quotes delivered per second
 * (counted at the clients), tick-to-client latency p50/p99 (hdr-histogram, due time to arrival at
 * the client: coordinated-omission safe), frames per second, and the server's CPU per quote; then
 * the most each delivered with p99 under 5 ms, and their ratio. (At a rate a server cannot keep
 * up with, its batches grow and it may still deliver everything, seconds late: delivered/s alone
 * would flatter it, so the summary counts only steps within the latency goal.)
 *
 * Processes: the server (the service's QuoteFanout on uWebSockets.js, or the `ws` twin) and the
 * 1,000 clients each get a process of their own, pinned to one core each with taskset when it
 * exists: on 2 cores, clients in the server's process would share its single thread, and unpinned
 * processes would trade places on the cores mid-run. The clients are bare sockets with a minimal
 * frame reader (support/quote-sink.ts): a general-purpose Node WebSocket client needs more CPU per
 * frame than the server spends per send, and would measure itself.
 *
 * Backpressure and batching (as in the service): the ticks of one event-loop turn are batched
 * per symbol (tick-batcher.ts, both servers); uWS maxBackpressure = 2 × stream.max_buffer_bytes
 * + 1 MiB (never reached: the stream closes a connection past max_buffer_bytes = 1 MiB itself),
 * closeOnBackpressureLimit off, quotes conflated for a connection past 64 KiB buffered until it is
 * under 16 KiB; the `ws` twin skips a subscriber past 64 KiB buffered. No compression.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processCpuMs } from './support/child-process.js';
import type { ClientCommand, ClientReport } from './support/fanout-clients.js';
import type { FanoutKind, ServerCommand, ServerReport } from './support/fanout-server.js';
import { perSec, us, type Row } from './support/stats.js';

const CONNECTIONS = 1000;
const SYMBOLS_PER_CONNECTION = 10;
const UNIVERSE = 100;
const SUBSCRIBERS_PER_SYMBOL = CONNECTIONS * SYMBOLS_PER_CONNECTION / UNIVERSE;
/** Ticks per second of each step; × 100 subscribers per symbol = quotes offered per second. */
const LADDER = [500, 2_000, 6_000, 10_000] as const;
/** The step whose server CPU per quote the summary compares (both servers deliver all of it). */
const COMPARE_TICKS = 2_000;
const WARMUP_MS = 1500;
const WINDOW_MS = 4000;
/** After a step, queues drain before the next one starts. */
const SETTLE_MS = 1000;
/** The latency bound of the summary row (the issue's goal). */
const P99_GOAL_US = 5000;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const PINNED = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

interface Child<Report> { readonly proc: ChildProcess; next(): Promise<Report>; send(cmd: unknown): void }

/** A forked child (IPC), pinned to `cpu` when taskset exists. */
function child<Report>(script: string, args: readonly string[], cpu: number): Child<Report> {
  const node = [process.execPath, path.join(HERE, 'support', script), ...args];
  const proc = spawn(PINNED ? 'taskset' : node[0]!, PINNED ? ['-c', String(cpu), ...node] : node.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const queue: Report[] = [];
  const waiting: ((r: Report) => void)[] = [];
  proc.on('message', (r: Report) => { const w = waiting.shift(); if (w) w(r); else queue.push(r); });
  return {
    proc,
    next: () => new Promise<Report>((resolve, reject) => {
      const r = queue.shift();
      if (r) { resolve(r); return; }
      waiting.push(resolve);
      proc.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    }),
    send: (cmd) => { proc.send(cmd as object); },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** CPU time all cores spent busy so far (ms): what else ran during a step shows in the note. */
const machineBusyMs = (): number => cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);

interface Step {
  readonly kind: FanoutKind;
  readonly ticksPerSec: number;
  readonly measured: Extract<ClientReport, { t: 'measured' }>;
  readonly serverCpuMs: number;
  /** CPU used by other processes during the window (ms). */
  readonly othersCpuMs: number;
  readonly skipped: number;
}

const deliveredPerSec = (s: Step): number => s.measured.messages / (s.measured.windowMs / 1000);

/** One server with its 1,000 clients, through every step of the ladder. */
async function ladder(kind: FanoutKind): Promise<Step[]> {
  const server = child<ServerReport>('fanout-server.js', [kind, String(UNIVERSE), String(SYMBOLS_PER_CONNECTION)], 0);
  const ready = await server.next();
  if (ready.t !== 'ready') throw new Error('fan-out server did not start');
  const clients = child<ClientReport>('fanout-clients.js', [String(ready.port), String(CONNECTIONS)], 1);
  if ((await clients.next()).t !== 'connected') throw new Error('clients did not connect');
  const steps: Step[] = [];
  let skippedBefore = 0;
  for (const ticksPerSec of LADDER) {
    server.send({ t: 'start', ticksPerSec } satisfies ServerCommand);
    await sleep(WARMUP_MS);
    const cpuBefore = processCpuMs(server.proc.pid!);
    const busyBefore = machineBusyMs();
    clients.send({ t: 'measure', windowMs: WINDOW_MS } satisfies ClientCommand);
    const measured = await clients.next();
    const serverCpuMs = processCpuMs(server.proc.pid!) - cpuBefore;
    const busyMs = machineBusyMs() - busyBefore;
    server.send({ t: 'stop' } satisfies ServerCommand);
    const stopped = await server.next();
    if (measured.t !== 'measured' || stopped.t !== 'stopped') throw new Error('unexpected report');
    const othersCpuMs = Math.max(0, busyMs - serverCpuMs - measured.cpuMs);
    steps.push({ kind, ticksPerSec, measured, serverCpuMs, othersCpuMs, skipped: stopped.skipped - skippedBefore });
    skippedBefore = stopped.skipped;
    await sleep(SETTLE_MS);
  }
  clients.send({ t: 'exit' } satisfies ClientCommand);
  server.send({ t: 'exit' } satisfies ServerCommand);
  await Promise.all([server.proc, clients.proc].map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
  return steps;
}

const LABEL: Readonly<Record<FanoutKind, string>> = { uws: 'uWS topics (service QuoteFanout)', ws: 'ws package, same fan-out' };

function row(s: Step): Row {
  const m = s.measured;
  const perSecOf = (n: number): number => n / (m.windowMs / 1000);
  return {
    name: `${LABEL[s.kind]}, ${perSec(s.ticksPerSec * SUBSCRIBERS_PER_SYMBOL)} offered`,
    median: us(m.p50Us),
    p99: us(m.p99Us),
    throughput: perSec(perSecOf(m.messages)),
    note: `p99.9 ${us(m.p999Us)}; ${perSec(perSecOf(m.frames))} frames, ${(m.messages / Math.max(1, m.reads)).toFixed(1)} quotes per client read; `
      + `server ${(s.serverCpuMs * 1000 / Math.max(1, m.messages)).toFixed(2)} µs CPU/quote (${(s.serverCpuMs / m.windowMs * 100).toFixed(0)}% of a core), `
      + `clients ${(m.cpuMs / m.windowMs * 100).toFixed(0)}%, everything else ${(s.othersCpuMs / m.windowMs * 100).toFixed(0)}%`
      + `${s.skipped > 0 ? `; ${s.skipped} sends skipped (backpressure)` : ''}`,
  };
}

/** The most quotes/s a server delivered in a step whose p99 met the goal (0 when none did). */
function bestWithinGoal(steps: readonly Step[]): number {
  return Math.max(0, ...steps.filter((s) => s.measured.p99Us < P99_GOAL_US).map(deliveredPerSec));
}

export async function benchStream(): Promise<Row[]> {
  const uws = await ladder('uws');
  const ws = await ladder('ws');
  const [bestUws, bestWs] = [bestWithinGoal(uws), bestWithinGoal(ws)];
  const cpuPerQuoteUs = (steps: readonly Step[]): number => {
    const s = steps.find((x) => x.ticksPerSec === COMPARE_TICKS)!;
    return s.serverCpuMs * 1000 / Math.max(1, s.measured.messages);
  };
  const setup = `${CONNECTIONS} connections × ${SYMBOLS_PER_CONNECTION} of ${UNIVERSE} symbols; ${WINDOW_MS / 1000} s per step after ${WARMUP_MS / 1000} s; `
    + `server and clients ${PINNED ? 'pinned to a core each' : 'unpinned'} on 2 cores`;
  return [
    ...uws.map(row),
    ...ws.map(row),
    {
      name: `most quotes/s with p99 < ${us(P99_GOAL_US)}, uWS ÷ ws`,
      median: bestWs > 0 ? `${(bestUws / bestWs).toFixed(1)}x` : '-',
      p99: '-',
      throughput: perSec(bestUws),
      note: `uWS ${perSec(bestUws)}, ws ${perSec(bestWs)} (steps within the goal only); ${setup}`,
    },
    {
      name: `server CPU per quote at ${perSec(COMPARE_TICKS * SUBSCRIBERS_PER_SYMBOL)} offered, ws ÷ uWS`,
      median: `${(cpuPerQuoteUs(ws) / cpuPerQuoteUs(uws)).toFixed(1)}x`,
      p99: '-',
      note: `uWS ${cpuPerQuoteUs(uws).toFixed(2)} µs, ws ${cpuPerQuoteUs(ws).toFixed(2)} µs of CPU per delivered quote (kernel time of the loopback writes included)`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchStream());
