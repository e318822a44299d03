// The subscribers of stream.bench.ts, in their own process (forked, IPC for control): N bare
// WebSocket connections (quote-sink.ts) to a fan-out server; on `measure` they count the quotes
// delivered for a window and record each one's tick-to-client latency (arrival of the chunk that
// carried it minus the tick's due time; both clocks are performance.timeOrigin + now, the wall
// clock with sub-ms resolution, shared by the processes of one machine).
import { performance } from 'node:perf_hooks';
import { build, initWebAssemblySync, type Histogram } from 'hdr-histogram-js';
import { QuoteSink, type SinkStats } from './quote-sink.js';

export type ClientCommand = { readonly t: 'measure'; readonly windowMs: number } | { readonly t: 'exit' };
export type ClientReport =
  | { readonly t: 'connected'; readonly connections: number }
  | {
    readonly t: 'measured'; readonly windowMs: number; readonly messages: number; readonly frames: number; readonly reads: number; readonly bytes: number;
    readonly p50Us: number; readonly p99Us: number; readonly p999Us: number; readonly maxUs: number; readonly cpuMs: number;
  };

const CONNECT_BATCH = 50;

const [portText, connectionsText] = process.argv.slice(2) as [string, string];
const port = Number(portText);
const connections = Number(connectionsText);
const stats: SinkStats = { reads: 0, frames: 0, messages: 0, bytes: 0 };
initWebAssemblySync();
/** The WebAssembly histogram records about twice as fast as the JS one (its README). */
const newHistogram = (): Histogram => build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: true });
let histogram = newHistogram();
const nowMs = (): number => performance.timeOrigin + performance.now();
const record = (tsMs: number, arrivedMs: number): void => { histogram.recordValue(Math.max(1, Math.round((arrivedMs - tsMs) * 1000))); };

const send = (r: ClientReport): void => { process.send!(r); };
const sinks: QuoteSink[] = [];
for (let i = 0; i < connections; i += CONNECT_BATCH) {
  const batch = Array.from({ length: Math.min(CONNECT_BATCH, connections - i) }, (_, k) => QuoteSink.connect(port, `/?i=${i + k}`, record, nowMs, stats));
  sinks.push(...await Promise.all(batch));
}
send({ t: 'connected', connections: sinks.length });

process.on('message', (cmd: ClientCommand) => {
  if (cmd.t === 'exit') {
    for (const s of sinks) s.close();
    process.exit(0);
  }
  histogram.destroy();
  histogram = newHistogram();
  const start = { ...stats, atMs: performance.now(), cpu: process.cpuUsage() };
  setTimeout(() => {
    const cpu = process.cpuUsage(start.cpu);
    send({
      t: 'measured', windowMs: performance.now() - start.atMs,
      messages: stats.messages - start.messages, frames: stats.frames - start.frames, reads: stats.reads - start.reads, bytes: stats.bytes - start.bytes,
      p50Us: histogram.getValueAtPercentile(50), p99Us: histogram.getValueAtPercentile(99),
      p999Us: histogram.getValueAtPercentile(99.9), maxUs: histogram.maxValue, cpuMs: (cpu.user + cpu.system) / 1000,
    });
  }, cmd.windowMs);
});
