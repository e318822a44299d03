// What the FIX application layer needs from the thread it runs in: the shards (commands, account
// and order queries, event subscriptions), the quote board, the API keys and the clock. The worker
// wires the real ones; the conformance tests pass in-memory ones.
import type { AccountSnapshot, Command, OrderEvent, OrderRecord, Quote, SymbolSpec } from '../../engine/types.js';
import type { Answer, OrderRef } from '../../shard/protocol.js';
import type { KeyRecord } from '../../store/records.js';
import type { CompiledSession } from '../../engine/market-session.js';
import type { FixDecimal } from '../codec/decimal.js';

/**
 * A command's reply, with the order event it produced when that event reached this thread in the
 * same batch (its seq numbers the ExecutionReport, and it is then not reported a second time).
 */
export type ReplyHandler = (answer: Answer, event: OrderEvent | null) => void;

export interface ShardLink {
  /** Sends a command to the account's shard; false (nothing sent) when its ring is full. */
  command(login: string, cmd: Command, onReply: ReplyHandler): boolean;
  /** Asks the account's shard for its state; false (nothing sent) when its ring is full. */
  query(login: string, onReply: (snapshot: AccountSnapshot | null) => void): boolean;
  /** Asks the account's shard for an order from any time it remembers; false (nothing sent) when its ring is full. */
  findOrder(login: string, ref: OrderRef, onFound: (order: OrderRecord | null) => void): boolean;
  /** Starts or stops the account's events reaching this thread; never dropped. */
  watch(login: string, on: boolean): void;
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
  readonly quotes: QuoteSource;
  readonly keys: KeyDirectory;
  readonly symbols: ReadonlyMap<string, FixSymbol>;
  /** SenderCompID is `<senderPrefix>_<login>`. */
  readonly senderPrefix: string;
  readonly hours: CompiledSession;
  /** The hours as configured, for refusal texts. */
  readonly hoursText: string;
  /** Config fix.cancel_on_disconnect: the default of sessions whose Logon has no tag 8013. */
  readonly cancelOnDisconnect: boolean;
}
