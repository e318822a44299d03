// One account's live state inside the engine. Durable fields are mutable here and materialised as
// an immutable AccountRecord once per command for the host (Outcome.accounts).
import { RecentOrders } from './recent.js';
import type { AccountRecord, AccountType, Cents, ClientIdRecord, OrderRecord, PositionRecord } from './types.js';

export type AccountStatics = Pick<AccountRecord, 'user' | 'type' | 'group' | 'currency' | 'leverage' | 'server'>;

export class AccountState {
  readonly login: string;
  user: string;
  type: AccountType;
  group: string;
  currency: string;
  leverage: number;
  server: string;
  balance: Cents;
  margin: Cents;
  seq: number;
  accountHalted: boolean;
  userHalted: boolean;
  /** Open positions by ticket, in ticket (= opening) order. */
  readonly positions = new Map<number, PositionRecord>();
  /** Pending orders by id, in id (= placement) order. */
  readonly pending = new Map<string, OrderRecord>();
  /** The last orders that stopped being pending. */
  readonly recent = new RecentOrders();
  /** Client ids within the retention window. */
  readonly clientIds = new Map<string, ClientIdRecord>();
  readonly haltedKeys = new Set<string>();
  /** The engine's command number that last changed this account (dedups Outcome.accounts). */
  touchedIn = -1;
  /** Floating profit at a quote version (floating.ts); derived, never persisted. */
  floating: { readonly version: number; readonly cents: Cents } | null = null;

  constructor(r: AccountRecord) {
    this.login = r.login;
    this.user = r.user;
    this.type = r.type;
    this.group = r.group;
    this.currency = r.currency;
    this.leverage = r.leverage;
    this.server = r.server;
    this.balance = r.balance;
    this.margin = r.margin;
    this.seq = r.seq;
    this.accountHalted = r.accountHalted;
    this.userHalted = r.userHalted;
  }

  get halted(): boolean {
    return this.accountHalted || this.userHalted;
  }

  /** An order stopped being pending (filled, cancelled or rejected). */
  settle(order: OrderRecord): void {
    this.pending.delete(order.id);
    this.recent.push(order);
  }

  /** A pending order, or a settled one still remembered. */
  order(id: string): OrderRecord | undefined {
    return this.pending.get(id) ?? this.recent.find(id);
  }

  /** True when any static field differs. */
  setStatics(s: AccountStatics): boolean {
    const changed = s.user !== this.user || s.type !== this.type || s.group !== this.group
      || s.currency !== this.currency || s.leverage !== this.leverage || s.server !== this.server;
    this.user = s.user;
    this.type = s.type;
    this.group = s.group;
    this.currency = s.currency;
    this.leverage = s.leverage;
    this.server = s.server;
    return changed;
  }

  record(): AccountRecord {
    return {
      login: this.login, user: this.user, type: this.type, group: this.group, currency: this.currency,
      leverage: this.leverage, server: this.server, balance: this.balance, margin: this.margin, seq: this.seq,
      accountHalted: this.accountHalted, userHalted: this.userHalted,
    };
  }
}
