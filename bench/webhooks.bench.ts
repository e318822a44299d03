// Signal fan-out and the kill switch through the real service process (HTTP, its configured shards, LMDB with
// durability sync), driven from this process over loopback:
//   - one signal fanned out to 100 target accounts at a fixed 20 signals/s, alternating `buy` (100
//     positions opened) and `close_all` (100 closed), after 3 s of the same as warm-up (its
//     figures a row of their own): the server's own `latency_ms` (request in →
//     answer out) and the driver's round trip from each signal's intended send time
//     (coordinated-omission safe), beside GET /health at the same rate (the HTTP floor) and the
//     fdatasync floor of the data volume, both measured in the same run;
//   - the kill switch flattening 10 000 positions on 1 000 accounts: trigger request to the report's
//     last byte (the driver's parse of it noted apart);
//   - the secret checks with the right secret and with wrong ones differing first or last: a 401
//     must take as long as a success (the medians should match).
// The server and this driver share the machine's 2 cores.
// Run on its own: `npx tsc -p tsconfig.json && node dist/bench/webhooks.bench.js`.
import { NO_STOP_OUT } from '../src/engine/stop-out.js';
import { build, type Histogram } from 'hdr-histogram-js';
import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import type { Command, Result, SymbolSpec } from '../src/engine/types.js';
import { secretMatches, signatureMatches } from '../src/gateway/webhooks/signal-auth.js';
import type { LiveWebhook } from '../src/gateway/webhooks/webhook-book.js';
import { QuoteBoard } from '../src/market/quote-board.js';
import { ShardPool } from '../src/shard/pool.js';
import { createLogger } from '../src/base/log.js';
import { startService, type ServiceProcess } from './support/child-process.js';
import { SERVICE_DEFAULTS } from './support/service-defaults.js';
import { measureFsyncFloor } from './support/fsync-floor.js';
import { percentile, perSec, us, type Row } from './support/stats.js';

const TOKEN = 'bench-admin-token-0123456789';
const FAN_TARGETS = 100;
/** Enough webhooks that none passes its limit (burst 10) during the run. */
const FAN_HOOKS = 50;
const SIGNALS = 300;
/** Signals sent before the measured ones, at the same rate (3 s). */
const WARMUP_SIGNALS = 60;
const SIGNALS_PER_SEC = 20;
const KILL_ACCOUNTS = 1000;
const POSITIONS_PER_ACCOUNT = 10;
const KILL_ROUNDS = 5;
/** The service runs with its default shard count; the baselines straight to the shards use the same. */
const SHARDS = SERVICE_DEFAULTS.shards;

const logins = (base: number, n: number): string[] => Array.from({ length: n }, (_, i) => String(base + i));
const FAN_LOGINS = logins(800_001, FAN_TARGETS);
const KILL_LOGINS = logins(900_001, KILL_ACCOUNTS);
const hookSecret = (id: string): string => `${id}-secret-0123456789`;

function seed(): Record<string, unknown> {
  const user = (id: string) => ({ id, password: `password-${id}`, totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' });
  const account = (login: string, owner: string) => ({ login, user: owner, currency: 'USD', balance: 1_000_000, leverage: 100 });
  const hook = (id: string, owner: string, targets: readonly string[]) => ({
    id, user: owner, secret: hookSecret(id), symbols: ['EURUSD'],
    targets: targets.map((login) => ({ login, sizing: { type: 'fixed', lots: 0.01 } })),
  });
  return {
    console: { admin_token: TOKEN },
    symbols: [{ name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, session: '24x7' }],
    users: [user('fan'), user('kill')],
    accounts: [...FAN_LOGINS.map((l) => account(l, 'fan')), ...KILL_LOGINS.map((l) => account(l, 'kill'))],
    webhooks: [
      ...Array.from({ length: FAN_HOOKS }, (_, i) => hook(`fan-${i}`, 'fan', FAN_LOGINS)),
      ...Array.from({ length: KILL_ROUNDS }, (_, i) => hook(`kill-${i}`, 'kill', KILL_LOGINS)),
    ],
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Answered {
  readonly status: number;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** When the answer's last byte arrived, before this driver parsed it. */
  readonly receivedNs: bigint;
}

function post(port: number, pathName: string, body: unknown, headers: Record<string, string> = {}): Promise<Answered> {
  return request(port, 'POST', pathName, JSON.stringify(body), headers);
}

function request(port: number, method: string, pathName: string, body: string | null, headers: Record<string, string> = {}): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathName, agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const receivedNs = process.hrtime.bigint();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') as unknown, receivedNs });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

const operator = (s: ServiceProcess, pathName: string, body: unknown = {}) => post(s.consolePort, pathName, body, { authorization: `Bearer ${TOKEN}` });

function histogram(): Histogram {
  return build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
}

/** Calls `send(i)` at a fixed rate; each latency counts from the call's intended start. */
async function atFixedRate(count: number, perSecond: number, send: (i: number) => Promise<void>): Promise<Histogram> {
  const hist = histogram();
  const intervalNs = 1e9 / perSecond;
  const start = process.hrtime.bigint();
  const inFlight: Promise<void>[] = [];
  let failure: unknown = null;
  for (let i = 0; i < count && failure === null; i++) {
    const intendedNs = start + BigInt(Math.round(i * intervalNs));
    const waitMs = Number(intendedNs - process.hrtime.bigint()) / 1e6;
    if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    inFlight.push(send(i).then(
      () => { hist.recordValue(Math.max(1, Number(process.hrtime.bigint() - intendedNs) / 1000)); },
      (err: unknown) => { failure ??= err; },
    ));
  }
  await Promise.all(inFlight);
  if (failure !== null) throw failure;
  return hist;
}

interface Signalled { readonly serverMs: Record<'buy' | 'close_all', number[]>; readonly roundTrip: Histogram }

/** `count` signals at the signals' rate, numbered from `first` (a signal's number picks its webhook and action). */
async function signals(s: ServiceProcess, first: number, count: number): Promise<Signalled> {
  const serverMs: Record<'buy' | 'close_all', number[]> = { buy: [], close_all: [] };
  const roundTrip = await atFixedRate(count, SIGNALS_PER_SEC, async (n) => {
    const i = first + n;
    const id = `fan-${Math.floor(i / 2) % FAN_HOOKS}`;
    const action = i % 2 === 0 ? 'buy' : 'close_all';
    const res = await post(s.httpPort, `/v1/signal/${id}`, { secret: hookSecret(id), action, symbol: 'EURUSD' });
    const failed = (res.body?.fanout ?? []).filter((f: { error?: unknown }) => f.error !== undefined);
    if (res.status !== 200 || failed.length > 0) throw new Error(`signal ${i} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    serverMs[action].push(res.body.latency_ms as number);
  });
  return { serverMs, roundTrip };
}

async function fanOut(s: ServiceProcess): Promise<Row[]> {
  // The first signals after start run the signal path's code cold (V8 compiles it as it goes);
  // they are a row of their own, and the rows below measure the service warm, as the REST and FIX
  // benches do.
  const cold = await signals(s, 0, WARMUP_SIGNALS);
  const { serverMs, roundTrip } = await signals(s, WARMUP_SIGNALS, SIGNALS);
  const health = await atFixedRate(SIGNALS, SIGNALS_PER_SEC, async () => {
    const res = await request(s.httpPort, 'GET', '/health', null);
    if (res.status !== 200) throw new Error('health check failed');
  });
  const fsync = measureFsyncFloor(s.dataDir);
  const pacedFsync = measureFsyncFloor(s.dataDir, 100, SIGNALS_PER_SEC);
  const note = `${SIGNALS} signals at ${SIGNALS_PER_SEC}/s over ${FAN_HOOKS} webhooks; server and driver share 2 cores`;
  const ms = (v: number): string => us(v * 1000);
  return [
    { name: 'signal buy → 100 targets, server latency_ms', median: ms(percentile(serverMs.buy, 0.5)), p99: ms(percentile(serverMs.buy, 0.99)), note: `goal p99 < 5 ms; 100 positions opened; ${SHARDS} shard(s); after ${WARMUP_SIGNALS} signals of warm-up` },
    { name: 'signal close_all → 100 targets, server latency_ms', median: ms(percentile(serverMs.close_all, 0.5)), p99: ms(percentile(serverMs.close_all, 0.99)), note: '100 positions closed' },
    { name: `signal buy/close_all, the first ${WARMUP_SIGNALS} after start (cold)`, median: ms(percentile([...cold.serverMs.buy, ...cold.serverMs.close_all], 0.5)), p99: ms(percentile([...cold.serverMs.buy, ...cold.serverMs.close_all], 0.99)), note: 'server latency_ms while V8 still compiles the signal path (the warm-up of the rows above)' },
    { name: 'signal round trip (driver, from intended send)', median: us(roundTrip.getValueAtPercentile(50)), p99: us(roundTrip.getValueAtPercentile(99)), throughput: perSec(SIGNALS_PER_SEC * FAN_TARGETS), note: `${note}; throughput in orders/s` },
    { name: 'baseline: GET /health round trip', median: us(health.getValueAtPercentile(50)), p99: us(health.getValueAtPercentile(99)), note: 'same listener, same rate' },
    { name: 'baseline: fdatasync floor (data volume)', median: us(fsync.p50Us), p99: us(fsync.p99Us), note: 'one fsync per shard batch bounds every acknowledged order' },
    { name: `baseline: fdatasync floor @ ${SIGNALS_PER_SEC}/s`, median: us(pacedFsync.p50Us), p99: us(pacedFsync.p99Us), note: 'the same, at the signals\' rate (the disk idles in between)' },
  ];
}

type Ok = (login: string, cmd: Command) => Promise<ReplyResult>;
type ReplyResult = Result;

/**
 * Baselines below the gateway: the same commands sent straight to 2 shard workers from this
 * process (no HTTP, no webhook or kill switch code), so the rows above show what the gateway adds.
 */
async function shardBaselines(work: string): Promise<{ fan: Row; kill: Row }> {
  const spec: SymbolSpec = { name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7' };
  const board = QuoteBoard.create([spec.name]);
  const quote = { symbol: spec.name, bid: 110_000, ask: 110_020, ts: Date.now() };
  board.write(quote);
  const pool = await ShardPool.start({
    shards: SHARDS, dataDir: path.join(work, 'baseline'), durability: 'sync', logLevel: 'warn', symbols: [spec], marginPolicy: NO_STOP_OUT,
    board: { sab: board.sab, symbols: board.symbols }, clientIdRetentionMs: 24 * 3600_000, clientIdMemoryMs: 60_000, eventRetentionMs: 24 * 3600_000, haltedKeys: [], log: createLogger('warn'),
    idle: 'park', journal: { segment_bytes: 32 << 20, sync_method: 'fdatasync', dir: null },
    onFatal: (err) => { throw err; },
  });
  pool.run();
  const ok: Ok = async (login, cmd) => {
    const { answer } = await pool.calls.request(login, cmd);
    if (answer.t !== 'done') throw new Error(`baseline command refused: ${JSON.stringify(answer)}`);
    return answer.result;
  };
  const buy = (login: string): Command => ({
    kind: 'place', login, symbol: spec.name, side: 'buy', type: 'market', volume: 1, sizing: null,
    price: null, sl: null, tp: null, clientId: null, source: 'webhook', keyId: null, webhookId: 'b',
  });
  try {
    await Promise.all([...FAN_LOGINS, ...KILL_LOGINS].map((login) => ok(login, {
      kind: 'upsertAccount', account: { login, user: 'b', type: 'demo', group: 'demo', currency: 'USD', leverage: 100, server: 'b', balance: 100_000_000 },
    })));
    pool.client.tick(quote);
    return { fan: await fanBaseline(ok, buy), kill: await killBaseline(ok, buy) };
  } finally {
    await pool.stop();
  }
}

/** 100 market orders at once, then their 100 closes, alternating at the signals' rate. */
async function fanBaseline(ok: Ok, buy: (login: string) => Command): Promise<Row> {
  let opened: Promise<ReplyResult[]> = Promise.resolve([]);
  let samples: number[] = [];
  const bursts = (count: number) => atFixedRate(count, SIGNALS_PER_SEC, async (i) => {
    if (i % 2 === 0) {
      const t0 = process.hrtime.bigint();
      opened = Promise.all(FAN_LOGINS.map((login) => ok(login, buy(login))));
      await opened;
      samples.push(Number(process.hrtime.bigint() - t0) / 1000);
      return;
    }
    // A close needs the tickets of the burst before it (a signal's close_all does not).
    const tickets = (await opened).map((r) => (r.kind === 'place' ? r.order.ticket ?? 0 : 0));
    const t0 = process.hrtime.bigint();
    await Promise.all(FAN_LOGINS.map((login, k) => ok(login, { kind: 'close', login, ticket: tickets[k]!, volume: null, source: 'webhook', keyId: null })));
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  });
  // The same warm-up as the signals (an even count: it ends with the close of its last burst).
  await bursts(WARMUP_SIGNALS);
  samples = [];
  await bursts(SIGNALS);
  return {
    name: 'baseline: 100 orders straight to the shards', median: us(percentile(samples, 0.5)), p99: us(percentile(samples, 0.99)),
    note: 'ShardPool in the driver, no HTTP or webhook code; opens and closes alternating like the signals',
  };
}

/** 1000 `killSwitch` commands at once over 10 000 positions. */
async function killBaseline(ok: Ok, buy: (login: string) => Command): Promise<Row> {
  const times: number[] = [];
  for (let round = 0; round < KILL_ROUNDS; round++) {
    for (let n = 0; n < POSITIONS_PER_ACCOUNT; n++) await Promise.all(KILL_LOGINS.map((login) => ok(login, buy(login))));
    const t0 = process.hrtime.bigint();
    const results = await Promise.all(KILL_LOGINS.map((login) => ok(login, { kind: 'killSwitch', login, scope: 'user', active: true })));
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
    const closed = results.reduce((sum, r) => sum + (r.kind === 'killSwitch' ? r.closed.length : 0), 0);
    if (closed !== KILL_ACCOUNTS * POSITIONS_PER_ACCOUNT) throw new Error(`baseline kill switch closed ${closed}`);
    await Promise.all(KILL_LOGINS.map((login) => ok(login, { kind: 'killSwitch', login, scope: 'user', active: false })));
  }
  return {
    name: 'baseline: 1000 killSwitch commands straight to the shards', median: us(percentile(times, 0.5)), p99: us(Math.max(...times)),
    note: 'ShardPool in the driver: the shards\' share of the row above',
  };
}

async function killSwitch(s: ServiceProcess): Promise<Row[]> {
  const times: number[] = [];
  const parseTimes: number[] = [];
  for (let round = 0; round < KILL_ROUNDS; round++) {
    const id = `kill-${round}`;
    // The previous round's trigger paused every webhook of the user (a reset leaves them paused).
    if ((await operator(s, `/console/api/webhooks/${id}/resume`)).status !== 200) throw new Error('resume failed');
    for (let n = 0; n < POSITIONS_PER_ACCOUNT; n++) {
      const res = await post(s.httpPort, `/v1/signal/${id}`, { secret: hookSecret(id), action: 'buy', symbol: 'EURUSD' });
      const traded = (res.body?.fanout ?? []).filter((f: { ticket?: number }) => Number.isInteger(f.ticket)).length;
      if (res.status !== 200 || traded !== KILL_ACCOUNTS) throw new Error(`opening positions failed: ${res.status} ${traded} traded`);
    }
    const t0 = process.hrtime.bigint();
    const report = await operator(s, '/console/api/users/kill/kill-switch/trigger');
    // To the report's last byte, as the REST rows count (their driver parses no JSON): the
    // driver's own JSON.parse of the 1.5 MB is noted beside it.
    times.push(Number(report.receivedNs - t0) / 1000);
    parseTimes.push(Number(process.hrtime.bigint() - report.receivedNs) / 1000);
    const closed = report.body?.closed?.length;
    if (report.status !== 200 || closed !== KILL_ACCOUNTS * POSITIONS_PER_ACCOUNT || report.body.failed.length > 0) {
      throw new Error(`kill switch closed ${closed}: ${report.status} ${JSON.stringify(report.body).slice(0, 300)}`);
    }
    const reset = await operator(s, '/console/api/users/kill/kill-switch/reset');
    if (reset.status !== 200) throw new Error(`reset failed: ${reset.status}`);
  }
  return [{
    name: `kill switch: ${KILL_ACCOUNTS * POSITIONS_PER_ACCOUNT} positions on ${KILL_ACCOUNTS} accounts`,
    median: us(percentile(times, 0.5)), p99: us(Math.max(...times)),
    note: `trigger request → the report's last byte, ${KILL_ROUNDS} rounds (p99 = worst, the first of them cold); goal < 50 ms; `
      + `then the driver's JSON.parse of it: median ${us(percentile(parseTimes, 0.5))}`,
  }];
}

/** The credential checks on their own: right, wrong at the first character, wrong at the last. */
async function secretTiming(): Promise<Row[]> {
  const secret = 'bench-webhook-secret-0123456789abcdef';
  const hook: LiveWebhook = {
    record: { id: 'b', user: 'b', sealedSecret: '', symbols: [], targets: [], paused: false, createdAt: 0 },
    secret: Buffer.from(secret), secretDigest: createHash('sha256').update(secret).digest(),
  };
  const body = Buffer.from(JSON.stringify({ action: 'buy', symbol: 'EURUSD', comment: 'bench' }));
  const sig = createHmac('sha256', secret).update(body).digest('hex');
  const flip = (text: string, at: number): string => text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1);
  const [secretFirst, secretLast, sigFirst, sigLast] = [flip(secret, 0), flip(secret, secret.length - 1), flip(sig, 0), flip(sig, sig.length - 1)];
  const cases: [string, () => boolean][] = [
    ['body secret: right', () => secretMatches(hook, secret)],
    ['body secret: wrong first char', () => secretMatches(hook, secretFirst)],
    ['body secret: wrong last char', () => secretMatches(hook, secretLast)],
    ['X-Svc-Signature: right', () => signatureMatches(hook, sig, body)],
    ['X-Svc-Signature: wrong first digit', () => signatureMatches(hook, sigFirst, body)],
    ['X-Svc-Signature: wrong last digit', () => signatureMatches(hook, sigLast, body)],
  ];
  const bench = new Bench({ name: 'secret checks', time: 500, warmupTime: 100 });
  for (const [name, fn] of cases) bench.add(name, () => { if (fn() !== name.endsWith('right')) throw new Error(`${name} answered wrong`); });
  await bench.run();
  return cases.map(([name], i) => {
    const result = bench.tasks[i]?.result;
    if (result === undefined || !('latency' in result)) throw new Error(`bench task ${name} did not complete`);
    return { name, median: us(result.latency.p50 * 1000), p99: us(result.latency.p99 * 1000), note: 'constant time: the rows of one form should match' };
  });
}

export async function benchWebhooks(): Promise<Row[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-bench-webhooks-'));
  const server = await startService(work, { prices: { source: 'push' }, log: { level: 'info' } }, seed());
  try {
    const fan = await fanOut(server);
    const kill = await killSwitch(server);
    // The baselines run with the service stopped, so the two never compete for the cores.
    await server.stop();
    const base = await shardBaselines(work);
    return [...fan.slice(0, 3), base.fan, ...fan.slice(3), ...kill, base.kill, ...await secretTiming()];
  } finally {
    if (server.child.exitCode === null) await server.stop();
    agent.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchWebhooks());
