// RequestForPositions (AN) → RequestForPositionsAck (AO), then one PositionReport (AP) per open
// position, oldest ticket first (DECISIONS "FIX 4.4"): 704/705 long/short quantity in units, 730
// the open price, 1 the account, 727 the total; no positions → AO 728=2. Each AP carries every field
// the stock FIX44 dictionary requires; PositionAmountData holds the floating profit (FMTM) in the
// account currency (15). Needs the key's read scope, as GET /positions does. Positions are a
// snapshot: 263=1 is answered once with 729=1 (changes arrive as ExecutionReports).
import { readRequestForPositions, type RequestForPositions } from '../codec/inbound/positions.js';
import {
  type PartyFields, type PositionReportFields, encodePositionReport, encodeRequestForPositionsAck,
} from '../codec/outbound/positions.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { yyyymmddOf } from '../codec/time.js';
import {
  AccountType, MsgType, PartyIDSource, PartyRole, PosAmtType, PosReqResult, type PosReqResultValue, PosReqStatus,
  type PosReqStatusValue, PosReqType, PosType, SettlPriceType, SubscriptionRequestType,
} from '../dictionary.js';
import { Market } from '../../engine/market.js';
import { floatingProfitCents } from '../../engine/money.js';
import type { AccountSnapshot, PositionRecord } from '../../engine/types.js';
import { busyText, lacksScope, type Desk } from './desk.js';
import type { AppDeps } from './ports.js';
import { moneyOf, priceOf, unitsOf, ZERO } from './units.js';

/** Floating profit with the engine's own functions over the board's latest quotes. */
export class ProfitBook {
  private readonly market: Market;

  constructor(private readonly deps: Pick<AppDeps, 'symbols' | 'quotes'>) {
    this.market = new Market([...deps.symbols.values()].map((s) => s.spec));
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

function report(desk: Desk, m: RequestForPositions, p: PositionRecord, total: number, currency: string, profits: ProfitBook): PositionReportFields | null {
  const sym = desk.deps.symbols.get(p.symbol);
  if (sym === undefined) return null;
  const qty = unitsOf(p.volume, sym.contract);
  const open = priceOf(p.openPrice, sym.spec);
  return {
    posMaintRptId: String(p.ticket), posReqId: m.posReqId, posReqType: PosReqType.Positions,
    subscriptionRequestType: m.subscriptionRequestType, totalNumPosReports: total, unsolicitedIndicator: false,
    posReqResult: PosReqResult.ValidRequest, clearingBusinessDate: yyyymmddOf(desk.nowMs()), parties: partiesOf(desk.login),
    account: desk.login, accountType: AccountType.CustomerSide, symbol: p.symbol, currency, settlPrice: open,
    settlPriceType: SettlPriceType.Final, priorSettlPrice: open,
    positions: [{ posType: PosType.TransactionQty, longQty: p.side === 'buy' ? qty : ZERO, shortQty: p.side === 'sell' ? qty : ZERO }],
    amounts: [{ posAmtType: PosAmtType.FinalMarkToMarket, posAmt: moneyOf(profits.profit(p, currency)) }],
    text: `ticket ${p.ticket} ${p.side} ${p.symbol}, source ${p.source}`,
  };
}

function answer(desk: Desk, m: RequestForPositions, snapshot: AccountSnapshot | null, profits: ProfitBook): void {
  if (snapshot === null) {
    ack(desk, m, 0, PosReqResult.Other, PosReqStatus.Rejected, `not_found: account ${desk.login} not found`);
    return;
  }
  const positions = [...snapshot.positions].sort((a, b) => a.ticket - b.ticket);
  const streaming = m.subscriptionRequestType === SubscriptionRequestType.SnapshotPlusUpdates;
  const status = streaming ? PosReqStatus.CompletedWithWarnings : PosReqStatus.Completed;
  const warning = streaming ? 'snapshot only: position changes arrive as ExecutionReports' : null;
  if (positions.length === 0) {
    ack(desk, m, 0, PosReqResult.NoPositionsFound, status, warning);
    return;
  }
  ack(desk, m, positions.length, PosReqResult.ValidRequest, status, warning);
  for (const p of positions) {
    const fields = report(desk, m, p, positions.length, snapshot.account.currency, profits);
    if (fields !== null) desk.session.send(MsgType.PositionReport, (w, h) => encodePositionReport(w, h, fields));
  }
}

export function onRequestForPositions(desk: Desk, r: FixReader, profits: ProfitBook): void {
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
  const sent = desk.deps.shards.query(desk.login, (snapshot) => answer(desk, m, snapshot, profits));
  if (!sent) ack(desk, m, 0, PosReqResult.Other, PosReqStatus.Rejected, busyText(desk.login));
}
