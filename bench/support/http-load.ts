// An HTTP/1.1 load driver on raw keep-alive sockets, lean enough that one Node thread can load a
// uWS server: requests are prebuilt bytes, responses are framed by Content-Length only.
//   closedLoop  every connection keeps `depth` requests in flight (pipelined) for a duration:
//               the most the server (and this driver) can do; latency is service time.
//   fixedRate   requests are due on an exact schedule (request i at t0 + i / rate); latency is
//               measured from that intended time, so a slow answer that delays later sends is
//               counted against the server (coordinated-omission safe). One request in flight per
//               connection; due requests wait for a free connection. The free connection used
//               last goes first (as Node's http.Agent does), so a light load keeps a few warm
//               connections: taking turns over all of them made every median 15-50% slower here.
//               The others may idle into the server's keep-alive timeout (uWS: ~10 s); a
//               connection the server closed is not used again. The schedule is kept by a
//               setImmediate loop (a timer's millisecond granularity would add its own lateness),
//               which keeps one core busy: the pacer's own lateness is reported separately.
import { build, type Histogram } from 'hdr-histogram-js';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Usage } from './thread-cpu.js';

export interface LoadResult {
  /** Microseconds: service time (closed loop) or from the intended send time (fixed rate). */
  readonly latencyUs: Histogram;
  readonly completed: number;
  readonly elapsedMs: number;
  readonly statuses: ReadonlyMap<number, number>;
  /**
   * Fixed rate only: how late the driver's pacer was for requests it could send at once (µs).
   * Requests that waited for a free connection are not in it: that wait is the server's.
   */
  readonly pacerLateUs: Histogram | null;
  /**
   * Fixed rate only: from each request's write to its answer (µs), without the pacer's lateness or
   * the wait for a free connection: the server's and loopback's part of `latencyUs`.
   */
  readonly fromWriteUs: Histogram | null;
  /** CPU the server used while measuring, ms (when a `cpuMs` probe was given). */
  readonly serverCpuMs: number | null;
  /** CPU this driver process used while measuring, ms (closed loop only: the pacer of a fixed rate spins). */
  readonly driverCpuMs: number | null;
  /** Closed loop with a `usage` probe: its readings at the start and the end of the measured time. */
  readonly serverUsage?: readonly [Usage, Usage];
}

/** Reads the server's CPU time so far (ms). */
export type CpuProbe = () => number;

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = Buffer.from('Content-Length: ');

export const histogram = (): Histogram => build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });

const nowUs = (): number => performance.now() * 1000;

type OnResponse = (conn: Connection, status: number) => void;

class Connection {
  private pending: Buffer | null = null;
  /** Per request in flight, in order: the time it counts from (µs). */
  readonly startedUs: number[] = [];
  closed = false;

  constructor(readonly socket: net.Socket, private readonly onResponse: OnResponse, onLost: (err: Error) => void) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    // A connection the server closed with answers owed would leave the run waiting for ever. The
    // server's end (FIN) counts as closed at once: 'close' comes only in a later event-loop phase.
    const ended = (): void => {
      this.closed = true;
      if (this.startedUs.length > 0) onLost(new Error(`the server closed a connection with ${this.startedUs.length} request(s) unanswered`));
    };
    socket.on('end', ended);
    socket.on('close', ended);
  }

  send(bytes: Buffer, startedUs: number): void {
    this.startedUs.push(startedUs);
    this.socket.write(bytes);
  }

  private onData(chunk: Buffer): void {
    const buf = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    let offset = 0;
    for (;;) {
      const headerEnd = buf.indexOf(HEADER_END, offset);
      if (headerEnd < 0) break;
      const lengthAt = buf.indexOf(CONTENT_LENGTH, offset);
      if (lengthAt < 0 || lengthAt > headerEnd) throw new Error('response without Content-Length');
      const lineEnd = buf.indexOf(13, lengthAt);
      const length = Number(buf.toString('latin1', lengthAt + CONTENT_LENGTH.length, lineEnd));
      const end = headerEnd + HEADER_END.length + length;
      if (end > buf.length) break;
      const status = Number(buf.toString('latin1', offset + 9, offset + 12));
      offset = end;
      this.onResponse(this, status);
    }
    this.pending = offset < buf.length ? Buffer.from(buf.subarray(offset)) : null;
  }
}

/** The connections, and a promise that rejects once one is lost with answers owed (race the run with it). */
async function connect(port: number, count: number, onResponse: OnResponse): Promise<{ conns: Connection[]; lost: Promise<never> }> {
  let fail: (err: Error) => void = () => undefined;
  const lost = new Promise<never>((_, reject) => { fail = reject; });
  lost.catch(() => undefined);
  const conns: Connection[] = [];
  // The others go too, so a failed run leaves no socket holding the process open.
  const onLost = (err: Error): void => {
    for (const c of conns) c.socket.destroy();
    fail(err);
  };
  conns.push(...await Promise.all(Array.from({ length: count }, () => new Promise<Connection>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(new Connection(socket, onResponse, onLost)));
    socket.on('error', reject);
  }))));
  return { conns, lost };
}

const bump = (m: Map<number, number>, status: number): void => { m.set(status, (m.get(status) ?? 0) + 1); };

export interface ClosedLoopOptions {
  readonly port: number;
  readonly connections: number;
  /** Requests in flight per connection. */
  readonly depth: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly request: () => Buffer;
  readonly cpuMs?: CpuProbe;
  /** The server's CPU per kind of thread and its disk's writes (thread-cpu.ts). */
  readonly usage?: () => Usage;
}

export async function closedLoop(o: ClosedLoopOptions): Promise<LoadResult> {
  const latencyUs = histogram();
  const statuses = new Map<number, number>();
  let measuring = false;
  let stopping = false;
  let completed = 0;
  let inFlight = 0;
  let drained: () => void = () => undefined;
  const { conns, lost } = await connect(o.port, o.connections, (conn, status) => {
    const t = nowUs();
    const started = conn.startedUs.shift()!;
    inFlight--;
    if (measuring) {
      latencyUs.recordValue(Math.max(1, Math.round(t - started)));
      bump(statuses, status);
      completed++;
    }
    if (!stopping) { conn.send(o.request(), t); inFlight++; } else if (inFlight === 0) drained();
  });
  for (const conn of conns) for (let i = 0; i < o.depth; i++) { conn.send(o.request(), nowUs()); inFlight++; }
  await new Promise((r) => setTimeout(r, o.warmupMs));
  measuring = true;
  const t0 = performance.now();
  const cpu0 = o.cpuMs?.() ?? 0;
  const usage0 = o.usage?.();
  const driver0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, o.durationMs));
  measuring = false;
  const elapsedMs = performance.now() - t0;
  const serverCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : null;
  const serverUsage = o.usage !== undefined && usage0 !== undefined ? [usage0, o.usage()] as const : undefined;
  const driverUsage = process.cpuUsage(driver0);
  const driverCpuMs = (driverUsage.user + driverUsage.system) / 1000;
  stopping = true;
  await Promise.race([lost, new Promise<void>((resolve) => { drained = resolve; if (inFlight === 0) resolve(); })]);
  for (const c of conns) c.socket.destroy();
  return { latencyUs, completed, elapsedMs, statuses, pacerLateUs: null, fromWriteUs: null, serverCpuMs, driverCpuMs, ...(serverUsage === undefined ? {} : { serverUsage }) };
}

export interface FixedRateOptions {
  readonly port: number;
  readonly connections: number;
  readonly ratePerSec: number;
  /** Requests before measuring (same schedule, not recorded). */
  readonly warmup: number;
  readonly count: number;
  /** Request i of the schedule (warm-up first). */
  readonly request: (i: number) => Buffer;
  readonly cpuMs?: CpuProbe;
}

export async function fixedRate(o: FixedRateOptions): Promise<LoadResult> {
  const total = o.warmup + o.count;
  const latencyUs = histogram();
  const pacerLateUs = histogram();
  const fromWriteUs = histogram();
  const statuses = new Map<number, number>();
  const intervalUs = 1e6 / o.ratePerSec;
  const idle: Connection[] = [];
  const backlog: number[] = [];
  /** Request index and write time (µs) per connection, in flight. */
  const current = new Map<Connection, { readonly i: number; readonly writtenUs: number }>();
  let t0Us = 0;
  let sent = 0;
  let done = 0;
  let finished: () => void = () => undefined;
  const intendedUs = (i: number): number => t0Us + i * intervalUs;

  const dispatch = (conn: Connection, i: number): void => {
    const bytes = o.request(i);
    current.set(conn, { i, writtenUs: nowUs() });
    conn.send(bytes, intendedUs(i));
  };

  const { conns, lost } = await connect(o.port, o.connections, (conn, status) => {
    const t = nowUs();
    const { i, writtenUs } = current.get(conn)!;
    conn.startedUs.shift();
    if (i >= o.warmup) {
      latencyUs.recordValue(Math.max(1, Math.round(t - intendedUs(i))));
      fromWriteUs.recordValue(Math.max(1, Math.round(t - writtenUs)));
      bump(statuses, status);
    }
    const next = backlog.shift();
    if (next === undefined) idle.push(conn);
    else dispatch(conn, next);
    if (++done === total) finished();
  });
  idle.push(...conns);

  const allDone = new Promise<void>((resolve) => { finished = resolve; });
  t0Us = nowUs();
  const startMs = performance.now();
  let measuredFromMs = o.warmup === 0 ? startMs : Number.NaN;
  let cpu0 = o.warmup === 0 ? o.cpuMs?.() ?? 0 : 0;
  const pace = (): void => {
    const t = nowUs();
    while (sent < total && intendedUs(sent) <= t) {
      if (sent === o.warmup && sent > 0) {
        measuredFromMs = performance.now();
        cpu0 = o.cpuMs?.() ?? 0;
      }
      let conn = idle.pop();
      while (conn?.closed === true) conn = idle.pop();
      if (conn === undefined) backlog.push(sent);
      else {
        if (sent >= o.warmup) pacerLateUs.recordValue(Math.max(1, Math.round(nowUs() - intendedUs(sent))));
        dispatch(conn, sent);
      }
      sent++;
    }
    if (sent < total) setImmediate(pace);
  };
  pace();
  await Promise.race([lost, allDone]);
  const elapsedMs = performance.now() - measuredFromMs;
  const serverCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : null;
  for (const c of conns) c.socket.destroy();
  return { latencyUs, completed: o.count, elapsedMs, statuses, pacerLateUs, fromWriteUs, serverCpuMs, driverCpuMs: null };
}
