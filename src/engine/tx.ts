// The changes of one command: events numbered with each account's next seq, and the records the
// host must persist (Outcome). Arrays are created only when something lands in them.
import type { AccountState } from './account.js';
import type {
  AccountRecord, CloseReason, Cents, Centilots, ClientIdRecord, DeadManChange, EngineEvent, FieldChange, HaltedKey, OrderRecord, Outcome,
  PositionRecord, PositionStatus, Reject, Result, Ticks, UnixMs,
} from './types.js';

const NONE: readonly never[] = Object.freeze([]);

function add<T>(list: T[] | null, item: T): T[] {
  if (list === null) return [item];
  list.push(item);
  return list;
}

export class Tx {
  private events: EngineEvent[] | null = null;
  /** Usually one account changes per command; more only for ticks. */
  private touched: AccountState | null = null;
  private touchedMore: AccountState[] | null = null;
  private orders: OrderRecord[] | null = null;
  private positions: PositionRecord[] | null = null;
  private closedTickets: number[] | null = null;
  private clientIds: ClientIdRecord[] | null = null;
  private keyHalts: (HaltedKey & { readonly active: boolean })[] | null = null;
  private deadMen: DeadManChange[] | null = null;

  constructor(readonly nowMs: UnixMs, private readonly commandNo: number) {}

  /** Marks the account's durable fields as changed by this command. */
  touch(account: AccountState): void {
    if (account.touchedIn === this.commandNo) return;
    account.touchedIn = this.commandNo;
    if (this.touched === null) this.touched = account;
    else this.touchedMore = add(this.touchedMore, account);
  }

  order(account: AccountState, order: OrderRecord): void {
    account.seq += 1;
    this.events = add(this.events, { type: 'order', seq: account.seq, ts: this.nowMs, order });
    this.orders = add(this.orders, order);
    this.touch(account);
  }

  /** A pending order's new state after an amend. */
  orderAmended(account: AccountState, order: OrderRecord, amended: readonly FieldChange[]): void {
    account.seq += 1;
    this.events = add(this.events, { type: 'order', seq: account.seq, ts: this.nowMs, order, amended });
    this.orders = add(this.orders, order);
    this.touch(account);
  }

  /** An open position's new SL/TP. */
  positionAmended(account: AccountState, position: PositionRecord, amended: readonly FieldChange[]): void {
    account.seq += 1;
    this.events = add(this.events, {
      type: 'position', seq: account.seq, ts: this.nowMs, status: 'open', position, reason: null, closePrice: null, closedVolume: null, profit: null, amended,
    });
    this.positions = add(this.positions, position);
    this.touch(account);
  }

  positionOpened(account: AccountState, position: PositionRecord): void {
    this.positionEvent(account, 'open', position, null, null, null, null);
    this.positions = add(this.positions, position);
  }

  /** `position` is the remaining state after a partial close. */
  positionReduced(account: AccountState, position: PositionRecord, reason: CloseReason, closePrice: Ticks, closedVolume: Centilots, profit: Cents): void {
    this.positionEvent(account, 'partially_closed', position, reason, closePrice, closedVolume, profit);
    this.positions = add(this.positions, position);
  }

  /** `position` is the last open state; its whole volume was closed. */
  positionClosed(account: AccountState, position: PositionRecord, reason: CloseReason, closePrice: Ticks, profit: Cents): void {
    this.positionEvent(account, 'closed', position, reason, closePrice, position.volume, profit);
    this.closedTickets = add(this.closedTickets, position.ticket);
  }

  clientId(record: ClientIdRecord): void {
    this.clientIds = add(this.clientIds, record);
  }

  keyHalt(login: string, keyId: string, active: boolean): void {
    this.keyHalts = add(this.keyHalts, { login, keyId, active });
  }

  deadMan(change: DeadManChange): void {
    this.deadMen = add(this.deadMen, change);
  }

  outcome(result: Result | Reject): Outcome {
    return {
      result,
      events: this.events ?? NONE,
      accounts: this.accountRecords(),
      orders: this.orders ?? NONE,
      positions: this.positions ?? NONE,
      closedTickets: this.closedTickets ?? NONE,
      clientIds: this.clientIds ?? NONE,
      keyHalts: this.keyHalts ?? NONE,
      deadMen: this.deadMen ?? NONE,
    };
  }

  private accountRecords(): readonly AccountRecord[] {
    if (this.touched === null) return NONE;
    const records = [this.touched.record()];
    if (this.touchedMore !== null) for (const a of this.touchedMore) records.push(a.record());
    return records;
  }

  private positionEvent(
    account: AccountState, status: PositionStatus, position: PositionRecord, reason: CloseReason | null,
    closePrice: Ticks | null, closedVolume: Centilots | null, profit: Cents | null,
  ): void {
    account.seq += 1;
    this.events = add(this.events, { type: 'position', seq: account.seq, ts: this.nowMs, status, position, reason, closePrice, closedVolume, profit });
    this.touch(account);
  }
}
