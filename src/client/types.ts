// The wire contract as the SDK's users see it (spec "Resources", "Events"; DECISIONS). Decimal
// numbers as on the wire: prices and lots as JSON numbers, money in account currency units.

export type Side = 'buy' | 'sell';
export type OrderType = 'market' | 'limit' | 'stop';
export type Source = 'manual' | 'api' | 'webhook' | 'strategy' | 'copy';
export type AccountType = 'live' | 'demo';

export type ErrorName =
  | 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'duplicate_client_id'
  | 'invalid_order' | 'kill_switch_active' | 'rate_limited' | 'market_closed' | 'unavailable' | 'internal_error';

/** A list page (DECISIONS: `limit` default 500, max 1000; `next_cursor` null at the end). */
export interface Page<T> { readonly data: readonly T[]; readonly next_cursor: string | null }

export interface ListParams { readonly limit?: number; readonly cursor?: string }

export interface AccountItem {
  readonly login: string;
  readonly type: AccountType;
  readonly group: string;
  readonly currency: string;
  readonly balance: number;
  readonly equity: number;
  readonly margin: number;
  readonly free_margin: number;
  readonly margin_level: number;
  readonly leverage: number;
}

export interface AccountDetail extends AccountItem {
  readonly server: string;
}

export interface Order {
  readonly id: string;
  readonly login: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  /** `pending`, `filled`, `cancelled` or `rejected`. */
  readonly status: string;
  readonly price: number;
  readonly volume: number;
  /** The position the fill opened; null while pending. */
  readonly ticket: number | null;
  readonly source: Source;
  readonly key_id?: string;
  readonly client_id?: string;
  readonly sl: number | null;
  readonly tp: number | null;
  readonly created_at: string;
  readonly filled_at: string | null;
  readonly reason?: string;
}

export interface PlaceOrderRequest {
  readonly login: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  /** Lots, a multiple of 0.01. */
  readonly volume: number;
  /** Required for limit and stop orders. */
  readonly price?: number;
  readonly sl?: number;
  readonly tp?: number;
  /** Idempotency key (at most 64 characters): a repeat answers 409 with the original order. */
  readonly client_id?: string;
}

export interface Position {
  readonly ticket: number;
  readonly login: string;
  readonly symbol: string;
  readonly side: Side;
  readonly volume: number;
  readonly open_price: number;
  readonly sl: number | null;
  readonly tp: number | null;
  /** Floating profit in the account currency (null while the symbol cannot be priced). */
  readonly profit: number | null;
  readonly source: Source;
  readonly key_id?: string;
  readonly opened_at: string;
}

export interface CloseResult {
  readonly ticket: number;
  /** `closed` or `partially_closed`. */
  readonly status: string;
  readonly close_price: number;
  readonly profit: number;
  /** Volume left open. */
  readonly volume: number;
}

/** The X-RateLimit headers of the last response. */
export interface RateLimitState { readonly limit: number; readonly remaining: number; readonly resetMs: number }

// ---------------------------------------------------------------------------------------------
// Stream messages.

export type StreamChannel = 'quotes' | 'orders' | 'positions' | 'account';
export type EventChannel = 'orders' | 'positions';

export interface QuoteMessage { readonly channel: 'quote'; readonly symbol: string; readonly bid: number; readonly ask: number; readonly ts: number }

export interface OrderMessage extends Order { readonly channel: 'order'; readonly seq: number; readonly ts: number }

export interface PositionMessage extends Position {
  readonly channel: 'position';
  /** `open`, `partially_closed` or `closed`. */
  readonly status: string;
  /** On closes: the realised profit; on an open position: floating profit when sent. */
  readonly profit: number | null;
  readonly close_price?: number;
  readonly closed_volume?: number;
  /** Why it closed: `client`, `sl`, `tp`, `kill_switch`, `webhook`. */
  readonly reason?: string;
  readonly seq: number;
  readonly ts: number;
}

export interface SnapshotMessage {
  readonly channel: 'snapshot';
  readonly login: string;
  /** The account's last event seq the snapshot includes. */
  readonly seq: number;
  readonly ts: number;
  readonly positions?: readonly Position[];
  readonly orders?: readonly Order[];
}

export interface AccountMessage {
  readonly channel: 'account';
  readonly login: string;
  readonly balance: number;
  readonly equity: number;
  readonly margin: number;
  readonly free_margin: number;
  readonly margin_level: number;
  /** The account's last event seq this state includes. */
  readonly seq: number;
  readonly ts: number;
}

export interface AckMessage {
  readonly channel: 'subscribed' | 'unsubscribed';
  readonly id: number | string | null;
  readonly channels: readonly StreamChannel[];
  readonly symbols: readonly string[];
  readonly login?: string;
}

export interface StreamErrorMessage {
  readonly channel: 'error';
  readonly id: number | string | null;
  readonly name: ErrorName;
  readonly message: string;
  readonly field?: string;
  /** since_seq too old: the oldest event seq still kept. */
  readonly oldest_seq?: number;
}

export type ServerMessage =
  | QuoteMessage | OrderMessage | PositionMessage | SnapshotMessage | AccountMessage | AckMessage | StreamErrorMessage
  | { readonly channel: 'pong'; readonly id: number | string | null; readonly ts: number }
  | { readonly channel: 'heartbeat'; readonly ts: number };
