// The trading core's vocabulary. Every quantity is an integer in a named unit:
//   volumes   – centilots (hundredths of a lot), 0.01 lot = 1
//   prices    – ticks, the price × 10^digits of its symbol (EURUSD 1.08500 = 108500)
//   money     – cents of the account currency (1/100 of a unit), rounded half away from zero
//   time      – Unix milliseconds, always passed in (the core never reads a clock)
// Gateways convert to and from the decimal numbers of the wire formats at the edge.

// Each unit is a number carrying its unit's name in the type only (nothing at run time): a plain
// number (a literal, a sum, a wire value already converted) is taken as any unit, but a value typed
// in one unit is refused where another is asked, so a price cannot be passed as a volume unless a
// conversion the compiler sees (or a detour through `number`) makes it one. The mark is optional on
// purpose: arithmetic on units gives plain numbers, and a required mark would put a cast on every
// sum in the core and every literal in the tests.
declare const unit: unique symbol;
export type Centilots = number & { readonly [unit]?: 'centilots' };
export type Ticks = number & { readonly [unit]?: 'ticks' };
export type Cents = number & { readonly [unit]?: 'cents' };
export type UnixMs = number & { readonly [unit]?: 'unixMs' };

export type Side = 'buy' | 'sell';
export type OrderType = 'market' | 'limit' | 'stop';
export type Source = 'manual' | 'api' | 'webhook' | 'strategy' | 'copy';
export const SOURCES: readonly Source[] = ['manual', 'api', 'webhook', 'strategy', 'copy'];
/** Sources a kill switch stops (spec "What the service does" 7). */
export const KILLABLE_SOURCES: ReadonlySet<Source> = new Set(['api', 'webhook', 'strategy']);

/** A weekly trading window: `open`/`close` as "Sun 23:05" in the zone `tz` ("+03:00"). */
export interface WeeklySession { readonly tz: string; readonly open: string; readonly close: string }
export type SessionSpec = '24x7' | WeeklySession;

export interface SymbolSpec {
  readonly name: string;
  readonly digits: number;
  readonly contractSize: number;
  /** Largest order volume. */
  readonly maxVolume: Centilots;
  /** Base currency ("EUR" of EURUSD); absent for CFDs quoted in one currency. Margin is in it when set. */
  readonly baseCurrency: string | null;
  /** Profit currency ("USD" of EURUSD). */
  readonly quoteCurrency: string;
  readonly session: SessionSpec;
}

export interface Quote { readonly symbol: string; readonly bid: Ticks; readonly ask: Ticks; readonly ts: UnixMs }

export type AccountType = 'live' | 'demo';

/** Durable account state; equity, free margin and margin level derive from it and the quotes. */
export interface AccountRecord {
  readonly login: string;
  readonly user: string;
  readonly type: AccountType;
  readonly group: string;
  readonly currency: string;
  readonly leverage: number;
  readonly server: string;
  readonly balance: Cents;
  /** Sum of the open positions' margins. */
  readonly margin: Cents;
  /** Last event sequence number of this account (orders and positions); only grows. */
  readonly seq: number;
  /** Account-level kill switch (console flag). */
  readonly accountHalted: boolean;
  /** The owner's kill switch is Triggered. */
  readonly userHalted: boolean;
}

export type OrderStatus = 'pending' | 'filled' | 'cancelled' | 'rejected';

export interface OrderRecord {
  readonly id: string;
  readonly login: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly volume: Centilots;
  /** Limit/stop price for pending orders; the fill price once filled. */
  readonly price: Ticks;
  /** Requested price of a pending order (kept after the fill for reports). */
  readonly requestedPrice: Ticks | null;
  readonly sl: Ticks | null;
  readonly tp: Ticks | null;
  readonly status: OrderStatus;
  /** Ticket of the position the fill opened. */
  readonly ticket: number | null;
  readonly source: Source;
  readonly keyId: string | null;
  readonly clientId: string | null;
  readonly webhookId: string | null;
  readonly createdAt: UnixMs;
  readonly filledAt: UnixMs | null;
  readonly closedAt: UnixMs | null;
  /** Why a pending order was rejected at trigger time or cancelled by the platform. */
  readonly reason: string | null;
}

export type PositionStatus = 'open' | 'partially_closed' | 'closed';
export type CloseReason = 'client' | 'sl' | 'tp' | 'kill_switch' | 'webhook' | 'dead_man' | 'stop_out';
/** Why the platform cancelled a pending order (OrderRecord.reason). */
export type CancelReason = 'kill_switch' | 'dead_man';

export interface PositionRecord {
  readonly ticket: number;
  readonly login: string;
  readonly symbol: string;
  readonly side: Side;
  /** Open volume (after partial closes). */
  readonly volume: Centilots;
  readonly openPrice: Ticks;
  readonly sl: Ticks | null;
  readonly tp: Ticks | null;
  readonly source: Source;
  readonly keyId: string | null;
  readonly webhookId: string | null;
  readonly orderId: string;
  /** Margin held for the open volume, in account cents (fixed at open, reduced pro rata on partial close). */
  readonly margin: Cents;
  readonly openedAt: UnixMs;
}

/** Sizing rules of webhook targets (DECISIONS "Signal webhooks"). */
export type Sizing =
  | { readonly type: 'fixed'; readonly lots: Centilots }
  | { readonly type: 'multiplier'; readonly factor: number }
  | { readonly type: 'risk_percent'; readonly percent: number };

// ---------------------------------------------------------------------------------------------
// Commands: everything that changes a shard's state. `nowMs` travels beside the command.

/** A sizing rule the engine resolves against the account (webhook fan-out), with the signal's volume. */
export interface PlaceSizing { readonly rule: Sizing; readonly signalVolume: Centilots | null }

/**
 * Either a volume or a sizing rule, never both and never neither. The two fields stay (journals and
 * the cluster's stream hold commands in this shape); the union is told apart by `volume === null`.
 */
export type PlaceSize =
  | { readonly volume: Centilots; readonly sizing: null }
  | { readonly volume: null; readonly sizing: PlaceSizing };

export type PlaceOrder = PlaceOrderTerms & PlaceSize;

interface PlaceOrderTerms {
  readonly kind: 'place';
  readonly login: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly price: Ticks | null;
  readonly sl: Ticks | null;
  readonly tp: Ticks | null;
  readonly clientId: string | null;
  readonly source: Source;
  readonly keyId: string | null;
  readonly webhookId: string | null;
}

export interface CancelOrder { readonly kind: 'cancel'; readonly login: string; readonly orderId: string; readonly source: Source; readonly keyId: string | null }

/** A stop-loss or take-profit edit: leave it, remove it, or set it to a price. */
export type LevelEdit = 'keep' | 'remove' | Ticks;

/**
 * Amends a pending order (REST PATCH, FIX G): price and volume (null keeps them), SL and TP.
 * Absent sl/tp keep theirs: FIX G changes neither, and journals written before amends existed
 * hold replaces without them.
 */
export interface ReplaceOrder {
  readonly kind: 'replace';
  readonly login: string;
  readonly orderId: string;
  readonly price: Ticks | null;
  readonly volume: Centilots | null;
  readonly sl?: LevelEdit;
  readonly tp?: LevelEdit;
  readonly source: Source;
  readonly keyId: string | null;
}

/** Amends an open position's SL and TP (REST PATCH /positions/{ticket}). */
export interface AmendPosition {
  readonly kind: 'amendPosition';
  readonly login: string;
  readonly ticket: number;
  readonly sl: LevelEdit;
  readonly tp: LevelEdit;
  readonly source: Source;
  readonly keyId: string | null;
}

/** Cancels every pending order of the account (of one symbol, when given): REST DELETE /orders, FIX q. */
export interface CancelAllOrders {
  readonly kind: 'cancelAll';
  readonly login: string;
  readonly symbol: string | null;
  readonly source: Source;
  readonly keyId: string | null;
}

/** Closes every open position of the account (of one symbol, when given): REST DELETE /positions. */
export interface CloseAllPositions {
  readonly kind: 'closeAll';
  readonly login: string;
  readonly symbol: string | null;
  readonly source: Source;
  readonly keyId: string | null;
}

/**
 * The dead-man's switch of one API key on one account ("cancel all after"): every call re-arms it
 * to nowMs + timeoutMs; 0 disarms it. The deadline is engine state (journaled, checkpointed); the
 * host watches the clock and sends fireDeadMan once it passes.
 */
export interface ArmDeadMan {
  readonly kind: 'armDeadMan';
  readonly login: string;
  readonly keyId: string;
  readonly timeoutMs: number;
  /** Also close the key's API positions when it fires. */
  readonly closePositions: boolean;
}

/**
 * Fires a key's dead-man's switch: cancels the account's pending orders placed through the key
 * and, with closePositions, closes the key's API positions. `deadline`: only when an armed
 * deadline has passed at nowMs (its closePositions applies, and it disarms); `disconnect`: the
 * key's connection (stream or FIX session) that asked for it dropped, with its own closePositions.
 */
export interface FireDeadMan {
  readonly kind: 'fireDeadMan';
  readonly login: string;
  readonly keyId: string;
  readonly cause: DeadManCause;
  readonly closePositions: boolean;
}

export type DeadManCause = 'deadline' | 'disconnect';

export interface ClosePosition {
  readonly kind: 'close';
  readonly login: string;
  readonly ticket: number;
  /** Partial-close volume; null closes all. */
  readonly volume: Centilots | null;
  readonly source: Source;
  readonly keyId: string | null;
}

/** Webhook `close` / `close_all`: positions this webhook opened, oldest first. */
export interface CloseWebhookPositions {
  readonly kind: 'closeWebhook';
  readonly login: string;
  readonly webhookId: string;
  /** null = every symbol (close_all). */
  readonly symbol: string | null;
  /** null = everything matching. */
  readonly volume: Centilots | null;
}

export interface Tick { readonly kind: 'tick'; readonly quote: Quote }

/**
 * Kill switch: `user` (owner's switch) or `account` flag of one account; the host sends a user's
 * switch to each of the user's accounts. Turning on closes and cancels per the spec.
 */
export interface SetKillSwitch { readonly kind: 'killSwitch'; readonly login: string; readonly scope: 'user' | 'account'; readonly active: boolean }

/** Key-level kill switch: trading calls carrying this key id get kill_switch_active. */
export interface SetKeyHalt { readonly kind: 'keyHalt'; readonly login: string; readonly keyId: string; readonly active: boolean }

/** Creates the account or updates its static fields (seed upsert). Balance is set only on creation. */
export interface UpsertAccount {
  readonly kind: 'upsertAccount';
  readonly account: Omit<AccountRecord, 'margin' | 'seq' | 'accountHalted' | 'userHalted'>;
}

export type Command =
  | PlaceOrder | CancelOrder | ReplaceOrder | AmendPosition | ClosePosition | CloseWebhookPositions
  | CancelAllOrders | CloseAllPositions | ArmDeadMan | FireDeadMan
  | Tick | SetKillSwitch | SetKeyHalt | UpsertAccount;

// ---------------------------------------------------------------------------------------------
// Rejects are values, named as the spec's error table names them.

export type RejectName =
  | 'bad_request' | 'not_found' | 'duplicate_client_id' | 'invalid_order'
  | 'kill_switch_active' | 'market_closed';

export interface Reject {
  readonly ok: false;
  readonly name: RejectName;
  readonly message: string;
  /** Offending field for validation errors. */
  readonly field?: string;
  /** duplicate_client_id: the id of the order first accepted with that client id. */
  readonly orderId?: string;
  /**
   * The order the refusal is about, while the engine still holds it (pending, or among the
   * account's last settled orders): the original of a duplicate_client_id, the settled order a
   * cancel or replace came too late for. The shard adds it from its history when the engine no
   * longer holds it.
   */
  readonly order?: OrderRecord;
}

// ---------------------------------------------------------------------------------------------
// Events: every order and position change, numbered per account (`seq`), journaled and streamed.

/** One field an amend changed, in engine units (ticks, centilots); null: no SL/TP. */
export interface FieldChange {
  readonly field: 'price' | 'volume' | 'sl' | 'tp';
  readonly from: number | null;
  readonly to: number | null;
}

export interface OrderEvent {
  readonly type: 'order';
  readonly seq: number;
  readonly ts: UnixMs;
  readonly order: OrderRecord;
  /** Present on an amend (REST PATCH, FIX G): what changed. */
  readonly amended?: readonly FieldChange[];
}

export interface PositionEvent {
  readonly type: 'position';
  readonly seq: number;
  readonly ts: UnixMs;
  /** `closed` carries the last open state with volume = closed volume; open/partially_closed the new state. */
  readonly status: PositionStatus;
  readonly position: PositionRecord;
  readonly reason: CloseReason | null;
  /** Present on (partial) closes. */
  readonly closePrice: Ticks | null;
  readonly closedVolume: Centilots | null;
  /** Realised profit of this close, account cents. */
  readonly profit: Cents | null;
  /** Present on an SL/TP amend (status open or partially_closed, as the position stands): what changed. */
  readonly amended?: readonly FieldChange[];
}

export type EngineEvent = OrderEvent | PositionEvent;

// ---------------------------------------------------------------------------------------------
// Results of one command.

export interface PlaceResult { readonly ok: true; readonly kind: 'place'; readonly order: OrderRecord; readonly position: PositionRecord | null }
export interface CancelResult { readonly ok: true; readonly kind: 'cancel'; readonly order: OrderRecord }
export interface ReplaceResult { readonly ok: true; readonly kind: 'replace'; readonly order: OrderRecord; readonly amended: readonly FieldChange[] }
/** A close says all a report needs of it, so no caller has to find its event. */
export interface CloseResult {
  readonly ok: true;
  readonly kind: 'close';
  readonly ticket: number;
  readonly status: 'closed' | 'partially_closed';
  readonly symbol: string;
  readonly side: Side;
  readonly source: Source;
  readonly closePrice: Ticks;
  readonly profit: Cents;
  /** Volume this close took. */
  readonly closedVolume: Centilots;
  /** Remaining volume (0 when closed). */
  readonly volume: Centilots;
}
export interface CloseManyResult { readonly ok: true; readonly kind: 'closeMany'; readonly closed: readonly CloseResult[]; readonly failed: readonly { readonly ticket: number; readonly reject: Reject }[] }
export interface KillSwitchResult {
  readonly ok: true;
  readonly kind: 'killSwitch';
  readonly login: string;
  readonly closed: readonly CloseResult[];
  /** The orders it cancelled, as they are now. */
  readonly cancelled: readonly OrderRecord[];
  readonly failed: readonly { readonly ticket: number; readonly reject: Reject }[];
}
export interface DoneResult { readonly ok: true; readonly kind: 'done' }
export interface AmendPositionResult { readonly ok: true; readonly kind: 'amendPosition'; readonly position: PositionRecord; readonly amended: readonly FieldChange[] }
/** Cancel-all: the orders it cancelled, as they are now (a pending order always cancels). */
export interface CancelManyResult { readonly ok: true; readonly kind: 'cancelMany'; readonly cancelled: readonly OrderRecord[] }
export interface DeadManResult {
  readonly ok: true;
  readonly kind: 'deadMan';
  readonly login: string;
  readonly keyId: string;
  /** The switch as it stands now; null: disarmed. */
  readonly armed: DeadManRecord | null;
}
export interface DeadManFiredResult {
  readonly ok: true;
  readonly kind: 'deadManFired';
  readonly login: string;
  readonly keyId: string;
  readonly cause: DeadManCause;
  readonly cancelled: readonly OrderRecord[];
  readonly closed: readonly CloseResult[];
  readonly failed: readonly { readonly ticket: number; readonly reject: Reject }[];
}

export type Result =
  | PlaceResult | CancelResult | ReplaceResult | AmendPositionResult | CloseResult | CloseManyResult | CancelManyResult
  | KillSwitchResult | DeadManResult | DeadManFiredResult | DoneResult;

/** What applying one command produced. */
export interface Outcome {
  readonly result: Result | Reject;
  /** Order and position events in the order they happened. */
  readonly events: readonly EngineEvent[];
  /** Accounts whose durable fields changed (balance, margin, seq, flags). */
  readonly accounts: readonly AccountRecord[];
  /** Orders and positions to persist: the new state (positions deleted when closed). */
  readonly orders: readonly OrderRecord[];
  readonly positions: readonly PositionRecord[];
  readonly closedTickets: readonly number[];
  /** client_id → order id kept for dedup (DECISIONS: at least 24 h). */
  readonly clientIds: readonly ClientIdRecord[];
  /** Key halts set (`active`) or cleared by this command. */
  readonly keyHalts: readonly (HaltedKey & { readonly active: boolean })[];
  /** Dead-man's switches armed (the new deadline) or disarmed (fired, or timeout 0) by this command. */
  readonly deadMen: readonly DeadManChange[];
}

// ---------------------------------------------------------------------------------------------
// Engine state as the host loads and persists it.

/** An accepted client id; a repeat within the retention window is a duplicate. `atMs` is its order's creation. */
export interface ClientIdRecord { readonly login: string; readonly clientId: string; readonly orderId: string; readonly atMs: UnixMs }

/**
 * Where the engine finds the client ids it no longer keeps in memory: the host's store of every
 * accepted one. The engine keeps a client id in memory for `memoryMs`, then asks here for the rest
 * of the retention, so its memory holds the ids of the last `memoryMs`, not of the last 24 h. The
 * archive must know every client id accepted more than `memoryMs` ago and still retained; it may
 * know younger ones. A replay gives the same outcomes: a journaled order's client id was found
 * neither in memory nor here when it was accepted, and a replay's memory and archive hold no more.
 */
export interface ClientIdArchive {
  readonly memoryMs: number;
  find(login: string, clientId: string): ClientIdRecord | undefined;
}

/** A key-level kill switch that is set. */
export interface HaltedKey { readonly login: string; readonly keyId: string }

/** An armed dead-man's switch: it fires once nowMs reaches deadlineMs. */
export interface DeadManRecord {
  readonly login: string;
  readonly keyId: string;
  readonly deadlineMs: UnixMs;
  readonly closePositions: boolean;
}

export type DeadManChange =
  | { readonly t: 'armed'; readonly deadMan: DeadManRecord }
  | { readonly t: 'disarmed'; readonly login: string; readonly keyId: string };

/** Margin-call and stop-out levels of an account group, margin level percent (equity / margin × 100). */
export interface MarginLevels {
  readonly marginCallPercent: number;
  /** Positions are closed, most losing first, while the margin level is below it; 0: never. */
  readonly stopOutPercent: number;
}

/** Levels per account group, and for every group not listed. */
export interface MarginPolicy {
  readonly defaults: MarginLevels;
  readonly groups: readonly (MarginLevels & { readonly group: string })[];
}

/** What an Engine starts from; `Engine.snapshot()` returns the same shape, canonically ordered. */
export interface EngineInit {
  /** 0..63; ids and tickets are counter × 64 + shardId. */
  readonly shardId: number;
  /** Ids allocated so far by this shard; the next one uses idCounter + 1. Persist it with every batch. */
  readonly idCounter: number;
  readonly symbols: readonly SymbolSpec[];
  readonly accounts: readonly AccountRecord[];
  readonly pendingOrders: readonly OrderRecord[];
  /**
   * Each account's last settled (filled, cancelled, rejected) orders, oldest first; the engine keeps
   * up to RECENT_ORDERS_PER_ACCOUNT (16) per account and snapshot() lists exactly those. Cancel or
   * replace of one answers invalid_order rather than not_found, and a repeated client id returns it.
   * Absent = none.
   */
  readonly recentOrders?: readonly OrderRecord[];
  readonly positions: readonly PositionRecord[];
  readonly clientIds: readonly ClientIdRecord[];
  readonly haltedKeys: readonly HaltedKey[];
  /** Last quote per symbol. */
  readonly quotes: readonly Quote[];
  /** How long client ids are remembered; DECISIONS: at least 24 h. */
  readonly clientIdRetentionMs: number;
  /** Armed dead-man's switches. Absent = none. */
  readonly deadMen?: readonly DeadManRecord[];
  /** Stop-out levels per account group. Absent = no stop-out. */
  readonly marginPolicy?: MarginPolicy;
}

/** One account as a query sees it. */
export interface AccountSnapshot {
  readonly account: AccountRecord;
  readonly positions: readonly PositionRecord[];
  readonly pendingOrders: readonly OrderRecord[];
}

/** Derived account figures (DECISIONS "Orders and positions"). */
export interface AccountMetrics {
  readonly balance: Cents;
  readonly equity: Cents;
  readonly margin: Cents;
  readonly freeMargin: Cents;
  /** equity / margin × 100 with two decimals; 0 while margin is 0. */
  readonly marginLevel: number;
}
