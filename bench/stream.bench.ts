/**
 * Quote fan-out of the WebSocket stream, next to the same fan-out on the `ws` package, same run:
 *   npx tsc -p tsconfig.json && node dist/bench/stream.bench.js
 *
 * 1,000 connections × 10 symbols (a universe of 100 symbols, so every symbol has 100 subscribers),
 * ticks at a fixed rate, round robin over the symbols, each stamped with its DUE time. Reported per
 * server: quotes delivered per second (counted at the clients), tick-to-client latency p50/p99
 * (hdr-histogram, from the due time to the arrival at the client), frames per second (ticks of one
 * turn share a frame), and the server's CPU per delivered quote.
 *
 * Processes: the server (the service's QuoteFanout on uWebSockets.js, or the `ws` twin) and the
 * 1,000 clients each get a process of their own, pinned to one core each with taskset when it
 * exists: on 2 cores, clients in the server's process would share its single thread, and unpinned
 * processes would trade places on the cores mid-run. The clients are bare sockets with a minimal
 * frame reader (support/quote-sink.ts): a general-purpose Node WebSocket client needs more CPU per
 * frame than the server spends per send, and would measure itself.
 *
 * Backpressure settings (as in the service): uWS maxBackpressure = 2 × stream.max_buffer_bytes
 * + 1 MiB (never reached: the stream closes a connection past max_buffer_bytes = 1 MiB itself),
 * closeOnBackpressureLimit off, quotes conflated for a connection past 64 KiB buffered until it is
 * under 16 KiB; the `ws` twin skips a subscriber past 64 KiB buffered. No compression.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processCpuMs } from './support/child-process.js';
import type { ClientCommand, ClientReport } from './support/fanout-clients.js';
import type { FanoutKind, ServerCommand, ServerReport } from './support/fanout-server.js';
import { perSec, us, type Row } from './support/stats.js';

const CONNECTIONS = 1000;
const SYMBOLS_PER_CONNECTION = 10;
const UNIVERSE = 100;
/** 12,000 ticks/s × 100 subscribers per symbol = 1.2M quotes/s offered. */
const TICKS_PER_SEC = 12_000;
const WARMUP_MS = 2000;
const WINDOW_MS = 5000;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const PINNED = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** A forked child (IPC), pinned to `cpu` when taskset exists. */
function child<Report>(script: string, args: readonly string[], cpu: number): { proc: ChildProcess; next(): Promise<Report>; send(cmd: unknown): void } {
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

interface Run {
  readonly kind: FanoutKind;
  readonly measured: Extract<ClientReport, { t: 'measured' }>;
  readonly serverCpuMs: number;
  readonly ticks: number;
  readonly skipped: number;
}

async function run(kind: FanoutKind): Promise<Run> {
  const server = child<ServerReport>('fanout-server.js', [kind, String(UNIVERSE), String(SYMBOLS_PER_CONNECTION)], 0);
  const ready = await server.next();
  if (ready.t !== 'ready') throw new Error('fan-out server did not start');
  const clients = child<ClientReport>('fanout-clients.js', [String(ready.port), String(CONNECTIONS)], 1);
  if ((await clients.next()).t !== 'connected') throw new Error('clients did not connect');
  server.send({ t: 'start', ticksPerSec: TICKS_PER_SEC } satisfies ServerCommand);
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const cpuBefore = processCpuMs(server.proc.pid!);
  clients.send({ t: 'measure', windowMs: WINDOW_MS } satisfies ClientCommand);
  const measured = await clients.next();
  const serverCpuMs = processCpuMs(server.proc.pid!) - cpuBefore;
  server.send({ t: 'stop' } satisfies ServerCommand);
  const stopped = await server.next();
  clients.send({ t: 'exit' } satisfies ClientCommand);
  server.send({ t: 'exit' } satisfies ServerCommand);
  await Promise.all([server.proc, clients.proc].map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
  if (measured.t !== 'measured' || stopped.t !== 'stopped') throw new Error('unexpected report');
  return { kind, measured, serverCpuMs, ticks: stopped.ticks, skipped: stopped.skipped };
}

function row(r: Run): Row {
  const m = r.measured;
  const rate = m.messages / (m.windowMs / 1000);
  const label = r.kind === 'uws' ? 'uWS topics (the service\'s QuoteFanout)' : 'ws package, same fan-out';
  return {
    name: `quote fan-out, ${label}`,
    median: us(m.p50Us),
    p99: us(m.p99Us),
    throughput: perSec(rate),
    note: `p99.9 ${us(m.p999Us)}, max ${us(m.maxUs)}; ${perSec(m.frames / (m.windowMs / 1000))} frames (${(m.messages / Math.max(1, m.frames)).toFixed(2)} quotes/frame); `
      + `server CPU ${(r.serverCpuMs * 1000 / Math.max(1, m.messages)).toFixed(3)} µs/quote (${(r.serverCpuMs / m.windowMs * 100).toFixed(0)}% of a core), `
      + `clients ${(m.cpuMs / m.windowMs * 100).toFixed(0)}% of a core${r.skipped > 0 ? `; ${r.skipped} sends skipped (backpressure)` : ''}`,
  };
}

export async function benchStream(): Promise<Row[]> {
  const uws = await run('uws');
  const ws = await run('ws');
  const rateOf = (r: Run): number => r.measured.messages / (r.measured.windowMs / 1000);
  const offered = TICKS_PER_SEC * (CONNECTIONS * SYMBOLS_PER_CONNECTION / UNIVERSE);
  return [
    row(uws),
    row(ws),
    {
      name: 'quote fan-out, uWS ÷ ws delivered',
      median: `${(rateOf(uws) / rateOf(ws)).toFixed(1)}x`,
      p99: '-',
      note: `${CONNECTIONS} connections × ${SYMBOLS_PER_CONNECTION} symbols of ${UNIVERSE}, ${TICKS_PER_SEC} ticks/s = ${perSec(offered)} quotes offered; `
        + `${WINDOW_MS / 1000} s window after ${WARMUP_MS / 1000} s warm-up; server and clients ${PINNED ? 'pinned to a core each' : 'unpinned'} on a 2-core box`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchStream());
