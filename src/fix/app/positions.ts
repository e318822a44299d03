// RequestForPositions (AN) → RequestForPositionsAck (AO), then one PositionReport (AP) per open
// position, oldest ticket first (DECISIONS "FIX 4.4"): 704/705 long/short quantity in units, 730
// the open price, 1 the account, 727 the total; no positions → AO 728=2. Each AP carries every field
// the stock FIX44 dictionary requires; PositionAmountData holds the floating profit (FMTM) in the
// account currency (15). Needs the key's read scope, as GET /positions does.
//
// SubscriptionRequestType (263) 1 subscribes: after the snapshot, every change of a position (an
// opening, a partial or full close, an SL/TP amend) is pushed as an AP with 325=Y and the
// subscription's PosReqID, a closed position with zero quantities and its realised profit, until
// an AN with 263=2 (answered with an AO) or the end of the session. Floating profit alone moving
// is not a change (it is on every tick: the WebSocket stream carries live P&L).
import { readRequestForPositions, type RequestForPositions } from '../codec/inbound/positions.js';
import {
  type PartyFields, type PositionReportFields, encodePositionReport, encodeRequestForPositionsAck,
} from '../codec/outbound/positions.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { yyyymmddOf } from '../codec/time.js';
import {
  AccountType, MsgType, PartyIDSource, PartyRole, PosAmtType, PosReqResult, type PosReqResultValue, PosReqStatus,
  type PosReqStatusValue, PosReqType, PosType, SettlPriceType, SubscriptionRequestType, type SubscriptionRequestTypeValue,
} from '../dictionary.js';
import { Instruments } from '../../engine/instruments.js';
import { floatingProfitCents } from '../../engine/money.js';
import type { AccountSnapshot, PositionEvent, PositionRecord } from '../../engine/types.js';
import { busyText, lacksScope, type Desk } from './desk.js';
import type { AppDeps } from './ports.js';
import { moneyOf, priceOf, unitsOf, ZERO } from './units.js';

/** Floating profit with the engine's own functions over the board's latest quotes. */
export class ProfitBook {
  private readonly market: Instruments;

  constructor(private readonly deps: Pick<AppDeps, 'symbols' | 'quotes'>) {
    this.market = new Instruments([...deps.symbols.values()].map((s) => s.spec));
  }

  /** Account cents; 0 while a quote needed for it is missing. */
  profit(position: PositionRecord, accountCurrency: string): number {
    for (const name of this.deps.symbols.keys()) {
      const quote = this.deps.quotes.quote(name);
      if (quote !== null) this.market.setQuote(quote);
    }
    return floatingProfitCents(position, this.market, accountCurrency) ?? 0;
  }
}

function partiesOf(login: string): readonly [PartyFields] {
  return [{ id: login, source: PartyIDSource.ProprietaryCustomCode, role: PartyRole.CustomerAccount }];
}

function ack(desk: Desk, m: RequestForPositions, total: number, result: PosReqResultValue, status: PosReqStatusValue, text: string | null): void {
  const login = desk.login;
  desk.session.send(MsgType.RequestForPositionsAck, (w, h) => encodeRequestForPositionsAck(w, h, {
    posMaintRptId: desk.execIds.next(login), posReqId: m.posReqId, totalNumPosReports: total, posReqResult: result,
    posReqStatus: status, parties: partiesOf(login), account: login, accountType: AccountType.CustomerSide, text,
  }));
}

/** How one AP describes a position: in a snapshot (of `total`) or pushed to a subscription. */
interface ReportOf {
  readonly posMaintRptId: string;
  readonly posReqId: string;
  readonly subscriptionRequestType: SubscriptionRequestTypeValue | null;
  readonly total: number | null;
  readonly unsolicited: boolean;
  /** Units still open (0 once closed). */
  readonly volume: number;
  readonly profitCents: number;
  readonly text: string;
}

function report(desk: Desk, p: PositionRecord, currency: string, of: ReportOf): PositionReportFields | null {
  const sym = desk.deps.symbols.get(p.symbol);
  if (sym === undefined) return null;
  const qty = unitsOf(of.volume, sym.contract);
  const open = priceOf(p.openPrice, sym.spec);
  return {
    posMaintRptId: of.posMaintRptId, posReqId: of.posReqId, posReqType: PosReqType.Positions,
    subscriptionRequestType: of.subscriptionRequestType, totalNumPosReports: of.total, unsolicitedIndicator: of.unsolicited,
    posReqResult: PosReqResult.ValidRequest, clearingBusinessDate: yyyymmddOf(desk.nowMs()), parties: partiesOf(desk.login),
    account: desk.login, accountType: AccountType.CustomerSide, symbol: p.symbol, currency, settlPrice: open,
    settlPriceType: SettlPriceType.Final, priorSettlPrice: open,
    positions: [{ posType: PosType.TransactionQty, longQty: p.side === 'buy' ? qty : ZERO, shortQty: p.side === 'sell' ? qty : ZERO }],
    amounts: [{ posAmtType: PosAmtType.FinalMarkToMarket, posAmt: moneyOf(of.profitCents) }],
    text: of.text,
  };
}

/** A session's position subscription (263=1): the PosReqID its pushed APs carry. */
export class PositionFeed {
  private posReqId: string | null = null;
  private currency: string | null = null;

  constructor(private readonly desk: Desk, private readonly profits: ProfitBook) {}

  get active(): boolean { return this.posReqId !== null; }

  start(posReqId: string, currency: string): void {
    this.posReqId = posReqId;
    this.currency = currency;
  }

  stop(): void {
    this.posReqId = null;
  }

  /** A change of one of the account's positions: pushed while subscribed. */
  onPositionEvent(e: PositionEvent): void {
    if (this.posReqId === null || this.currency === null) return;
    const p = e.position;
    const closed = e.status === 'closed';
    const profitCents = closed ? e.profit ?? 0 : this.profits.profit(p, this.currency);
    const what = e.amended !== undefined ? 'amended' : closed ? `closed (${e.reason ?? 'client'})` : e.status === 'partially_closed' ? `partially closed (${e.reason ?? 'client'})` : 'opened';
    const fields = report(this.desk, p, this.currency, {
      posMaintRptId: `${p.ticket}-${e.seq}`, posReqId: this.posReqId, subscriptionRequestType: SubscriptionRequestType.SnapshotPlusUpdates,
      total: null, unsolicited: true, volume: closed ? 0 : p.volume, profitCents,
      text: `ticket ${p.ticket} ${p.side} ${p.symbol} ${what}, source ${p.source}`,
    });
    if (fields !== null) this.desk.session.send(MsgType.PositionReport, (w, h) => encodePositionReport(w, h, fields));
  }
}

function answer(desk: Desk, m: RequestForPositions, snapshot: AccountSnapshot | null, profits: ProfitBook, feed: PositionFeed): void {
  if (snapshot === null) {
    ack(desk, m, 0, PosReqResult.Other, PosReqStatus.Rejected, `not_found: account ${desk.login} not found`);
    return;
  }
  const positions = [...snapshot.positions].sort((a, b) => a.ticket - b.ticket);
  const currency = snapshot.account.currency;
  // The snapshot and the subscription start together: changes after it are pushed.
  if (m.subscriptionRequestType === SubscriptionRequestType.SnapshotPlusUpdates) feed.start(m.posReqId, currency);
  if (positions.length === 0) {
    ack(desk, m, 0, PosReqResult.NoPositionsFound, PosReqStatus.Completed, null);
    return;
  }
  ack(desk, m, positions.length, PosReqResult.ValidRequest, PosReqStatus.Completed, null);
  for (const p of positions) {
    const fields = report(desk, p, currency, {
      posMaintRptId: String(p.ticket), posReqId: m.posReqId, subscriptionRequestType: m.subscriptionRequestType, total: positions.length,
      unsolicited: false, volume: p.volume, profitCents: profits.profit(p, currency), text: `ticket ${p.ticket} ${p.side} ${p.symbol}, source ${p.source}`,
    });
    if (fields !== null) desk.session.send(MsgType.PositionReport, (w, h) => encodePositionReport(w, h, fields));
  }
}

export function onRequestForPositions(desk: Desk, r: FixReader, profits: ProfitBook, feed: PositionFeed): void {
  const m = readRequestForPositions(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  const forbidden = lacksScope(desk, 'read');
  if (forbidden !== null) {
    ack(desk, m, 0, PosReqResult.NotAuthorized, PosReqStatus.Rejected, forbidden);
    return;
  }
  if (m.account !== null && m.account !== desk.login) {
    ack(desk, m, 0, PosReqResult.NotAuthorized, PosReqStatus.Rejected, `Account (1) ${m.account} is not the account of this session (${desk.login})`);
    return;
  }
  if (m.posReqType !== null && m.posReqType !== PosReqType.Positions) {
    ack(desk, m, 0, PosReqResult.NotSupported, PosReqStatus.Rejected, `PosReqType (724) ${m.posReqType} is not supported: 0 (positions)`);
    return;
  }
  if (m.subscriptionRequestType === SubscriptionRequestType.Unsubscribe) {
    const was = feed.active;
    feed.stop();
    ack(desk, m, 0, PosReqResult.ValidRequest, PosReqStatus.Completed, was ? 'position updates stopped' : 'no position subscription was active');
    return;
  }
  const sent = desk.deps.shards.query(desk.login, (snapshot) => answer(desk, m, snapshot, profits, feed));
  if (!sent) ack(desk, m, 0, PosReqResult.Other, PosReqStatus.Rejected, busyText(desk.login));
}
