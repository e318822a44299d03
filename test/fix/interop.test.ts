// Interop with jspurefix (npm, a likely Node client): messages its session encoder produces
// (BodyLength padded to 7 digits) parse with our framer and readers, and every message we send
// parses with its AsciiParser and the stock FIX44 dictionary.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Jspurefix, makeJspurefix } from '../../bench/support/jspurefix.js';
import { FixFramer, FrameStatus } from '../../src/fix/codec/framer.js';
import { readHeader } from '../../src/fix/codec/inbound/header.js';
import { readMarketDataRequest } from '../../src/fix/codec/inbound/market-data.js';
import { readNewOrderSingle, readOrderCancelReplaceRequest, readOrderCancelRequest } from '../../src/fix/codec/inbound/orders.js';
import { readRequestForPositions } from '../../src/fix/codec/inbound/positions.js';
import {
  readHeartbeat, readLogon, readLogout, readReject, readResendRequest, readSequenceReset, readTestRequest,
} from '../../src/fix/codec/inbound/session.js';
import { FixReader } from '../../src/fix/codec/reader.js';
import { FixWriter } from '../../src/fix/codec/writer.js';
import { OUTBOUND_CASES } from './support/outbound-samples.js';
import { T0 } from './support/samples.js';

let jsp: Jspurefix;
beforeAll(async () => {
  jsp = await makeJspurefix('TAS_1001', 'TASGW');
});

const at = new Date(T0);
type Reader = (r: FixReader) => unknown;

/** What a jspurefix client sends, and what our typed reader must make of it. */
const CLIENT_MESSAGES: readonly (readonly [string, Record<string, unknown>, Reader, unknown])[] = [
  ['A', { EncryptMethod: 0, HeartBtInt: 30, ResetSeqNumFlag: true, Username: 'key-1', Password: 'secret' }, readLogon,
    { encryptMethod: 0, heartBtIntSec: 30, resetSeqNumFlag: true, nextExpectedMsgSeqNum: null, username: 'key-1', password: 'secret', cancelOrdersOnDisconnect: null }],
  ['0', { TestReqID: 'hb' }, readHeartbeat, { testReqId: 'hb' }],
  ['1', { TestReqID: 'tr' }, readTestRequest, { testReqId: 'tr' }],
  ['2', { BeginSeqNo: 2, EndSeqNo: 0 }, readResendRequest, { beginSeqNo: 2, endSeqNo: 0 }],
  ['3', { RefSeqNum: 3, RefTagID: 55, RefMsgType: '8', SessionRejectReason: 5, Text: 'no' }, readReject,
    { refSeqNum: 3, refTagId: 55, refMsgType: '8', sessionRejectReason: 5, text: 'no' }],
  ['4', { GapFillFlag: true, NewSeqNo: 9 }, readSequenceReset, { gapFill: true, newSeqNo: 9 }],
  ['D', {
    ClOrdID: 'C-1', Account: '1001', Instrument: { Symbol: 'EURUSD' }, Side: '1', TransactTime: at,
    OrderQtyData: { OrderQty: 100000 }, OrdType: '2', Price: 1.0851, TimeInForce: '1',
  }, readNewOrderSingle, {
    clOrdId: 'C-1', account: '1001', symbol: 'EURUSD', side: '1', orderQty: { units: 100_000, scale: 0 }, ordType: '2',
    price: { units: 10_851, scale: 4 }, stopPx: null, timeInForce: '1', transactTimeMs: T0, handlInst: null, locateReqd: null,
    expireTimeMs: null, text: null,
  }],
  ['F', { OrigClOrdID: 'C-1', ClOrdID: 'C-2', Instrument: { Symbol: 'EURUSD' }, Side: '1', TransactTime: at, OrderQtyData: { OrderQty: 100000 } },
    readOrderCancelRequest, {
      origClOrdId: 'C-1', clOrdId: 'C-2', orderId: null, account: null, symbol: 'EURUSD', side: '1', orderQty: { units: 100_000, scale: 0 },
      transactTimeMs: T0, text: null,
    }],
  ['G', {
    OrderID: 'O-1', OrigClOrdID: 'C-2', ClOrdID: 'C-3', Instrument: { Symbol: 'EURUSD' }, Side: '1', TransactTime: at,
    OrderQtyData: { OrderQty: 1000.5 }, OrdType: '2', Price: 1.0849,
  }, readOrderCancelReplaceRequest, {
    origClOrdId: 'C-2', clOrdId: 'C-3', orderId: 'O-1', account: null, symbol: 'EURUSD', side: '1', orderQty: { units: 10_005, scale: 1 },
    ordType: '2', price: { units: 10_849, scale: 4 }, stopPx: null, timeInForce: null, transactTimeMs: T0, text: null,
  }],
  ['V', {
    MDReqID: 'md-1', SubscriptionRequestType: '1', MarketDepth: 1, MDUpdateType: 0,
    MDReqGrp: { NoMDEntryTypes: [{ MDEntryType: '0' }, { MDEntryType: '1' }] },
    InstrmtMDReqGrp: { NoRelatedSym: [{ Instrument: { Symbol: 'EURUSD' } }, { Instrument: { Symbol: 'GBPUSD' } }] },
  }, readMarketDataRequest, {
    mdReqId: 'md-1', subscriptionRequestType: '1', marketDepth: 1, mdUpdateType: 0, aggregatedBook: null,
    entryTypes: ['0', '1'], symbols: ['EURUSD', 'GBPUSD'],
  }],
  ['AN', {
    PosReqID: 'p-1', PosReqType: 0, SubscriptionRequestType: '0', Parties: { NoPartyIDs: [{ PartyID: '1001', PartyIDSource: 'D', PartyRole: 3 }] },
    Account: '1001', AccountType: 1, ClearingBusinessDate: '20260302', TransactTime: at,
  }, readRequestForPositions, {
    posReqId: 'p-1', posReqType: 0, subscriptionRequestType: '0', parties: [{ id: '1001', source: 'D', role: 3 }], account: '1001',
    accountType: 1, clearingBusinessDate: 20260302, transactTimeMs: T0,
  }],
  ['5', { Text: 'bye' }, readLogout, { text: 'bye' }],
];

describe('jspurefix → our codec', () => {
  it('frames and reads every client message jspurefix encodes, across split reads', () => {
    const encoded = CLIENT_MESSAGES.map(([type, body], i) => jsp.encode(type, body, i + 1, at));
    expect(encoded[0]?.toString('latin1')).toMatch(/^8=FIX\.4\.4\x019=0000\d{3}\x0135=A\x01/);
    const stream = Buffer.concat(encoded);
    for (const cut of [1, 37, Math.floor(stream.length / 2), stream.length - 1]) {
      const framer = new FixFramer({ maxMessageBytes: 64 * 1024 });
      const r = new FixReader();
      const results: unknown[] = [];
      for (const chunk of [stream.subarray(0, cut), stream.subarray(cut)]) {
        framer.push(chunk);
        for (let st = framer.next(); st !== FrameStatus.NeedMore; st = framer.next()) {
          expect(st).toBe(FrameStatus.Message);
          r.parse(framer.bytes, framer.frameStart, framer.frameEnd);
          const i = results.length;
          expect(readHeader(r)).toMatchObject({ msgType: CLIENT_MESSAGES[i]?.[0], senderCompId: 'TAS_1001', targetCompId: 'TASGW', msgSeqNum: i + 1, sendingTimeMs: T0 });
          results.push(CLIENT_MESSAGES[i]?.[2](r));
        }
      }
      expect(results).toEqual(CLIENT_MESSAGES.map((m) => m[3]));
    }
  });

  it('reads the PossDup and OrigSendingTime jspurefix sets on a resent message', () => {
    const bytes = jsp.encode('4', { GapFillFlag: true, NewSeqNo: 9, StandardHeader: { PossDupFlag: true, SendingTime: new Date(T0 - 1000) } }, 5, at);
    const r = new FixReader();
    r.parse(bytes, 0, bytes.length);
    expect(readHeader(r)).toMatchObject({ possDup: true, origSendingTimeMs: T0 - 1000, sendingTimeMs: T0 });
  });
});

/** Fields jspurefix must read from each of our messages (its names, its value types). */
const EXPECTED_BY_JSPUREFIX: Record<string, Record<string, unknown>> = {
  'Logon': { EncryptMethod: 0, HeartBtInt: 30, ResetSeqNumFlag: true },
  'Heartbeat': { StandardHeader: { MsgSeqNum: 2, SendingTime: new Date(T0 + 2) } },
  'Heartbeat answering a TestRequest': { TestReqID: 'ping-7' },
  'TestRequest': { TestReqID: 'tr-1' },
  'ResendRequest': { BeginSeqNo: 3, EndSeqNo: 0 },
  'Reject': { RefSeqNum: 12, RefTagID: 54, RefMsgType: 'D', SessionRejectReason: 1, Text: 'Required tag missing: Side (54)' },
  'SequenceReset gap fill (PossDup)': { StandardHeader: { PossDupFlag: true, OrigSendingTime: new Date(T0) }, GapFillFlag: true, NewSeqNo: 12 },
  'SequenceReset reset': { NewSeqNo: 20 },
  'Logout': { Text: 'MsgSeqNum too low, expecting 10 but received 4' },
  'ExecutionReport fill': {
    OrderID: 'O-77', ClOrdID: 'C-1', ExecID: 'E-9', ExecType: 'F', OrdStatus: '2', Instrument: { Symbol: 'EURUSD' },
    OrderQtyData: { OrderQty: 100000 }, LastQty: 100000, LastPx: 1.08512, LeavesQty: 0, CumQty: 100000, AvgPx: 1.08512, TransactTime: new Date(T0),
  },
  'ExecutionReport new pending limit': { ExecType: '0', OrdStatus: '0', OrdType: '2', Price: 1.08, TimeInForce: '1', LeavesQty: 100000, CumQty: 0 },
  'ExecutionReport replaced': { ClOrdID: 'C-2', OrigClOrdID: 'C-1', ExecType: '5', OrdType: '3', StopPx: 1.09, LeavesQty: 50000 },
  'ExecutionReport rejected': { OrderID: 'NONE', ExecType: '8', OrdStatus: '8', OrdRejReason: 99, Text: 'rate_limited' },
  'OrderCancelReject': { OrderID: 'NONE', ClOrdID: 'C-9', OrigClOrdID: 'C-8', OrdStatus: '8', CxlRejResponseTo: '1', CxlRejReason: 1 },
  'BusinessMessageReject': { RefSeqNum: 30, RefMsgType: 'AE', BusinessRejectReason: 3 },
  'MarketDataSnapshotFullRefresh': {
    MDReqID: 'md-1', Instrument: { Symbol: 'EURUSD' },
    MDFullGrp: { NoMDEntries: [{ MDEntryType: '0', MDEntryPx: 1.0851, MDEntrySize: 1000000 }, { MDEntryType: '1', MDEntryPx: 1.08512 }] },
  },
  'MarketDataRequestReject': { MDReqID: 'md-2', MDReqRejReason: '0', Text: 'unknown symbol XAUEUR' },
  'RequestForPositionsAck': {
    PosMaintRptID: 'pr-1', PosReqID: 'p-1', TotalNumPosReports: 0, PosReqResult: 2, PosReqStatus: 0,
    Parties: { NoPartyIDs: [{ PartyID: '1001', PartyIDSource: 'D', PartyRole: 24 }] }, Account: '1001', AccountType: 1,
  },
  'PositionReport': {
    PosMaintRptID: '880012', PosReqResult: 0, Parties: { NoPartyIDs: [{ PartyID: '1001', PartyIDSource: 'D', PartyRole: 24 }] },
    Account: '1001', AccountType: 1, Instrument: { Symbol: 'EURUSD' }, SettlPrice: 1.0825, SettlPriceType: 1, PriorSettlPrice: 1.0825,
    PositionQty: { NoPositions: [{ PosType: 'TQ', LongQty: 100000, ShortQty: 0 }] },
    PositionAmountData: { NoPosAmt: [{ PosAmtType: 'CASH', PosAmt: -12.34 }] },
  },
};

describe('our codec → jspurefix', () => {
  it('checks something for every outbound case', () => {
    expect(Object.keys(EXPECTED_BY_JSPUREFIX).sort()).toEqual(OUTBOUND_CASES.map((c) => c.name).sort());
  });

  it.each(OUTBOUND_CASES.map((c) => [c.name, c] as const))('jspurefix parses our %s', (name, c) => {
    const w = new FixWriter();
    c.encode(w);
    const parsed = jsp.parse(w.flush());
    expect(parsed.map((p) => p.msgType)).toEqual([c.msgType]);
    const object = parsed[0]?.object;
    expect(object).toMatchObject({ StandardHeader: { BeginString: 'FIX.4.4', MsgType: c.msgType, SenderCompID: 'TASGW', TargetCompID: 'TAS_1001' } });
    expect(object).toMatchObject(EXPECTED_BY_JSPUREFIX[name] ?? {});
  });
});
