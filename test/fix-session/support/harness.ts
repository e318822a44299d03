// The FIX thread's session and application layers, in the test's own thread, with an injected
// clock and in-memory transports: bytes in, bytes out. Everything between is the real code (FixSession,
// FixGateway and its desks, the ShardClient and FixShardLink over real rings) in front of a FakeShard running the
// real Engine. Every message the gateway sends is checked against the stock QuickFIX FIX44
// dictionary; the one documented exception (BusinessRejectReason 99) is the only error allowed.
import { FixGateway } from '../../../src/fix/app/gateway.js';
import type { AppDeps, FixSymbol, KeyDirectory, QuoteSource, UnsealedKey } from '../../../src/fix/app/ports.js';
import { contractDecimal } from '../../../src/fix/app/units.js';
import { hoursText, sessionConfigOf } from '../../../src/fix/fix-config.js';
import { FixShardLink } from '../../../src/fix/shard-link.js';
import { ShardClient } from '../../../src/shard/client.js';
import { RingTransport } from '../../../src/shard/ring-transport.js';
import { FixSession } from '../../../src/fix/session/session.js';
import type { Transport } from '../../../src/fix/session/outbox.js';
import type { SessionConfig, SessionLog } from '../../../src/fix/session/types.js';
import type { AppConfig, KeyScope } from '../../../src/config/types.js';
import type { AccountRecord, Quote, SessionSpec, SymbolSpec } from '../../../src/engine/types.js';
import { compileSession } from '../../../src/engine/market-session.js';
import type { KeyRecord } from '../../../src/store/records.js';
import { validateFix44 } from '../../fix/support/qf-validator.js';
import { FakeShard } from './fake-shard.js';

/** Wednesday 2026-03-04 12:00:00 UTC. */
export const T0 = Date.UTC(2026, 2, 4, 12, 0, 0);
export const SOH = '\x01';

export const EURUSD: SymbolSpec = { name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7' };
export const BTCUSD: SymbolSpec = { name: 'BTCUSD', digits: 2, contractSize: 1, maxVolume: 1_000, baseCurrency: 'BTC', quoteCurrency: 'USD', session: '24x7' };

/** Trades one hour a week (Sunday 00:00-01:00 UTC): closed at T0. */
export const XAUUSD: SymbolSpec = {
  name: 'XAUUSD', digits: 2, contractSize: 100, maxVolume: 5_000, baseCurrency: 'XAU', quoteCurrency: 'USD',
  session: { tz: '+00:00', open: 'Sun 00:00', close: 'Sun 01:00' },
};

export function accountRecord(login: string): AccountRecord {
  return {
    login, user: 'u1', type: 'demo', group: 'demo\\ECN', currency: 'USD', leverage: 100, server: 'Demo-1', balance: 10_000_000,
    margin: 0, seq: 0, accountHalted: false, userHalted: false,
  };
}

export function keyRecord(id: string, login: string, over: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id, sealedSecret: 'unused', name: id, login, scopes: ['read', 'trade'] as KeyScope[], rateLimit: 20, ipWhitelist: [],
    expiresAt: null, status: 'Active', createdAt: T0 - 86_400_000, revokedAt: null, halted: false, ...over,
  };
}

export const SECRET = 'secret-0123456789';

export class FakeClock {
  now = T0;
  readonly nowMs = (): number => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

class MemoryKeys implements KeyDirectory {
  readonly records = new Map<string, KeyRecord>();
  key(id: string): UnsealedKey | null {
    const record = this.records.get(id);
    return record === undefined ? null : { record, secret: Buffer.from(SECRET) };
  }
}

class BoardOfQuotes implements QuoteSource {
  readonly quotes = new Map<string, Quote>();
  quote(symbol: string): Quote | null {
    return this.quotes.get(symbol) ?? null;
  }
}

/** One outbound message, as the client sees it. */
export class Msg {
  readonly fields: readonly (readonly [number, string])[];
  constructor(readonly raw: string) {
    this.fields = raw.split(SOH).filter((f) => f !== '').map((f) => {
      const eq = f.indexOf('=');
      return [Number(f.slice(0, eq)), f.slice(eq + 1)] as const;
    });
  }
  get type(): string {
    return this.get(35) ?? '';
  }
  get seq(): number {
    return Number(this.get(34));
  }
  get(tag: number): string | undefined {
    return this.fields.find(([t]) => t === tag)?.[1];
  }
  all(tag: number): string[] {
    return this.fields.filter(([t]) => t === tag).map(([, v]) => v);
  }
  toString(): string {
    return this.raw.replaceAll(SOH, '|');
  }
}

function splitFrames(text: string): string[] {
  const out: string[] = [];
  let p = 0;
  while (p < text.length) {
    const end = text.indexOf(`${SOH}10=`, p);
    const stop = text.indexOf(SOH, end + 4) + 1;
    out.push(text.slice(p, stop));
    p = stop;
  }
  return out;
}

/** A complete frame from "35=..|..." body text ('|' for SOH): BeginString, BodyLength and CheckSum added. */
export function frame(body: string, beginString = 'FIX.4.4'): Buffer {
  const b = body.replaceAll('|', SOH);
  const head = `8=${beginString}${SOH}9=${Buffer.byteLength(b, 'latin1')}${SOH}`;
  let sum = 0;
  for (const c of Buffer.from(head + b, 'latin1')) sum += c;
  return Buffer.from(`${head}${b}10=${String(sum % 256).padStart(3, '0')}${SOH}`, 'latin1');
}

export function utc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 23)}`;
}

export interface HeaderOptions {
  readonly sender?: string;
  readonly target?: string;
  readonly sendingTimeMs?: number;
  readonly possDup?: boolean;
  readonly origSendingTimeMs?: number;
}

export class Client implements Transport {
  readonly session: FixSession;
  closed = false;
  backlogged = false;
  private inbox = '';
  private readonly all: Msg[] = [];
  constructor(private readonly h: Harness, readonly remoteAddress: string, readonly sender: string) {
    this.session = new FixSession(h.config, h.gateway, this);
  }

  write(bytes: Buffer): void {
    this.inbox += bytes.toString('latin1');
    for (const raw of splitFrames(this.inbox)) {
      const errors = validateFix44(Buffer.from(raw, 'latin1')).filter((e) => !e.startsWith('BusinessMessageReject: BusinessRejectReason=99 '));
      if (errors.length > 0) this.h.dictionaryErrors.push(`${raw.replaceAll(SOH, '|')}: ${errors.join('; ')}`);
      this.all.push(new Msg(raw));
    }
    this.inbox = '';
  }

  close(): void {
    this.closed = true;
  }

  /** Raw bytes, then the turn ends as the worker ends it (shard batches and flushes). */
  sendRaw(bytes: Buffer): void {
    this.session.receive(bytes);
    this.h.pump();
  }

  /** A message with a correct header (override any part) and the given body ('|'-separated fields). */
  send(msgType: string, seq: number, body = '', o: HeaderOptions = {}): void {
    const dup = o.possDup === true ? '43=Y|' : '';
    const orig = o.origSendingTimeMs === undefined ? '' : `122=${utc(o.origSendingTimeMs)}|`;
    const header = `35=${msgType}|34=${seq}|49=${o.sender ?? this.sender}|52=${utc(o.sendingTimeMs ?? this.h.clock.now)}|56=${o.target ?? 'TASGW'}|${dup}${orig}`;
    this.sendRaw(frame(header + (body === '' || body.endsWith('|') ? body : `${body}|`)));
  }

  logon(seq = 1, over: { key?: string; secret?: string; extra?: string; heartBtInt?: number } = {}): void {
    const extra = over.extra ?? '141=Y|';
    this.send('A', seq, `98=0|108=${over.heartBtInt ?? 30}|${extra}553=${over.key ?? 'key-1'}|554=${over.secret ?? SECRET}`);
  }

  /** Messages received since the last call. */
  take(): Msg[] {
    return this.all.splice(0);
  }

  /** The one message received since the last call (fails when there are more or none). */
  one(): Msg {
    const got = this.take();
    if (got.length !== 1) throw new Error(`expected one message, got ${got.length}: ${got.map(String).join(' / ')}`);
    return got[0]!;
  }

  timer(): void {
    this.session.onTimer();
    this.h.pump();
  }
}

export interface HarnessOptions {
  readonly hours?: SessionSpec;
  readonly shardRingBytes?: number;
  readonly heartbeatS?: number;
  /** fix.cancel_on_disconnect (default false). */
  readonly cancelOnDisconnect?: boolean;
}

export class Harness {
  readonly clock = new FakeClock();
  readonly keys = new MemoryKeys();
  readonly board = new BoardOfQuotes();
  readonly shard: FakeShard;
  readonly client: ShardClient;
  readonly gateway: FixGateway;
  readonly config: SessionConfig;
  readonly dictionaryErrors: string[] = [];
  readonly logs: { msg: string; obj: object }[] = [];

  constructor(opts: HarnessOptions = {}) {
    const symbols: SymbolSpec[] = [EURUSD, BTCUSD, XAUUSD];
    const quotes: Quote[] = [
      { symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: T0 },
      { symbol: 'BTCUSD', bid: 6_500_000, ask: 6_502_000, ts: T0 },
      { symbol: 'XAUUSD', bid: 235_000, ask: 235_040, ts: T0 },
    ];
    for (const q of quotes) this.board.quotes.set(q.symbol, q);
    this.shard = new FakeShard({
      shardId: 0, idCounter: 0, symbols, accounts: ['100001', '100002', '100003'].map(accountRecord), pendingOrders: [], positions: [],
      clientIds: [], haltedKeys: [], quotes, clientIdRetentionMs: 86_400_000,
    }, this.clock.nowMs, opts.shardRingBytes);
    const log: SessionLog = {
      info: (obj, msg) => this.logs.push({ msg, obj }), warn: (obj, msg) => this.logs.push({ msg, obj }), error: (obj, msg) => this.logs.push({ msg, obj }),
    };
    this.client = new ShardClient(new RingTransport([this.shard.toShard], [this.shard.fromShard]), (err) => log.error({ err }, 'shard answer handler failed'));
    const shards = new FixShardLink(this.client);
    const hours = opts.hours ?? '24x7';
    const deps: AppDeps = {
      shards, quotes: this.board, keys: this.keys,
      symbols: new Map<string, FixSymbol>(symbols.map((spec) => [spec.name, { spec, contract: contractDecimal(spec) }])),
      senderPrefix: 'TAS', hours: compileSession(hours), hoursText: hoursText(hours), cancelOnDisconnect: opts.cancelOnDisconnect ?? false,
    };
    this.gateway = new FixGateway(deps, this.clock.nowMs, log);
    shards.connect(this.gateway);
    const fix: AppConfig['fix'] = {
      host: '127.0.0.1', port: 0, sender_prefix: 'TAS', target_comp_id: 'TASGW', session: hours, tls: { cert: null, key: null },
      heartbeat_s: opts.heartbeatS ?? 30, logon_timeout_ms: 5000, cancel_on_disconnect: opts.cancelOnDisconnect ?? false,
    };
    this.config = sessionConfigOf(fix);
    this.keys.records.set('key-1', keyRecord('key-1', '100001'));
    this.keys.records.set('key-2', keyRecord('key-2', '100002'));
  }

  connect(sender = 'TAS_100001', remoteAddress = '127.0.0.1'): Client {
    return new Client(this, remoteAddress, sender);
  }

  /** A logged-on client of account 100001 (its Logon answer already taken). */
  loggedOn(sender = 'TAS_100001', key = 'key-1'): Client {
    const c = this.connect(sender);
    c.logon(1, { key });
    const answer = c.take();
    if (answer[0]?.type !== 'A') throw new Error(`logon failed: ${answer.map(String).join(' / ')}`);
    return c;
  }

  /** Runs the shard and the client until neither has anything left, then flushes, as the worker does. */
  pump(): void {
    for (let guard = 0; guard < 100; guard++) {
      this.client.flush();
      const n = this.shard.process() + this.client.receive(Number.POSITIVE_INFINITY);
      this.gateway.flush();
      if (n === 0) return;
    }
    throw new Error('pump did not settle');
  }

  tick(symbol: string, bid: number, ask: number): void {
    const quote = { symbol, bid, ask, ts: this.clock.now };
    this.board.quotes.set(symbol, quote);
    this.shard.tick(quote);
    this.gateway.onQuote(quote);
    this.pump();
  }
}
