// Live P&L: the floating profit of each open position and the equity of each account the main
// thread's stream has subscribers for, computed here in the shard (the single writer of the
// positions and the engine's own quotes), at most once per `intervalMs`, and only what changed
// since the last report. Between two sweeps any number of ticks may move a profit: the report
// carries the latest value, so a position is reported at most once per interval however fast its
// symbol ticks. Nothing of this is state: it is never journaled, and a restart starts over.
//
// Cost: a sweep runs only when a quote of the engine moved since the last one, and touches only the accounts asked for; it runs behind the order path (the worker's
// maintenance step), never inside a batch.
import type { Engine } from '../engine/engine.js';
import type { Cents, Quote, UnixMs } from '../engine/types.js';
import type { LiveAccount, LivePosition, ShardOutbound } from './protocol.js';

export const LIVE_INTERVAL_MS = 100;
/**
 * At most this many positions of one account in one report. Every tick moves every position of
 * its symbol, so without a bound an account with 13,000 open positions sent 130,000 updates a
 * second to each of its subscribed connections, and formatting them stalled the main thread for
 * everyone (other clients' REST p99 2.5 → 35 ms in `node dist/bench/run.js stream-flood`). A
 * bigger account takes turns: each report continues where the last one stopped, so every
 * position is still refreshed, every ceil(n / 500) intervals.
 */
export const LIVE_POSITIONS_PER_REPORT = 500;

interface Watched {
  /** Last reported profit per ticket (null: could not be priced). */
  readonly sent: Map<number, Cents | null>;
  equity: Cents | null;
  /** Where the next report starts in the account's positions (the turn of a big account). */
  next: number;
  /** The last report stopped short of its positions: the next one goes on without a tick. */
  behind: boolean;
}

export class LivePnl {
  private readonly watched = new Map<string, Watched>();
  private readonly symbols: readonly string[];
  private readonly lastQuotes = new Map<string, Quote | null>();
  private lastSweepMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly shard: number, private readonly engine: Engine, symbols: readonly string[],
    private readonly intervalMs = LIVE_INTERVAL_MS, private readonly positionsPerReport = LIVE_POSITIONS_PER_REPORT,
  ) {
    this.symbols = symbols;
    // Prices as recovered: the first report waits for the first tick that moves one.
    for (const symbol of symbols) this.lastQuotes.set(symbol, engine.quote(symbol));
  }

  want(login: string, on: boolean): void {
    if (on && !this.watched.has(login)) this.watched.set(login, { sent: new Map(), equity: null, next: 0, behind: false });
    if (!on) this.watched.delete(login);
  }

  /**
   * The report due now, if any: at most one per interval, only when prices moved (a subscriber's
   * snapshot and the open events carry the profit at their time; live updates follow the prices).
   */
  sweep(nowMs: UnixMs): ShardOutbound | null {
    if (this.watched.size === 0 || nowMs - this.lastSweepMs < this.intervalMs) return null;
    if (!this.quotesMoved() && !this.anyBehind()) return null;
    this.lastSweepMs = nowMs;
    const accounts: LiveAccount[] = [];
    for (const [login, w] of this.watched) {
      const report = this.report(login, w);
      if (report !== null) accounts.push(report);
    }
    return accounts.length === 0 ? null : { t: 'live', shard: this.shard, ts: nowMs, accounts };
  }

  private anyBehind(): boolean {
    for (const w of this.watched.values()) if (w.behind) return true;
    return false;
  }

  private quotesMoved(): boolean {
    let moved = false;
    for (const symbol of this.symbols) {
      const q = this.engine.quote(symbol);
      if (this.lastQuotes.get(symbol) !== q) {
        this.lastQuotes.set(symbol, q);
        moved = true;
      }
    }
    return moved;
  }

  private report(login: string, w: Watched): LiveAccount | null {
    const figures = this.engine.floatingProfits(login);
    const metrics = this.engine.metrics(login);
    if (figures === null || metrics === null) return null;
    const positions = figures.positions;
    const open = new Set<number>();
    for (const p of positions) open.add(p.ticket);
    // Closed positions leave (their close is an event of their own).
    for (const ticket of w.sent.keys()) if (!open.has(ticket)) w.sent.delete(ticket);
    const changed: LivePosition[] = [];
    let looked = 0;
    for (; looked < positions.length && changed.length < this.positionsPerReport; looked++) {
      const p = positions[(w.next + looked) % positions.length]!;
      if (w.sent.has(p.ticket) && w.sent.get(p.ticket) === p.profit) continue;
      w.sent.set(p.ticket, p.profit);
      changed.push(p);
    }
    w.next = positions.length === 0 ? 0 : (w.next + looked) % positions.length;
    w.behind = looked < positions.length;
    if (changed.length === 0 && w.equity === metrics.equity) return null;
    w.equity = metrics.equity;
    return { login, equity: metrics.equity, positions: changed };
  }
}
