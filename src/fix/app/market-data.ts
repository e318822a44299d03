// MarketDataRequest (V) → MarketDataSnapshotFullRefresh (W), or MarketDataRequestReject (Y) with
// MDReqRejReason (281) and a Text. 263=0 answers one W per symbol; 263=1 does too and then sends
// a W on every tick of those symbols until 263=2 names the same MDReqID. Top of book only: bid
// (269=0) and offer (269=1) at MarketDepth 0 or 1, full refresh (265=0). W are not kept for
// resends (a stale quote is worth nothing): a ResendRequest gets them as a gap fill. While the
// client's connection is backed up, ticks are conflated to the latest per symbol.
import { type MarketDataRequest, readMarketDataRequest } from '../codec/inbound/market-data.js';
import { type MDEntry, encodeMarketDataRequestReject, encodeMarketDataSnapshot } from '../codec/outbound/market-data.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { MDEntryType, type MDReqRejReasonValue, MDReqRejReason, MDUpdateType, MsgType, SubscriptionRequestType } from '../dictionary.js';
import type { Quote } from '../../engine/types.js';
import type { FixSession } from '../session/session.js';
import type { AppDeps } from './ports.js';
import { priceOf } from './units.js';

interface Subscription {
  readonly mdReqId: string;
  readonly symbols: readonly string[];
  readonly bid: boolean;
  readonly offer: boolean;
}

/** Which desks want which symbol's ticks (one per thread). */
export class MarketDataFanout {
  private readonly bySymbol = new Map<string, Set<MarketDataDesk>>();

  add(symbol: string, desk: MarketDataDesk): void {
    let desks = this.bySymbol.get(symbol);
    if (desks === undefined) this.bySymbol.set(symbol, (desks = new Set()));
    desks.add(desk);
  }

  remove(symbol: string, desk: MarketDataDesk): void {
    const desks = this.bySymbol.get(symbol);
    desks?.delete(desk);
    if (desks?.size === 0) this.bySymbol.delete(symbol);
  }

  publish(quote: Quote): void {
    const desks = this.bySymbol.get(quote.symbol);
    if (desks !== undefined) for (const desk of desks) desk.onQuote(quote);
  }
}

const MAX_DEPTH = 1;

export class MarketDataDesk {
  private readonly subscriptions = new Map<string, Subscription>();
  /** Symbols with a tick not sent while the connection was backed up. */
  private readonly stale = new Set<string>();

  constructor(private readonly session: FixSession, private readonly deps: Pick<AppDeps, 'symbols' | 'quotes'>, private readonly fanout: MarketDataFanout) {}

  onRequest(r: FixReader): void {
    const m = readMarketDataRequest(r);
    if (m instanceof FixProblem) {
      this.session.reject(m);
      return;
    }
    if (m.subscriptionRequestType === SubscriptionRequestType.Unsubscribe) {
      if (!this.unsubscribe(m.mdReqId)) this.refuse(m.mdReqId, null, `no subscription with MDReqID (262) ${m.mdReqId}`);
      return;
    }
    const problem = this.problemOf(m);
    if (problem !== null) {
      this.refuse(m.mdReqId, problem.reason, problem.text);
      return;
    }
    const sub: Subscription = {
      mdReqId: m.mdReqId, symbols: m.symbols, bid: m.entryTypes.includes(MDEntryType.Bid), offer: m.entryTypes.includes(MDEntryType.Offer),
    };
    for (const symbol of sub.symbols) {
      const quote = this.deps.quotes.quote(symbol);
      if (quote !== null) this.snapshot(sub, quote);
    }
    if (m.subscriptionRequestType === SubscriptionRequestType.SnapshotPlusUpdates) {
      this.subscriptions.set(sub.mdReqId, sub);
      for (const symbol of sub.symbols) this.fanout.add(symbol, this);
    }
  }

  onQuote(quote: Quote): void {
    if (this.session.backlogged) {
      this.stale.add(quote.symbol);
      return;
    }
    for (const sub of this.subscriptions.values()) if (sub.symbols.includes(quote.symbol)) this.snapshot(sub, quote);
  }

  /** The connection drained: the latest quote of every symbol that ticked meanwhile. */
  onWritable(): void {
    const symbols = [...this.stale];
    this.stale.clear();
    for (const symbol of symbols) {
      const quote = this.deps.quotes.quote(symbol);
      if (quote !== null) this.onQuote(quote);
    }
  }

  end(): void {
    for (const id of [...this.subscriptions.keys()]) this.unsubscribe(id);
  }

  private problemOf(m: MarketDataRequest): { readonly reason: MDReqRejReasonValue; readonly text: string } | null {
    if (this.subscriptions.has(m.mdReqId)) {
      return { reason: MDReqRejReason.DuplicateMDReqID, text: `MDReqID (262) ${m.mdReqId} already names a live subscription` };
    }
    if (m.marketDepth > MAX_DEPTH) {
      return { reason: MDReqRejReason.UnsupportedMarketDepth, text: 'MarketDepth (264) must be 0 or 1: this gateway publishes the top of book' };
    }
    if (m.mdUpdateType === MDUpdateType.IncrementalRefresh) {
      return { reason: MDReqRejReason.UnsupportedMDUpdateType, text: 'MDUpdateType (265) must be 0: updates are full refreshes (W)' };
    }
    const other = m.entryTypes.find((t) => t !== MDEntryType.Bid && t !== MDEntryType.Offer);
    if (other !== undefined) {
      return { reason: MDReqRejReason.UnsupportedMDEntryType, text: `MDEntryType (269) ${other} is not supported: 0 (bid) and 1 (offer)` };
    }
    const unknown = m.symbols.find((s) => !this.deps.symbols.has(s) || this.deps.quotes.quote(s) === null);
    if (unknown !== undefined) return { reason: MDReqRejReason.UnknownSymbol, text: `unknown symbol ${unknown}` };
    return null;
  }

  private unsubscribe(mdReqId: string): boolean {
    const sub = this.subscriptions.get(mdReqId);
    if (sub === undefined) return false;
    this.subscriptions.delete(mdReqId);
    for (const symbol of sub.symbols) {
      if (![...this.subscriptions.values()].some((s) => s.symbols.includes(symbol))) this.fanout.remove(symbol, this);
    }
    return true;
  }

  private snapshot(sub: Subscription, quote: Quote): void {
    const sym = this.deps.symbols.get(quote.symbol);
    if (sym === undefined) return;
    const bid: MDEntry = { type: MDEntryType.Bid, px: priceOf(quote.bid, sym.spec), size: null };
    const offer: MDEntry = { type: MDEntryType.Offer, px: priceOf(quote.ask, sym.spec), size: null };
    const entries: readonly [MDEntry, ...MDEntry[]] = sub.bid ? (sub.offer ? [bid, offer] : [bid]) : [offer];
    this.session.send(MsgType.MarketDataSnapshotFullRefresh, (w, h) => encodeMarketDataSnapshot(w, h, { mdReqId: sub.mdReqId, symbol: quote.symbol, entries }), false);
  }

  private refuse(mdReqId: string, reason: MDReqRejReasonValue | null, text: string): void {
    this.session.send(MsgType.MarketDataRequestReject, (w, h) => encodeMarketDataRequestReject(w, h, { mdReqId, reason, text }));
  }
}
