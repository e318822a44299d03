// What the FIX application layer needs from the thread it runs in: the shards (commands, account
// queries, event subscriptions), the persisted orders and client ids, the quote board, the API keys
// and the clock. The worker wires the real ones; the conformance tests pass in-memory ones.
import type { AccountSnapshot, Command, OrderEvent, OrderRecord, Quote, SymbolSpec } from '../../engine/types.js';
import type { ReplyBody } from '../../shard/protocol.js';
import type { KeyRecord } from '../../store/records.js';
import type { CompiledSession } from '../../market/session.js';
import type { FixDecimal } from '../codec/decimal.js';

/**
 * A command's reply, with the order event it produced when that event reached this thread in the
 * same batch (its seq numbers the ExecutionReport, and it is then not reported a second time).
 */
export type ReplyHandler = (body: ReplyBody, event: OrderEvent | null) => void;

export interface ShardLink {
  /** Sends a command to the account's shard; false (nothing sent) when its ring is full. */
  command(login: string, cmd: Command, onReply: ReplyHandler): boolean;
  /** Asks the account's shard for its state; false (nothing sent) when its ring is full. */
  query(login: string, onReply: (snapshot: AccountSnapshot | null) => void): boolean;
  /** Starts or stops the account's events reaching this thread; never dropped. */
  watch(login: string, on: boolean): void;
}

export interface OrderLookup {
  /** The order an accepted client id (ClOrdID) of the account created, from the engine's durable memory. */
  orderIdOfClientId(login: string, clientId: string): string | null;
  order(login: string, orderId: string): OrderRecord | null;
}

export interface QuoteSource {
  /** The latest quote of a symbol on the board; null when it has none (or is not on the board). */
  quote(symbol: string): Quote | null;
}

export interface UnsealedKey {
  readonly record: KeyRecord;
  readonly secret: Buffer;
}

export interface KeyDirectory {
  /** The key with its secret, or null when there is none by that id. */
  key(id: string): UnsealedKey | null;
}

/** A tradable symbol with its contract size as an exact decimal. */
export interface FixSymbol {
  readonly spec: SymbolSpec;
  readonly contract: FixDecimal;
}

export interface AppDeps {
  readonly shards: ShardLink;
  readonly orders: OrderLookup;
  readonly quotes: QuoteSource;
  readonly keys: KeyDirectory;
  readonly symbols: ReadonlyMap<string, FixSymbol>;
  /** SenderCompID is `<senderPrefix>_<login>`. */
  readonly senderPrefix: string;
  readonly hours: CompiledSession;
  /** The hours as configured, for refusal texts. */
  readonly hoursText: string;
}
