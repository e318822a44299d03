// Shared test fixtures: a small symbol table, accounts in three currencies, command builders.
import { Engine } from '../../src/engine/engine.js';
import type {
  AccountRecord, Centilots, Command, EngineInit, Outcome, PlaceOrder, Quote, Reject, Result, Side, Sizing, Source, SymbolSpec, Ticks,
} from '../../src/engine/types.js';

export const DAY_MS = 86_400_000;
/** Wednesday 2024-01-10 12:00 UTC: inside the FX week. */
export const WED_NOON = Date.UTC(2024, 0, 10, 12);
/** Saturday 2024-01-13 12:00 UTC: the FX week is closed. */
export const SAT_NOON = Date.UTC(2024, 0, 13, 12);

export const EURUSD: SymbolSpec = { name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7' };
export const USDJPY: SymbolSpec = { name: 'USDJPY', digits: 3, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'USD', quoteCurrency: 'JPY', session: '24x7' };
/** A CFD: margin in the quote currency at the open price. */
export const US500: SymbolSpec = { name: 'US500', digits: 1, contractSize: 10, maxVolume: 5_000, baseCurrency: null, quoteCurrency: 'USD', session: '24x7' };
/** Trades the documented FX week only. */
export const GBPUSD: SymbolSpec = {
  name: 'GBPUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'GBP', quoteCurrency: 'USD',
  session: { tz: '+03:00', open: 'Sun 23:05', close: 'Fri 23:55' },
};
/** No route from its currencies to USD or EUR: orders on it are refused, not guessed. */
export const CHFSEK: SymbolSpec = { name: 'CHFSEK', digits: 4, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'CHF', quoteCurrency: 'SEK', session: '24x7' };

export const SYMBOLS: readonly SymbolSpec[] = [EURUSD, USDJPY, US500, GBPUSD, CHFSEK];

export const QUOTES: readonly Quote[] = [
  { symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: WED_NOON },
  { symbol: 'USDJPY', bid: 150_000, ask: 150_020, ts: WED_NOON },
  { symbol: 'US500', bid: 47_000, ask: 47_005, ts: WED_NOON },
  { symbol: 'GBPUSD', bid: 127_000, ask: 127_020, ts: WED_NOON },
  { symbol: 'CHFSEK', bid: 120_000, ask: 120_100, ts: WED_NOON },
];

export function account(login: string, currency: string, balance: number, extra: Partial<AccountRecord> = {}): AccountRecord {
  return {
    login, user: `user-${login}`, type: 'demo', group: 'demo\\ECN', currency, leverage: 100, server: 'Demo-1',
    balance, margin: 0, seq: 0, accountHalted: false, userHalted: false, ...extra,
  };
}

export function init(over: Partial<EngineInit> = {}): EngineInit {
  return {
    shardId: 3, idCounter: 0, symbols: SYMBOLS,
    accounts: [account('usd1', 'USD', 1_000_000), account('eur1', 'EUR', 1_000_000), account('usd2', 'USD', 1_000_000)],
    pendingOrders: [], positions: [], clientIds: [], haltedKeys: [], quotes: QUOTES, clientIdRetentionMs: DAY_MS, ...over,
  };
}

export function engine(over: Partial<EngineInit> = {}): Engine {
  return new Engine(init(over));
}

/** A PlaceOrder's terms besides its size (a volume or a sizing rule). */
type PlaceTerms = Omit<PlaceOrder, 'volume' | 'sizing'>;

function terms(login: string, symbol: string, side: Side, over: Partial<PlaceTerms>): PlaceTerms {
  return {
    kind: 'place', login, symbol, side, type: 'market', price: null, sl: null, tp: null,
    clientId: null, source: 'api', keyId: 'key1', webhookId: null, ...over,
  };
}

export function place(login: string, symbol: string, side: Side, volume: Centilots, over: Partial<PlaceTerms> = {}): PlaceOrder {
  return { ...terms(login, symbol, side, over), volume, sizing: null };
}

export function pending(login: string, symbol: string, side: Side, type: 'limit' | 'stop', price: Ticks, volume: Centilots, over: Partial<PlaceTerms> = {}): PlaceOrder {
  return place(login, symbol, side, volume, { type, price, ...over });
}

export function sized(login: string, symbol: string, side: Side, rule: Sizing, signalVolume: Centilots | null, over: Partial<PlaceTerms> = {}): PlaceOrder {
  return { ...terms(login, symbol, side, { source: 'webhook', keyId: null, webhookId: 'wh1', ...over }), volume: null, sizing: { rule, signalVolume } };
}

export function close(login: string, ticket: number, volume: Centilots | null = null, source: Source = 'api'): Command {
  return { kind: 'close', login, ticket, volume, source, keyId: source === 'api' ? 'key1' : null };
}

export function tick(symbol: string, bid: Ticks, ask: Ticks, ts = WED_NOON): Command {
  return { kind: 'tick', quote: { symbol, bid, ask, ts } };
}

/** The result of an outcome that must have succeeded. */
export function ok<K extends Result['kind']>(o: Outcome, kind: K): Extract<Result, { kind: K }> {
  if (!o.result.ok) throw new Error(`expected ${kind}, got reject ${o.result.name}: ${o.result.message}`);
  if (o.result.kind !== kind) throw new Error(`expected ${kind}, got ${o.result.kind}`);
  return o.result as Extract<Result, { kind: K }>;
}

export function rejected(o: Outcome): Reject {
  if (o.result.ok) throw new Error(`expected a reject, got ${o.result.kind}`);
  return o.result;
}
