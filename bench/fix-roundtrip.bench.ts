// NewOrderSingle → ExecutionReport over TLS 1.3 on loopback through the real service process
// (dist/src/main.js: FIX thread, its default shards, LMDB), at fixed rates, with latency from each order's
// intended send time (coordinated-omission safe, hdr-histogram). In the same run:
//   - the fdatasync floor of the data volume (an acked order is on disk first);
//   - a bare TLS 1.3 echo server as baseline (TLS + loopback + two event loops, no FIX);
//   - durability `sync` (the default) and `none` (no fdatasync: the gateway's own cost);
//   - tick → W: a quote pushed through the console until the streaming W reaches the client.
// 50 FIX sessions (one per account) share the load, each under the 50 msg/s throttle; every order
// is a BTCUSD market order (24x7, prices fixed) that fills. The driver and the server share the
// machine's 2 cores. Run on its own: `npx tsc -p tsconfig.json && node dist/bench/fix-roundtrip.bench.js`.
import { build, type Histogram } from 'hdr-histogram-js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FixFramer, FrameStatus } from '../src/fix/codec/framer.js';
import { FixReader } from '../src/fix/codec/reader.js';
import { CompIds, FixWriter } from '../src/fix/codec/writer.js';
import { MsgType, OrdType, Side, Tag } from '../src/fix/dictionary.js';
import { GENERATED_CERT_FILE } from '../src/fix/tls-cert.js';
import { startChild, startService, type ServiceProcess } from './support/child-process.js';
import { measureFsyncFloor } from './support/fsync-floor.js';
import { us, type Row } from './support/stats.js';

const SESSIONS = 50;
const FIRST_LOGIN = 700_001;
const RATES = [500, 2000] as const;
// The order path's goals are set at 500/s: durable, p50 within 200 µs of the floor and p99 ≤ 1.5 ms;
// without a sync, p50 within 100 µs of the bare TLS echo.
const GOAL_RATE = 500;
const SECONDS = 4;
const WARMUP = { rate: 500, seconds: 1 } as const;
const TICKS = { count: 400, intervalMs: 5 } as const;
/** The pacer sleeps (1 ms timer) only when the next send is further away than this. */
const SLEEP_ABOVE_NS = 1_500_000;
const ECHO_JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'support/tls-echo-server.js');

const accounts = Array.from({ length: SESSIONS }, (_, i) => ({ login: String(FIRST_LOGIN + i), key: `fixbench-${i}`, secret: `fixbench-secret-${i}-0123456789` }));

function seed(): Record<string, unknown> {
  return {
    console: { admin_token: 'fix-bench-admin-token-0123456789' },
    symbols: [{ name: 'BTCUSD', digits: 2, contract_size: 1, bid: 65000, ask: 65010, volatility: 0, max_volume: 10, session: '24x7' }],
    users: [{ id: 'bench', password: 'bench-password', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' }],
    accounts: accounts.map((a) => ({ login: a.login, user: 'bench', type: 'demo', group: 'demo\\ECN', currency: 'USD', balance: 10_000_000, leverage: 100 })),
    keys: accounts.map((a) => ({ id: a.key, secret: a.secret, login: a.login, scopes: ['read', 'trade'], rate_limit: 50 })),
    webhooks: [],
  };
}

/** One client connection: our codec on a raw TLS socket (no client engine cost in the figures). */
class Conn {
  private readonly framer = new FixFramer({ maxMessageBytes: 1 << 16 });
  private readonly reader = new FixReader();
  private readonly writer = new FixWriter();
  private seq = 1;
  onMessage: (msgType: string, r: FixReader) => void = () => undefined;

  private constructor(readonly socket: tls.TLSSocket, private readonly ids: CompIds) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.framer.push(chunk);
      for (let s = this.framer.next(); s !== FrameStatus.NeedMore; s = this.framer.next()) {
        if (s !== FrameStatus.Message) continue;
        this.reader.parse(this.framer.bytes, this.framer.frameStart, this.framer.frameEnd);
        this.reader.beginRead();
        this.onMessage(this.reader.msgType, this.reader);
      }
    });
  }

  static open(port: number, ca: string, sender: string): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, ca: [ca], minVersion: 'TLSv1.3' }, () => resolve(new Conn(socket, new CompIds(sender, 'TASGW'))));
      socket.once('error', reject);
    });
  }

  send(msgType: string, fields: readonly (readonly [number, string])[]): void {
    this.writer.begin(msgType, { compIds: this.ids, msgSeqNum: this.seq++, sendingTimeMs: Date.now(), origSendingTimeMs: null });
    for (const [tag, value] of fields) this.writer.str(tag, value);
    this.writer.finish();
    this.socket.write(this.writer.flush());
  }

  sendOrder(clOrdId: string): void {
    this.send(MsgType.NewOrderSingle, [
      [Tag.ClOrdID, clOrdId], [Tag.Symbol, 'BTCUSD'], [Tag.Side, Side.Buy], [Tag.TransactTime, '20260101-00:00:00.000'],
      [Tag.OrderQty, '0.01'], [Tag.OrdType, OrdType.Market],
    ]);
  }

  async logon(key: string, secret: string): Promise<void> {
    const answered = new Promise<string>((resolve) => { this.onMessage = (type, r) => resolve(type === 'A' ? 'A' : r.str(Tag.Text) ?? type); });
    this.send(MsgType.Logon, [[98, '0'], [108, '30'], [141, 'Y'], [553, key], [554, secret]]);
    const type = await answered;
    if (type !== 'A') throw new Error(`logon refused: ${type}`);
  }
}

interface Latency { readonly p50: number; readonly p99: number; readonly max: number; readonly count: number }

function summary(h: Histogram): Latency {
  return { p50: h.getValueAtPercentile(50), p99: h.getValueAtPercentile(99), max: h.maxValue, count: h.totalCount };
}

function histogram(): Histogram {
  return build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
}

/**
 * Sends `rate` messages per second for `seconds` on a schedule, round-robin over `conns`; `send`
 * writes message i, `arrived` is wired by the caller to call `done(i)` when its answer comes.
 */
async function paced(rate: number, seconds: number, conns: number, send: (i: number, conn: number) => void, wire: (done: (i: number) => void) => void): Promise<Latency> {
  const h = histogram();
  const total = rate * seconds;
  const intervalNs = 1e9 / rate;
  const start = process.hrtime.bigint();
  const intended = (i: number): bigint => start + BigInt(Math.round(i * intervalNs));
  let answered = 0;
  let finish: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => { finish = resolve; });
  wire((i) => {
    h.recordValue(Math.max(1, Number(process.hrtime.bigint() - intended(i)) / 1000));
    if (++answered === total) finish();
  });
  let i = 0;
  while (i < total) {
    const elapsed = Number(process.hrtime.bigint() - start);
    while (i < total && i * intervalNs <= elapsed) {
      send(i, i % conns);
      i++;
    }
    // Sleeps through long gaps (the server needs the shared cores) and polls through short ones.
    if (i * intervalNs - elapsed > SLEEP_ABOVE_NS) await new Promise((r) => setTimeout(r, 1));
    else await new Promise((r) => setImmediate(r));
  }
  await allDone;
  return summary(h);
}

async function loggedOn(service: ServiceProcess): Promise<Conn[]> {
  const ca = fs.readFileSync(path.join(service.dataDir, GENERATED_CERT_FILE), 'utf8');
  const port = (service.ready['ports'] as { fix: number }).fix;
  return Promise.all(accounts.map(async (a) => {
    const c = await Conn.open(port, ca, `TAS_${a.login}`);
    await c.logon(a.key, a.secret);
    return c;
  }));
}

/** TestRequest → Heartbeat: TLS and the session layer, no shard. */
async function sessionOnly(service: ServiceProcess, rate: number): Promise<Latency> {
  const conns = await loggedOn(service);
  const run = (seconds: number, prefix: string): Promise<Latency> => paced(rate, seconds, conns.length,
    (i, k) => conns[k]!.send(MsgType.TestRequest, [[Tag.TestReqID, `${prefix}${i}`]]), (done) => {
      for (const c of conns) {
        c.onMessage = (type, r) => {
          const id = type === MsgType.Heartbeat ? r.str(Tag.TestReqID) ?? '' : '';
          if (id.startsWith(prefix)) done(Number(id.slice(prefix.length)));
        };
      }
    });
  await run(WARMUP.seconds, 'w');
  const result = await run(SECONDS, 't');
  for (const c of conns) c.socket.destroy();
  return result;
}

async function orderRuns(service: ServiceProcess, runId: string): Promise<Map<number, Latency>> {
  const conns = await loggedOn(service);
  const results = new Map<number, Latency>();
  let run = 0;
  const measure = async (rate: number, seconds: number): Promise<Latency> => {
    const prefix = `${runId}${run++}-`;
    return paced(rate, seconds, conns.length, (i, k) => conns[k]!.sendOrder(`${prefix}${i}`), (done) => {
      for (const c of conns) {
        c.onMessage = (type, r) => {
          if (type !== MsgType.ExecutionReport) return;
          const clOrdId = r.str(Tag.ClOrdID) ?? '';
          if (r.str(Tag.ExecType) !== 'F') throw new Error(`order ${clOrdId} not filled: ${r.str(Tag.Text)}`);
          if (clOrdId.startsWith(prefix)) done(Number(clOrdId.slice(prefix.length)));
        };
      }
    });
  };
  await measure(WARMUP.rate, WARMUP.seconds);
  // Each session's throttle bucket refills before the measured runs.
  await new Promise((r) => setTimeout(r, 2000));
  for (const rate of RATES) {
    results.set(rate, await measure(rate, SECONDS));
    await new Promise((r) => setTimeout(r, 2000));
  }
  for (const c of conns) c.socket.destroy();
  return results;
}

/** Console pushes at a fixed interval; latency from each push's send time to the W on a subscribed session. */
async function tickToW(service: ServiceProcess): Promise<Latency> {
  const ca = fs.readFileSync(path.join(service.dataDir, GENERATED_CERT_FILE), 'utf8');
  const port = (service.ready['ports'] as { fix: number }).fix;
  const a = accounts[0]!;
  const c = await Conn.open(port, ca, `TAS_${a.login}`);
  await c.logon(a.key, a.secret);
  const sentAt = new Map<number, bigint>();
  const h = histogram();
  let snapshot: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => { snapshot = resolve; });
  let waiting: ((v: void) => void) | null = null;
  c.onMessage = (type, r) => {
    if (type !== MsgType.MarketDataSnapshotFullRefresh) return;
    snapshot();
    const px = Math.round(Number(r.str(Tag.MDEntryPx)) * 100);
    const t0 = sentAt.get(px);
    if (t0 === undefined) return;
    h.recordValue(Math.max(1, Number(process.hrtime.bigint() - t0) / 1000));
    sentAt.delete(px);
    waiting?.();
  };
  c.send(MsgType.MarketDataRequest, [[262, 'bench'], [263, '1'], [264, '1'], [265, '0'], [267, '1'], [269, '0'], [146, '1'], [55, 'BTCUSD']]);
  await subscribed;
  const url = `http://127.0.0.1:${service.consolePort}/console/api/quotes`;
  for (let i = 1; i <= TICKS.count; i++) {
    const bidCents = 6_000_000 + i;
    const arrived = new Promise<void>((resolve) => { waiting = resolve; });
    sentAt.set(bidCents, process.hrtime.bigint());
    const res = await fetch(url, {
      method: 'POST', headers: { authorization: 'Bearer fix-bench-admin-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'BTCUSD', bid: bidCents / 100, ask: bidCents / 100 + 10 }),
    });
    if (res.status !== 200) throw new Error(`quote push failed: ${res.status}`);
    await arrived;
    await new Promise((r) => setTimeout(r, TICKS.intervalMs));
  }
  c.socket.destroy();
  return summary(h);
}

async function echoBaseline(): Promise<Map<number, Latency>> {
  const echo = await startChild(ECHO_JS, [], (l) => typeof l['port'] === 'number');
  try {
    const port = echo.ready['port'] as number;
    const ca = echo.ready['cert'] as string;
    const conns = await Promise.all(accounts.map((a) => Conn.open(port, ca, `TAS_${a.login}`)));
    const results = new Map<number, Latency>();
    let run = 0;
    const measure = (rate: number, seconds: number): Promise<Latency> => {
      const prefix = `e${run++}-`;
      return paced(rate, seconds, conns.length, (i, k) => conns[k]!.sendOrder(`${prefix}${i}`), (done) => {
        for (const c of conns) {
          c.onMessage = (_type, r) => {
            const id = r.str(Tag.ClOrdID) ?? '';
            if (id.startsWith(prefix)) done(Number(id.slice(prefix.length)));
          };
        }
      });
    };
    await measure(WARMUP.rate, WARMUP.seconds);
    for (const rate of RATES) results.set(rate, await measure(rate, SECONDS));
    for (const c of conns) c.socket.destroy();
    return results;
  } finally {
    await echo.stop();
  }
}

async function withService<T>(durability: 'sync' | 'none', run: (s: ServiceProcess) => Promise<T>): Promise<T> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `tas-fixbench-${durability}-`));
  const service = await startService(work, { fix: { session: '24x7' }, prices: { source: 'push' }, durability }, seed());
  try {
    return await run(service);
  } finally {
    await service.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function benchFixRoundtrip(): Promise<Row[]> {
  const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-fixbench-floor-'));
  const floor = measureFsyncFloor(floorDir);
  const pacedFloors = new Map(RATES.map((rate) => [rate, measureFsyncFloor(floorDir, rate, rate)] as const));
  fs.rmSync(floorDir, { recursive: true, force: true });
  const echo = await echoBaseline();
  const durable = await withService('sync', (s) => orderRuns(s, 's'));
  const { orders: fast, ticks, session } = await withService('none', async (s) => ({
    session: await sessionOnly(s, 2000), orders: await orderRuns(s, 'n'), ticks: await tickToW(s),
  }));
  const durableGoal = `goal p50 <= floor + 200 µs = ${us(floor.p50Us + 200)}, p99 <= 1.5 ms; `;
  const noneGoal = `goal p50 <= TLS echo + 100 µs = ${us(echo.get(GOAL_RATE)!.p50 + 100)}; `;
  const rows: Row[] = [{ name: 'fdatasync floor (data volume)', median: us(floor.p50Us), p99: us(floor.p99Us), note: 'one fdatasync of a 128 B write, back to back' }];
  for (const [rate, paced] of pacedFloors) {
    rows.push({ name: `fdatasync floor @ ${rate}/s`, median: us(paced.p50Us), p99: us(paced.p99Us), note: 'the same, one sync every 1/rate s (the disk idles in between)' });
  }
  for (const rate of RATES) {
    const e = echo.get(rate)!;
    rows.push({ name: `baseline: TLS 1.3 echo @ ${rate}/s`, median: us(e.p50), p99: us(e.p99), throughput: `${rate}/s`, note: `max ${us(e.max)}; no FIX work` });
  }
  rows.push({ name: 'TestRequest → Heartbeat @ 2000/s', median: us(session.p50), p99: us(session.p99), throughput: '2000/s', note: `TLS + session layer, no shard; max ${us(session.max)}` });
  for (const rate of RATES) {
    const d = durable.get(rate)!;
    rows.push({
      name: `D → 8, durability sync @ ${rate}/s`, median: us(d.p50), p99: us(d.p99), throughput: `${rate}/s`,
      note: `${rate === GOAL_RATE ? durableGoal : ''}max ${us(d.max)}; ${SESSIONS} sessions`,
    });
  }
  for (const rate of RATES) {
    const n = fast.get(rate)!;
    rows.push({ name: `D → 8, durability none @ ${rate}/s`, median: us(n.p50), p99: us(n.p99), throughput: `${rate}/s`, note: `${rate === GOAL_RATE ? noneGoal : ''}no fdatasync: TLS, FIX thread, shard hop and LMDB commit; max ${us(n.max)}` });
  }
  rows.push({
    name: 'tick → W (console push → streaming W)', median: us(ticks.p50), p99: us(ticks.p99),
    note: `${ticks.count} pushes; includes the HTTP push; a board poll every P ms would add P/2 on average`,
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchFixRoundtrip());
}
