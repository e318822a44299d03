// The main thread's projection of every shard's accounts, open positions and pending orders, fed by
// the shards' event batches, so reads (GET /accounts, /positions, stream snapshots) never cross a
// thread. Floating profit is computed on read from the quote board with the engine's own pure
// functions, so it is "updated on every tick" without any message per tick.
import { Instruments } from '../engine/instruments.js';
import { accountMetrics, floatingProfitCents } from '../engine/money.js';
import type { AccountMetrics, AccountRecord, Cents, EngineEvent, OrderRecord, PositionRecord, Quote, SymbolSpec } from '../engine/types.js';
import type { AccountDbs } from '../store/store.js';
import type { ShardListener } from './client.js';

export class ReadModel implements ShardListener {
  private readonly accountsByLogin = new Map<string, AccountRecord>();
  /** Per login, ascending by ticket (tickets of one account grow; loading sorts). */
  private readonly positions = new Map<string, Map<number, PositionRecord>>();
  private readonly pending = new Map<string, Map<string, OrderRecord>>();
  /** The engine's own quote table and conversion routes, fed with every tick. */
  private readonly market: Instruments;

  constructor(symbols: readonly SymbolSpec[]) {
    this.market = new Instruments(symbols);
  }

  onQuote(quote: Quote): void { this.market.setQuote(quote); }

  /** The shards' checkpoints, read once every shard has recovered (its tables then hold all its state). */
  load(shards: readonly AccountDbs[]): void {
    for (const dbs of shards) {
      for (const { value } of dbs.accounts.getRange()) this.accountsByLogin.set(value.login, value);
      const open = [...dbs.positions.getRange()].map((e) => e.value).sort((a, b) => a.ticket - b.ticket);
      for (const p of open) this.positionsOf(p.login).set(p.ticket, p);
      for (const { value } of dbs.pending.getRange()) this.pendingOf(value.login).set(value.id, value);
    }
  }

  readonly accounts = (accounts: readonly AccountRecord[]): void => {
    for (const a of accounts) this.accountsByLogin.set(a.login, a);
  };

  readonly events = (events: readonly EngineEvent[]): void => {
    for (const e of events) this.applyEvent(e);
  };

  account(login: string): AccountRecord | undefined { return this.accountsByLogin.get(login); }

  allAccounts(): IterableIterator<AccountRecord> { return this.accountsByLogin.values(); }

  openPositions(login: string): IterableIterator<PositionRecord> { return this.positionsOf(login).values(); }

  pendingOrders(login: string): IterableIterator<OrderRecord> { return this.pendingOf(login).values(); }

  /** Balance, equity, margin, free margin and margin level at the latest quotes. */
  metrics(account: AccountRecord): AccountMetrics {
    return accountMetrics(account, this.positionsOf(account.login).values(), this.market);
  }

  /** Floating profit in account cents; null while the symbol (or a conversion pair) has no quote. */
  profit(position: PositionRecord, accountCurrency: string): Cents | null {
    return floatingProfitCents(position, this.market, accountCurrency);
  }

  private applyEvent(e: EngineEvent): void {
    if (e.type === 'order') {
      const orders = this.pendingOf(e.order.login);
      if (e.order.status === 'pending') orders.set(e.order.id, e.order);
      else orders.delete(e.order.id);
      return;
    }
    const positions = this.positionsOf(e.position.login);
    if (e.status === 'closed') positions.delete(e.position.ticket);
    else positions.set(e.position.ticket, e.position);
  }

  private positionsOf(login: string): Map<number, PositionRecord> {
    let m = this.positions.get(login);
    if (!m) { m = new Map(); this.positions.set(login, m); }
    return m;
  }

  private pendingOf(login: string): Map<string, OrderRecord> {
    let m = this.pending.get(login);
    if (!m) { m = new Map(); this.pending.set(login, m); }
    return m;
  }
}
