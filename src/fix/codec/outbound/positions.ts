// Outbound RequestForPositionsAck (AO) and PositionReport (AP). They carry every field the stock
// QuickFIX FIX44 dictionary marks required (Parties, Account, AccountType; for AP also
// ClearingBusinessDate, SettlPrice, SettlPriceType, PriorSettlPrice, PositionQty and
// PositionAmountData), so a client validating incoming messages with it accepts them.
import {
  type AccountTypeValue, MsgType, type PartyIDSourceValue, type PartyRoleValue, type PosAmtTypeValue,
  type PosReqResultValue, type PosReqStatusValue, type PosReqTypeValue, type PosTypeValue,
  type SettlPriceTypeValue, type SubscriptionRequestTypeValue, Tag,
} from '../../dictionary.js';
import type { FixDecimal } from '../decimal.js';
import type { FixWriter, OutboundHeader } from '../writer.js';

export interface PartyFields {
  readonly id: string;
  readonly source: PartyIDSourceValue;
  readonly role: PartyRoleValue;
}

export type NonEmpty<T> = readonly [T, ...T[]];

function writeParties(w: FixWriter, parties: NonEmpty<PartyFields>): void {
  w.int(Tag.NoPartyIDs, parties.length);
  for (const p of parties) {
    w.str(Tag.PartyID, p.id);
    w.char(Tag.PartyIDSource, p.source);
    w.int(Tag.PartyRole, p.role);
  }
}

export interface RequestForPositionsAckFields {
  readonly posMaintRptId: string;
  readonly posReqId: string | null;
  /** Number of AP that follow. */
  readonly totalNumPosReports: number;
  readonly posReqResult: PosReqResultValue;
  readonly posReqStatus: PosReqStatusValue;
  readonly parties: NonEmpty<PartyFields>;
  readonly account: string;
  readonly accountType: AccountTypeValue;
  readonly text: string | null;
}

export function encodeRequestForPositionsAck(w: FixWriter, h: OutboundHeader, m: RequestForPositionsAckFields): void {
  w.begin(MsgType.RequestForPositionsAck, h);
  w.str(Tag.PosMaintRptID, m.posMaintRptId);
  if (m.posReqId !== null) w.str(Tag.PosReqID, m.posReqId);
  w.int(Tag.TotalNumPosReports, m.totalNumPosReports);
  w.int(Tag.PosReqResult, m.posReqResult);
  w.int(Tag.PosReqStatus, m.posReqStatus);
  writeParties(w, m.parties);
  w.str(Tag.Account, m.account);
  w.int(Tag.AccountType, m.accountType);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}

export interface PositionQtyFields {
  readonly posType: PosTypeValue;
  readonly longQty: FixDecimal;
  readonly shortQty: FixDecimal;
}

export interface PositionAmountFields {
  readonly posAmtType: PosAmtTypeValue;
  readonly posAmt: FixDecimal;
}

export interface PositionReportFields {
  readonly posMaintRptId: string;
  readonly posReqId: string | null;
  readonly posReqType: PosReqTypeValue | null;
  readonly subscriptionRequestType: SubscriptionRequestTypeValue | null;
  readonly totalNumPosReports: number | null;
  /** Y when the report was not asked for (a position change pushed to the client). */
  readonly unsolicitedIndicator: boolean | null;
  readonly posReqResult: PosReqResultValue;
  /** LocalMktDate as yyyymmdd. */
  readonly clearingBusinessDate: number;
  readonly parties: NonEmpty<PartyFields>;
  readonly account: string;
  readonly accountType: AccountTypeValue;
  readonly symbol: string;
  readonly currency: string | null;
  /** The position's open price (cTrader/FXCM convention for 730). */
  readonly settlPrice: FixDecimal;
  readonly settlPriceType: SettlPriceTypeValue;
  readonly priorSettlPrice: FixDecimal;
  readonly positions: NonEmpty<PositionQtyFields>;
  readonly amounts: NonEmpty<PositionAmountFields>;
  readonly text: string | null;
}

export function encodePositionReport(w: FixWriter, h: OutboundHeader, m: PositionReportFields): void {
  w.begin(MsgType.PositionReport, h);
  w.str(Tag.PosMaintRptID, m.posMaintRptId);
  if (m.posReqId !== null) w.str(Tag.PosReqID, m.posReqId);
  if (m.posReqType !== null) w.int(Tag.PosReqType, m.posReqType);
  if (m.subscriptionRequestType !== null) w.char(Tag.SubscriptionRequestType, m.subscriptionRequestType);
  if (m.totalNumPosReports !== null) w.int(Tag.TotalNumPosReports, m.totalNumPosReports);
  if (m.unsolicitedIndicator !== null) w.bool(Tag.UnsolicitedIndicator, m.unsolicitedIndicator);
  w.int(Tag.PosReqResult, m.posReqResult);
  w.localMktDate(Tag.ClearingBusinessDate, m.clearingBusinessDate);
  writeParties(w, m.parties);
  w.str(Tag.Account, m.account);
  w.int(Tag.AccountType, m.accountType);
  w.str(Tag.Symbol, m.symbol);
  if (m.currency !== null) w.str(Tag.Currency, m.currency);
  w.decimal(Tag.SettlPrice, m.settlPrice);
  w.int(Tag.SettlPriceType, m.settlPriceType);
  w.decimal(Tag.PriorSettlPrice, m.priorSettlPrice);
  w.int(Tag.NoPositions, m.positions.length);
  for (const p of m.positions) {
    w.str(Tag.PosType, p.posType);
    w.decimal(Tag.LongQty, p.longQty);
    w.decimal(Tag.ShortQty, p.shortQty);
  }
  w.int(Tag.NoPosAmt, m.amounts.length);
  for (const a of m.amounts) {
    w.str(Tag.PosAmtType, a.posAmtType);
    w.decimal(Tag.PosAmt, a.posAmt);
  }
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}
