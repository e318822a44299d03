// The wire contract as the SDK's users see it, inferred (json-schema-to-ts) from the JSON Schemas
// the service's OpenAPI and AsyncAPI documents are built from and its answers are tested against
// (src/api/schemas.ts): a field added to the wire is a field of these types. Decimal numbers as on
// the wire: prices and lots as JSON numbers, money in account currency units.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type * as S from '../api/schemas.js';

/** Read-only all the way down: answers are values, never edited in place. */
type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;
type Of<Schema extends JSONSchema> = Frozen<FromSchema<Schema>>;

export type Side = Of<typeof S.SideSchema>;
export type Source = Of<typeof S.SourceSchema>;
export type OrderStatus = Of<typeof S.OrderStatusSchema>;
export type OrderType = Order['type'];
export type AccountType = AccountItem['type'];
export type ErrorName = Of<typeof S.ErrorNameSchema>;

/** A list page (DECISIONS: `limit` default 500, max 1000; `next_cursor` null at the end). */
export interface Page<T> { readonly data: readonly T[]; readonly next_cursor: string | null }

export interface ListParams { readonly limit?: number; readonly cursor?: string }

export type AccountItem = Of<typeof S.AccountItemSchema>;
export type AccountDetail = Of<typeof S.AccountDetailSchema>;
export type Order = Of<typeof S.OrderSchema>;
/** POST /v1/orders: `price` is required for limit and stop; a repeated `client_id` answers 409 with the original order. */
export type PlaceOrderRequest = Of<typeof S.OrderRequestSchema>;
export type Position = Of<typeof S.PositionSchema>;
/** `volume`: lots still open after a partial close. */
export type CloseResult = Of<typeof S.CloseResultSchema>;
/** PATCH /v1/orders/{id}: left out keeps a field; `sl`/`tp` null removes it. */
export type AmendOrderRequest = Of<typeof S.OrderAmendRequestSchema>;
/** PATCH /v1/positions/{ticket}: left out keeps; null removes. */
export type AmendPositionRequest = Of<typeof S.PositionAmendRequestSchema>;
/** DELETE /v1/orders: every order cancelled. */
export type CancelAllResult = Of<typeof S.CancelAllResultSchema>;
/** DELETE /v1/positions: each position closed, or failed with its error. */
export type CloseAllResult = Of<typeof S.CloseAllResultSchema>;
/** POST /v1/cancel-all-after: the dead-man's switch as it stands. */
export type DeadMan = Of<typeof S.DeadManSchema>;
/** GET /v1/symbols: a symbol's trading terms and whether its session is open now. */
export type SymbolInfo = Of<typeof S.SymbolSchema>;
export type ServerTime = Of<typeof S.ServerTimeSchema>;

export interface OrderFilter extends ListParams {
  readonly status?: OrderStatus;
  readonly symbol?: string;
  /** Orders created at or after: Unix ms, or an ISO 8601 time with its zone. */
  readonly since?: number | string;
}

/** The X-RateLimit headers of the last response. */
export interface RateLimitState { readonly limit: number; readonly remaining: number; readonly resetMs: number }

// ---------------------------------------------------------------------------------------------
// Stream messages.

export type StreamChannel = AckMessage['channels'][number];
export type EventChannel = Extract<StreamChannel, 'orders' | 'positions'>;

export type QuoteMessage = Of<typeof S.QuoteMessageSchema>;
export type OrderMessage = Of<typeof S.OrderMessageSchema>;
/** A position event or a live P&L update (`live: true`). */
type AnyPositionMessage = Of<typeof S.PositionMessageSchema>;
/** On closes `profit` is realised, on an open position floating when sent; `reason` says why it closed. */
export type PositionMessage = Extract<AnyPositionMessage, { readonly seq: number }>;
/** Live P&L of an open position: floating profit and the account's equity now; no seq, never replayed. */
export type LivePositionMessage = Extract<AnyPositionMessage, { readonly live: true }>;
export type CancelAllAfterMessage = Of<typeof S.CancelAllAfterMessageSchema>;
export type CancelOnDisconnectMessage = Of<typeof S.CancelOnDisconnectMessageSchema>;
/** One page of a snapshot; the pages of one snapshot share its seq, and a `snapshot_end` follows the last. */
export type SnapshotMessage = Of<typeof S.SnapshotMessageSchema>;
export type SnapshotEndMessage = Of<typeof S.SnapshotEndMessageSchema>;
export type AccountMessage = Of<typeof S.AccountMessageSchema>;
export type AckMessage = Of<typeof S.AckMessageSchema>;
export type StreamErrorMessage = Of<typeof S.ErrorMessageSchema>;
export type PongMessage = Of<typeof S.PongMessageSchema>;
export type HeartbeatMessage = Of<typeof S.HeartbeatMessageSchema>;

export type ServerMessage =
  | QuoteMessage | OrderMessage | AnyPositionMessage | SnapshotMessage | SnapshotEndMessage | AccountMessage | AckMessage | StreamErrorMessage
  | PongMessage | HeartbeatMessage | CancelAllAfterMessage | CancelOnDisconnectMessage;
