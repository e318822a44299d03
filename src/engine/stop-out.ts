// Stop-out: a broker closes an account's positions when its margin level (equity / margin × 100)
// falls below its group's stop-out level, the most losing position first, until the level is back
// at or above it or no position can close. It runs inside the tick that moved the prices, so a
// replay of the journal stops out the same positions at the same prices.
//
// Only accounts whose equity the tick can move are looked at: those holding a position on the
// ticked symbol or converting a position's profit through it (Exposure). Closing a position at
// the current price moves its floating profit into the balance unchanged, so equity is conserved
// and only the margin shrinks.
import type { AccountState } from './account.js';
import { isReject, type Core } from './core.js';
import type { Instruments } from './instruments.js';
import { floatingCents } from './floating.js';
import { floatingProfitCents, marginLevel } from './money.js';
import { closePosition } from './positions.js';
import type { Tx } from './tx.js';
import type { MarginLevels, MarginPolicy, PositionRecord } from './types.js';

const NO_LEVELS: MarginLevels = { marginCallPercent: 0, stopOutPercent: 0 };
/** A policy that never stops out (tools, benchmarks). */
export const NO_STOP_OUT: MarginPolicy = { defaults: NO_LEVELS, groups: [] };

/** Margin levels by account group. */
export class MarginRules {
  readonly policy: MarginPolicy | null;
  private readonly byGroup: ReadonlyMap<string, MarginLevels>;

  constructor(policy: MarginPolicy | null) {
    this.policy = policy;
    this.byGroup = new Map((policy?.groups ?? []).map((g) => [g.group, { marginCallPercent: g.marginCallPercent, stopOutPercent: g.stopOutPercent }]));
  }

  of(group: string): MarginLevels {
    return this.byGroup.get(group) ?? this.policy?.defaults ?? NO_LEVELS;
  }
}

/** Symbols whose quotes move a position's profit in its account's currency: its own and its conversion pairs'. */
function symbolsMoving(position: PositionRecord, currency: string, market: Instruments): string[] {
  const sym = market.symbol(position.symbol);
  if (sym === undefined) return [position.symbol];
  const names = [position.symbol];
  for (const leg of market.routesFor(sym, currency).profit ?? []) if (!names.includes(leg.via.spec.name)) names.push(leg.via.spec.name);
  return names;
}

/** Which accounts hold positions whose profit each symbol's ticks move (a count of such positions per account). */
export class Exposure {
  private readonly bySymbol = new Map<string, Map<AccountState, number>>();

  constructor(private readonly market: Instruments) {}

  opened(account: AccountState, position: PositionRecord): void {
    for (const name of symbolsMoving(position, account.currency, this.market)) {
      let holders = this.bySymbol.get(name);
      if (holders === undefined) { holders = new Map(); this.bySymbol.set(name, holders); }
      holders.set(account, (holders.get(account) ?? 0) + 1);
    }
  }

  closed(account: AccountState, position: PositionRecord): void {
    for (const name of symbolsMoving(position, account.currency, this.market)) {
      const holders = this.bySymbol.get(name);
      const count = holders?.get(account);
      if (holders === undefined || count === undefined) continue;
      if (count > 1) holders.set(account, count - 1);
      else holders.delete(account);
    }
  }

  holders(symbol: string): Iterable<AccountState> {
    return this.bySymbol.get(symbol)?.keys() ?? [];
  }
}

function levelOf(core: Core, account: AccountState): number {
  return marginLevel(account.balance + floatingCents(core, account), account.margin);
}

function belowStopOut(core: Core, account: AccountState): boolean {
  const stopOut = core.margins.of(account.group).stopOutPercent;
  return stopOut > 0 && account.margin > 0 && levelOf(core, account) < stopOut;
}

/** The position losing most now (lowest floating profit, then lowest ticket), skipping those that could not close. */
function mostLosing(core: Core, account: AccountState, skip: ReadonlySet<number>): PositionRecord | null {
  let worst: PositionRecord | null = null;
  let worstProfit = 0;
  for (const p of account.positions.values()) {
    if (skip.has(p.ticket)) continue;
    const profit = floatingProfitCents(p, core.market, account.currency) ?? 0;
    if (worst === null || profit < worstProfit) {
      worst = p;
      worstProfit = profit;
    }
  }
  return worst;
}

/** After a tick of `symbol`: stops out every account it took below its stop-out level, in login order. */
export function stopOut(core: Core, tx: Tx, symbol: string): void {
  let breached: AccountState[] | null = null;
  for (const account of core.exposure.holders(symbol)) {
    if (belowStopOut(core, account)) (breached ??= []).push(account);
  }
  if (breached === null) return;
  breached.sort((a, b) => (a.login < b.login ? -1 : a.login > b.login ? 1 : 0));
  for (const account of breached) {
    const skip = new Set<number>();
    while (belowStopOut(core, account)) {
      const position = mostLosing(core, account, skip);
      if (position === null) break;
      // A position that cannot close now (its market closed) stays; the next one is tried.
      if (isReject(closePosition(core, tx, account, position, position.volume, 'stop_out'))) skip.add(position.ticket);
    }
  }
}
