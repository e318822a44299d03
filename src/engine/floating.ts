// An account's floating profit, kept between ticks: a margin check needs the account's equity, and
// summing every open position on every order makes an order cost O(open positions) (an account with
// 28 000 positions would pay 28 000 profit computations per order). The sum is cached with the
// market's quote version and stays exact between ticks: a position that opens, changes or closes
// adds or removes its own profit at the same quotes, rounded exactly as the full sum rounds it
// (each position's profit is rounded once, then summed), so cached and recomputed values are equal.
// Any quote change makes the cache stale; the next use recomputes it. The cache is derived state:
// it is never persisted or snapshotted.
import type { AccountState } from './account.js';
import type { Core } from './core.js';
import { floatingProfitCents, floatingTotalCents } from './money.js';
import type { Cents, PositionRecord } from './types.js';

export function floatingCents(core: Core, account: AccountState): Cents {
  const version = core.market.quoteVersion;
  const cached = account.floating;
  if (cached !== null && cached.version === version) return cached.cents;
  const cents = floatingTotalCents(account.positions.values(), core.market, account.currency);
  account.floating = { version, cents };
  return cents;
}

/** `before` became `after` (null: none): a cache of the current quotes follows; a stale one stays stale. */
export function floatingChanged(core: Core, account: AccountState, before: PositionRecord | null, after: PositionRecord | null): void {
  const cached = account.floating;
  if (cached === null || cached.version !== core.market.quoteVersion) return;
  const profit = (p: PositionRecord | null): Cents => (p === null ? 0 : floatingProfitCents(p, core.market, account.currency) ?? 0);
  account.floating = { version: cached.version, cents: cached.cents - profit(before) + profit(after) };
}
