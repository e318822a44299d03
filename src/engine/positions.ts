// Closing positions: by the client (full or partial, one or all), by SL/TP, by the kill switch, by
// the dead-man's switch, by stop-out and by webhook close signals. Realised profit goes into the
// balance; margin is released pro rata. And amending an open position's SL and TP.
import type { AccountState } from './account.js';
import { isReject, tradingAccount, type Core } from './core.js';
import { divRound, mulExact } from './exact.js';
import { floatingChanged } from './floating.js';
import { formatLots } from './format.js';
import { exitPrice, profitCents } from './money.js';
import { changesOf, editedLevel, levelsReject } from './orders.js';
import { badRequest, invalidOrder, marketClosed, notFound } from './rejects.js';
import type { Tx } from './tx.js';
import type {
  AmendPosition, AmendPositionResult, CloseAllPositions, CloseManyResult, ClosePosition, CloseReason, CloseResult, CloseWebhookPositions, Cents,
  Centilots, PositionRecord, Reject, Ticks,
} from './types.js';

export type CloseFailure = { readonly ticket: number; readonly reject: Reject };

/**
 * A close's result, as one literal with every field: spreading a partial result and adding fields
 * to it cost ~1 µs a close in V8 (most of an engine close) and left slower-to-encode objects.
 */
export function closeResult(
  p: PositionRecord, status: CloseResult['status'], closePrice: Ticks, profit: Cents, closedVolume: Centilots, volume: Centilots,
): CloseResult {
  return { ok: true, kind: 'close', ticket: p.ticket, symbol: p.symbol, side: p.side, source: p.source, closePrice, profit, closedVolume, status, volume };
}

/** Closes `volume` of `position` at the current bid (buy) or ask (sell). */
export function closePosition(core: Core, tx: Tx, account: AccountState, position: PositionRecord, volume: Centilots, reason: CloseReason): CloseResult | Reject {
  const slot = core.slots.get(position.symbol);
  const quote = slot?.sym.quote ?? null;
  if (slot === undefined || quote === null) return marketClosed(`no quote for ${position.symbol} yet`);
  if (!core.market.isOpen(slot.sym, tx.nowMs)) return marketClosed(`${position.symbol} is outside its trading session`);
  const rate = core.market.profitRate(slot.sym, account.currency);
  if (rate === null) return invalidOrder('ticket', `no conversion rate from ${slot.sym.spec.quoteCurrency} to ${account.currency}`);
  const closePrice = exitPrice(position.side, quote);
  const profit = profitCents(slot.sym, position.side, position.openPrice, closePrice, volume, rate);
  account.balance += profit;
  if (volume === position.volume) {
    account.margin -= position.margin;
    account.positions.delete(position.ticket);
    core.exposure.closed(account, position);
    floatingChanged(core, account, position, null);
    slot.book.positions.delete(position.ticket);
    tx.positionClosed(account, position, reason, closePrice, profit);
    return closeResult(position, 'closed', closePrice, profit, volume, 0);
  }
  // The released share is rounded once and subtracted, so the account's margin stays the exact sum.
  const released = divRound(mulExact(position.margin, volume), position.volume);
  const rest: PositionRecord = { ...position, volume: position.volume - volume, margin: position.margin - released };
  account.margin -= released;
  account.positions.set(rest.ticket, rest);
  floatingChanged(core, account, position, rest);
  slot.book.putPosition(rest);
  tx.positionReduced(account, rest, reason, closePrice, volume, profit);
  return closeResult(position, 'partially_closed', closePrice, profit, volume, rest.volume);
}

export function close(core: Core, tx: Tx, cmd: ClosePosition): CloseResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  const position = account.positions.get(cmd.ticket);
  if (position === undefined) return notFound(`position ${cmd.ticket} not found`);
  const volume = cmd.volume ?? position.volume;
  if (volume > position.volume) {
    return invalidOrder('volume', `volume ${formatLots(volume)} exceeds the position's ${formatLots(position.volume)}`);
  }
  return closePosition(core, tx, account, position, volume, 'client');
}

/** Closes every position of `positions` in full, reporting each one that cannot close now. */
export function closeEach(core: Core, tx: Tx, account: AccountState, positions: readonly PositionRecord[], reason: CloseReason): CloseManyResult {
  const closed: CloseResult[] = [];
  const failed: CloseFailure[] = [];
  for (const position of positions) {
    const result = closePosition(core, tx, account, position, position.volume, reason);
    if (isReject(result)) failed.push({ ticket: position.ticket, reject: result });
    else closed.push(result);
  }
  return { ok: true, kind: 'closeMany', closed, failed };
}

/** Close-all: every open position of the account (of one symbol, when given), oldest first. */
export function closeAll(core: Core, tx: Tx, cmd: CloseAllPositions): CloseManyResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  if (cmd.symbol !== null && !core.slots.has(cmd.symbol)) return badRequest('symbol', `unknown symbol ${cmd.symbol}`);
  const matching = [...account.positions.values()].filter((p) => cmd.symbol === null || p.symbol === cmd.symbol);
  return closeEach(core, tx, account, matching, 'client');
}

/** New SL and TP of an open position: SL on the losing and TP on the winning side of its close price now. */
export function amendPosition(core: Core, tx: Tx, cmd: AmendPosition): AmendPositionResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  const position = account.positions.get(cmd.ticket);
  if (position === undefined) return notFound(`position ${cmd.ticket} not found`);
  const slot = core.slots.get(position.symbol);
  const quote = slot?.sym.quote ?? null;
  if (slot === undefined || quote === null) return marketClosed(`no quote for ${position.symbol} yet`);
  const sl = editedLevel(position.sl, cmd.sl);
  const tp = editedLevel(position.tp, cmd.tp);
  const problem = levelsReject(position.side, exitPrice(position.side, quote), sl, tp, slot.sym);
  if (problem !== null) return problem;
  const amended: PositionRecord = { ...position, sl, tp };
  const changes = changesOf({ price: null, volume: null, sl: position.sl, tp: position.tp }, { price: null, volume: null, sl, tp });
  if (changes.length === 0) return { ok: true, kind: 'amendPosition', position, amended: changes };
  account.positions.set(amended.ticket, amended);
  slot.book.positions.delete(amended.ticket);
  slot.book.putPosition(amended);
  tx.positionAmended(account, amended, changes);
  return { ok: true, kind: 'amendPosition', position: amended, amended: changes };
}

/** Webhook close/close_all: this webhook's positions, oldest first, up to `volume` in total. */
export function closeWebhook(core: Core, tx: Tx, cmd: CloseWebhookPositions): CloseManyResult | Reject {
  const account = tradingAccount(core, cmd.login, 'webhook', null);
  if (isReject(account)) return account;
  const matching = [...account.positions.values()].filter((p) => p.webhookId === cmd.webhookId && (cmd.symbol === null || p.symbol === cmd.symbol));
  const closed: CloseResult[] = [];
  const failed: CloseFailure[] = [];
  let remaining = cmd.volume ?? Infinity;
  for (const position of matching) {
    if (remaining <= 0) break;
    const result = closePosition(core, tx, account, position, Math.min(remaining, position.volume), 'webhook');
    if (isReject(result)) {
      failed.push({ ticket: position.ticket, reject: result });
      continue;
    }
    closed.push(result);
    remaining -= position.volume - result.volume;
  }
  return { ok: true, kind: 'closeMany', closed, failed };
}
