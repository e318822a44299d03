// A tick moves the quote and, while the symbol's session is open at `nowMs` (the shard's clock, not
// the quote's own ts), fires SL/TP and then pending orders, SL/TP first so their freed margin counts.
// Positions opened by this tick's fills are first checked on the next tick. Then stop-out, on the
// prices the tick left.
import { DONE, isReject, type Core } from './core.js';
import { fillTriggered } from './orders.js';
import { closePosition } from './positions.js';
import { stopOut } from './stop-out.js';
import { badRequest } from './rejects.js';
import type { Tx } from './tx.js';
import type { DoneResult, Quote, Reject, Tick } from './types.js';

export function tick(core: Core, tx: Tx, cmd: Tick): DoneResult | Reject {
  const slot = core.slots.get(cmd.quote.symbol);
  if (slot === undefined) return badRequest('symbol', `unknown symbol ${cmd.quote.symbol}`);
  // A copy: the caller may reuse its object, and extra fields must not reach snapshots.
  const quote: Quote = { symbol: slot.sym.spec.name, bid: cmd.quote.bid, ask: cmd.quote.ask, ts: cmd.quote.ts };
  core.market.setQuote(quote);
  if (!core.market.isOpen(slot.sym, tx.nowMs)) return DONE;
  for (const { position, reason } of slot.book.triggeredPositions(quote)) {
    const account = core.accounts.get(position.login);
    if (account === undefined) continue;
    const result = closePosition(core, tx, account, position, position.volume, reason);
    // Still open (no conversion rate yet): keep watching it.
    if (isReject(result)) slot.book.putPosition(position);
  }
  for (const order of slot.book.triggeredOrders(quote)) fillTriggered(core, tx, slot, order, quote);
  stopOut(core, tx, quote.symbol);
  return DONE;
}
