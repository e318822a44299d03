// One call of every outbound builder, in the shapes the gateway sends, for the dictionary,
// round-trip and interop tests.
import { encodeBusinessMessageReject } from '../../../src/fix/codec/outbound/business-reject.js';
import { encodeMarketDataRequestReject, encodeMarketDataSnapshot } from '../../../src/fix/codec/outbound/market-data.js';
import { encodeExecutionReport, encodeOrderCancelReject } from '../../../src/fix/codec/outbound/orders.js';
import { encodePositionReport, encodeRequestForPositionsAck } from '../../../src/fix/codec/outbound/positions.js';
import {
  encodeHeartbeat, encodeLogon, encodeLogout, encodeReject, encodeResendRequest, encodeSequenceReset, encodeTestRequest,
} from '../../../src/fix/codec/outbound/session.js';
import type { FixWriter } from '../../../src/fix/codec/writer.js';
import {
  AccountType, BusinessRejectReason, CxlRejReason, CxlRejResponseTo, EncryptMethod, ExecType, MDEntryType, MDReqRejReason,
  OrdRejReason, OrdStatus, OrdType, PartyIDSource, PartyRole, PosAmtType, PosReqResult, PosReqStatus, PosReqType, PosType,
  SessionRejectReason, SettlPriceType, SubscriptionRequestType, TimeInForce,
} from '../../../src/fix/dictionary.js';
import { FILL, T0, header } from './samples.js';

export interface OutboundCase {
  readonly name: string;
  readonly msgType: string;
  readonly encode: (w: FixWriter) => void;
}

const ACCOUNT_PARTY = { id: '1001', source: PartyIDSource.ProprietaryCustomCode, role: PartyRole.CustomerAccount } as const;

export const OUTBOUND_CASES: readonly OutboundCase[] = [
  { name: 'Logon', msgType: 'A', encode: (w) => encodeLogon(w, header(1), { encryptMethod: EncryptMethod.None, heartBtIntSec: 30, resetSeqNumFlag: true }) },
  { name: 'Heartbeat', msgType: '0', encode: (w) => encodeHeartbeat(w, header(2), null) },
  { name: 'Heartbeat answering a TestRequest', msgType: '0', encode: (w) => encodeHeartbeat(w, header(3), 'ping-7') },
  { name: 'TestRequest', msgType: '1', encode: (w) => encodeTestRequest(w, header(4), 'tr-1') },
  { name: 'ResendRequest', msgType: '2', encode: (w) => encodeResendRequest(w, header(5), 3, 0) },
  {
    name: 'Reject', msgType: '3', encode: (w) => encodeReject(w, header(6), {
      refSeqNum: 12, refTagId: 54, refMsgType: 'D', reason: SessionRejectReason.RequiredTagMissing, text: 'Required tag missing: Side (54)',
    }),
  },
  { name: 'SequenceReset gap fill (PossDup)', msgType: '4', encode: (w) => encodeSequenceReset(w, { ...header(7), origSendingTimeMs: T0 }, { gapFill: true, newSeqNo: 12 }) },
  { name: 'SequenceReset reset', msgType: '4', encode: (w) => encodeSequenceReset(w, header(8), { gapFill: false, newSeqNo: 20 }) },
  { name: 'Logout', msgType: '5', encode: (w) => encodeLogout(w, header(9), 'MsgSeqNum too low, expecting 10 but received 4') },
  { name: 'ExecutionReport fill', msgType: '8', encode: (w) => encodeExecutionReport(w, header(10), FILL) },
  {
    name: 'ExecutionReport new pending limit', msgType: '8', encode: (w) => encodeExecutionReport(w, header(11), {
      ...FILL, execType: ExecType.New, ordStatus: OrdStatus.New, ordType: OrdType.Limit, price: { units: 108_000, scale: 5 },
      timeInForce: TimeInForce.GoodTillCancel, fill: null, leavesQty: { units: 100_000, scale: 0 }, cumQty: { units: 0, scale: 0 },
      avgPx: { units: 0, scale: 0 },
    }),
  },
  {
    name: 'ExecutionReport replaced', msgType: '8', encode: (w) => encodeExecutionReport(w, header(12), {
      ...FILL, clOrdId: 'C-2', origClOrdId: 'C-1', execType: ExecType.Replaced, ordStatus: OrdStatus.New, ordType: OrdType.Stop,
      stopPx: { units: 109_000, scale: 5 }, fill: null, leavesQty: { units: 50_000, scale: 0 }, cumQty: { units: 0, scale: 0 },
      orderQty: { units: 50_000, scale: 0 }, avgPx: { units: 0, scale: 0 },
    }),
  },
  {
    name: 'ExecutionReport rejected', msgType: '8', encode: (w) => encodeExecutionReport(w, header(13), {
      ...FILL, orderId: 'NONE', execType: ExecType.Rejected, ordStatus: OrdStatus.Rejected, ordRejReason: OrdRejReason.Other,
      fill: null, leavesQty: { units: 0, scale: 0 }, cumQty: { units: 0, scale: 0 }, avgPx: { units: 0, scale: 0 }, text: 'rate_limited',
    }),
  },
  {
    name: 'OrderCancelReject', msgType: '9', encode: (w) => encodeOrderCancelReject(w, header(14), {
      orderId: 'NONE', clOrdId: 'C-9', origClOrdId: 'C-8', ordStatus: OrdStatus.Rejected, account: '1001', transactTimeMs: T0,
      cxlRejResponseTo: CxlRejResponseTo.OrderCancelRequest, cxlRejReason: CxlRejReason.UnknownOrder, text: 'unknown order',
    }),
  },
  {
    name: 'BusinessMessageReject', msgType: 'j', encode: (w) => encodeBusinessMessageReject(w, header(15), {
      refSeqNum: 30, refMsgType: 'AE', businessRejectRefId: null, reason: BusinessRejectReason.UnsupportedMessageType, text: 'Unsupported MsgType AE',
    }),
  },
  {
    name: 'MarketDataSnapshotFullRefresh', msgType: 'W', encode: (w) => encodeMarketDataSnapshot(w, header(16), {
      mdReqId: 'md-1', symbol: 'EURUSD', entries: [
        { type: MDEntryType.Bid, px: { units: 108_510, scale: 5 }, size: { units: 1_000_000, scale: 0 } },
        { type: MDEntryType.Offer, px: { units: 108_512, scale: 5 }, size: null },
      ],
    }),
  },
  {
    name: 'MarketDataRequestReject', msgType: 'Y', encode: (w) => encodeMarketDataRequestReject(w, header(17), {
      mdReqId: 'md-2', reason: MDReqRejReason.UnknownSymbol, text: 'unknown symbol XAUEUR',
    }),
  },
  {
    name: 'RequestForPositionsAck', msgType: 'AO', encode: (w) => encodeRequestForPositionsAck(w, header(18), {
      posMaintRptId: 'pr-1', posReqId: 'p-1', totalNumPosReports: 0, posReqResult: PosReqResult.NoPositionsFound,
      posReqStatus: PosReqStatus.Completed, parties: [ACCOUNT_PARTY], account: '1001', accountType: AccountType.CustomerSide, text: null,
    }),
  },
  {
    name: 'PositionReport', msgType: 'AP', encode: (w) => encodePositionReport(w, header(19), {
      posMaintRptId: '880012', posReqId: 'p-1', posReqType: PosReqType.Positions, subscriptionRequestType: SubscriptionRequestType.Snapshot,
      totalNumPosReports: 2, unsolicitedIndicator: false, posReqResult: PosReqResult.ValidRequest, clearingBusinessDate: 20260302,
      parties: [ACCOUNT_PARTY], account: '1001', accountType: AccountType.CustomerSide, symbol: 'EURUSD', currency: 'USD',
      settlPrice: { units: 108_250, scale: 5 }, settlPriceType: SettlPriceType.Final, priorSettlPrice: { units: 108_250, scale: 5 },
      positions: [{ posType: PosType.TransactionQty, longQty: { units: 100_000, scale: 0 }, shortQty: { units: 0, scale: 0 } }],
      amounts: [{ posAmtType: PosAmtType.Cash, posAmt: { units: -1_234, scale: 2 } }], text: null,
    }),
  },
];
