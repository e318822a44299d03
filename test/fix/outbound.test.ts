import { describe, expect, it } from 'vitest';
import { FixFramer, FrameStatus } from '../../src/fix/codec/framer.js';
import { readHeader } from '../../src/fix/codec/inbound/header.js';
import {
  readHeartbeat, readLogon, readLogout, readReject, readResendRequest, readSequenceReset, readTestRequest,
} from '../../src/fix/codec/inbound/session.js';
import { encodeExecutionReport } from '../../src/fix/codec/outbound/orders.js';
import { encodeProblem } from '../../src/fix/codec/outbound/session.js';
import { FixReader, defineGroup } from '../../src/fix/codec/reader.js';
import { FixWriter } from '../../src/fix/codec/writer.js';
import { readMarketDataRequest } from '../../src/fix/codec/inbound/market-data.js';
import { readNewOrderSingle, readOrderCancelReplaceRequest, readOrderCancelRequest } from '../../src/fix/codec/inbound/orders.js';
import { readRequestForPositions } from '../../src/fix/codec/inbound/positions.js';
import { Tag } from '../../src/fix/dictionary.js';
import { OUTBOUND_CASES } from './support/outbound-samples.js';
import { CLIENT_IDS, FILL, T0, ascii, clientHeader, frame, header, newOrderSingle } from './support/samples.js';
import { validateFix44 } from './support/qf-validator.js';

/** Encodes a case and reads it back through the framer and the reader, as a peer would. */
function roundTrip(encode: (w: FixWriter) => void): FixReader {
  const w = new FixWriter(64);
  encode(w);
  const framer = new FixFramer({ maxMessageBytes: 4096 });
  framer.push(w.flush());
  expect(framer.next()).toBe(FrameStatus.Message);
  expect(framer.next()).toBe(FrameStatus.NeedMore);
  const r = new FixReader();
  r.parse(framer.bytes, framer.frameStart, framer.frameEnd);
  expect(r.problem()).toBeNull();
  return r;
}

function caseNamed(name: string): (w: FixWriter) => void {
  const c = OUTBOUND_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no outbound case ${name}`);
  return c.encode;
}

describe('outbound builders against the stock QuickFIX FIX44 dictionary', () => {
  it.each(OUTBOUND_CASES.map((c) => [c.name, c] as const))('%s passes (required fields, order, groups, enums, types)', (_name, c) => {
    const w = new FixWriter();
    c.encode(w);
    const msg = w.lastMessage();
    expect(ascii(msg)).toMatch(new RegExp(`^8=FIX\\.4\\.4\\|9=\\d+\\|35=${c.msgType}\\|49=TASGW\\|56=TAS_1001\\|34=\\d+\\|`));
    expect(validateFix44(msg)).toEqual([]);
  });

  it('the validator catches what a QuickFIX client would reject', () => {
    const w = new FixWriter();
    encodeExecutionReport(w, header(1), FILL);
    const good = ascii(w.lastMessage());
    const edit = (from: RegExp, to: string): string[] => {
      const body = good.replace(/^8=FIX\.4\.4\|9=\d+\|/, '').replace(/10=\d{3}\|$/, '').replace(from, to);
      return validateFix44(frame(body));
    };
    expect(edit(/\|17=E-9\|/, '|')).toContainEqual(expect.stringContaining('required ExecID (17) missing'));
    expect(edit(/\|150=F\|/, '|150=1|')).toContainEqual(expect.stringContaining('ExecType=1 not in its enumeration'));
    expect(edit(/\|14=100000\|/, '|14=1e5|')).toContainEqual(expect.stringContaining('CumQty="1e5" is not a QTY'));
    expect(edit(/\|37=O-77\|/, '|37=O-77|37=O-78|')).toContainEqual(expect.stringContaining('appears more than once'));
    expect(edit(/\|37=O-77\|/, '|37=O-77|5001=x|')).toContainEqual(expect.stringContaining('not in dictionary'));
    expect(edit(/\|6=1\.08512\|/, '|6=1.08512|34=9|')).not.toEqual([]);
    expect(validateFix44(Buffer.from(good.replaceAll('|', '\x01').replace(/10=\d{3}/, '10=000'), 'latin1'))).toContainEqual(expect.stringContaining('CheckSum'));
  });
});

describe('outbound round trip through our framer and reader', () => {
  it('reads back the header, PossDup and OrigSendingTime included', () => {
    const r = roundTrip(caseNamed('SequenceReset gap fill (PossDup)'));
    expect(readHeader(r)).toEqual({
      msgType: '4', senderCompId: 'TASGW', targetCompId: 'TAS_1001', msgSeqNum: 7, sendingTimeMs: T0 + 7,
      possDup: true, possResend: false, origSendingTimeMs: T0,
    });
    expect(readSequenceReset(r)).toEqual({ gapFill: true, newSeqNo: 12 });
  });

  it('reads back the session messages with the typed readers', () => {
    expect(readLogon(roundTrip(caseNamed('Logon')))).toEqual({
      encryptMethod: 0, heartBtIntSec: 30, resetSeqNumFlag: true, nextExpectedMsgSeqNum: null, username: null, password: null, cancelOrdersOnDisconnect: null,
    });
    expect(readHeartbeat(roundTrip(caseNamed('Heartbeat')))).toEqual({ testReqId: null });
    expect(readHeartbeat(roundTrip(caseNamed('Heartbeat answering a TestRequest')))).toEqual({ testReqId: 'ping-7' });
    expect(readTestRequest(roundTrip(caseNamed('TestRequest')))).toEqual({ testReqId: 'tr-1' });
    expect(readResendRequest(roundTrip(caseNamed('ResendRequest')))).toEqual({ beginSeqNo: 3, endSeqNo: 0 });
    expect(readReject(roundTrip(caseNamed('Reject')))).toEqual({
      refSeqNum: 12, refTagId: 54, refMsgType: 'D', sessionRejectReason: 1, text: 'Required tag missing: Side (54)',
    });
    expect(readSequenceReset(roundTrip(caseNamed('SequenceReset reset')))).toEqual({ gapFill: false, newSeqNo: 20 });
    expect(readLogout(roundTrip(caseNamed('Logout')))).toEqual({ text: 'MsgSeqNum too low, expecting 10 but received 4' });
  });

  it('reads back an ExecutionReport with exact prices and quantities', () => {
    const r = roundTrip(caseNamed('ExecutionReport fill'));
    expect([r.str(Tag.OrderID), r.str(Tag.ClOrdID), r.str(Tag.ExecID), r.char(Tag.ExecType), r.char(Tag.OrdStatus)]).toEqual(['O-77', 'C-1', 'E-9', 'F', '2']);
    expect([r.decimal(Tag.LastQty), r.decimal(Tag.LastPx), r.decimal(Tag.AvgPx), r.decimal(Tag.LeavesQty)])
      .toEqual([{ units: 100_000, scale: 0 }, { units: 108_512, scale: 5 }, { units: 108_512, scale: 5 }, { units: 0, scale: 0 }]);
    expect(r.utcTimestamp(Tag.TransactTime)).toBe(T0);
    const rejected = roundTrip(caseNamed('ExecutionReport rejected'));
    expect([rejected.char(Tag.ExecType), rejected.char(Tag.OrdStatus), rejected.int(Tag.OrdRejReason), rejected.str(Tag.Text)]).toEqual(['8', '8', 99, 'rate_limited']);
  });

  it('reads back the groups of W and AP', () => {
    const w = roundTrip(caseNamed('MarketDataSnapshotFullRefresh'));
    expect(w.group(defineGroup(Tag.NoMDEntries, Tag.MDEntryType, [Tag.MDEntryPx, Tag.MDEntrySize]))).toBe(2);
    w.enterEntry(1);
    expect([w.char(Tag.MDEntryType), w.decimal(Tag.MDEntryPx), w.decimal(Tag.MDEntrySize)]).toEqual(['1', { units: 108_512, scale: 5 }, null]);
    const ap = roundTrip(caseNamed('PositionReport'));
    expect(ap.group(defineGroup(Tag.NoPosAmt, Tag.PosAmtType, [Tag.PosAmt]))).toBe(1);
    ap.enterEntry(0);
    expect(ap.decimal(Tag.PosAmt)).toEqual({ units: -1_234, scale: 2 });
    ap.leaveEntry();
    expect([ap.localMktDate(Tag.ClearingBusinessDate), ap.decimal(Tag.SettlPrice), ap.str(Tag.Account)]).toEqual([20260302, { units: 10_825, scale: 4 }, '1001']);
  });
});

describe('FixWriter', () => {
  it('appends messages back to back and flushes them as one buffer', () => {
    const w = new FixWriter(32);
    for (const c of OUTBOUND_CASES) c.encode(w);
    const all = w.flush();
    expect(w.pendingBytes).toBe(0);
    const framer = new FixFramer({ maxMessageBytes: 4096 });
    framer.push(all);
    const types: string[] = [];
    const r = new FixReader();
    while (framer.next() === FrameStatus.Message) {
      r.parse(framer.bytes, framer.frameStart, framer.frameEnd);
      types.push(r.msgType);
    }
    expect(types).toEqual(OUTBOUND_CASES.map((c) => c.msgType));
  });

  it('writes BodyLength of one, two, three and four digits without padding', () => {
    const w = new FixWriter();
    for (const text of [null, '', 'x'.repeat(40), 'x'.repeat(1500)]) {
      encodeExecutionReport(w, header(1), { ...FILL, text });
      const msg = w.lastMessage();
      expect(validateFix44(msg)).toEqual([]);
    }
    w.begin('0', header(1));
    w.finish();
    expect(ascii(w.lastMessage())).toMatch(/^8=FIX\.4\.4\|9=\d{2}\|35=0\|/);
    expect(validateFix44(w.lastMessage())).toEqual([]);
  });

  it('never breaks a frame with a SOH or a character beyond latin1 in a string', () => {
    const w = new FixWriter();
    encodeExecutionReport(w, header(1), { ...FILL, text: 'a\x01b — ü' });
    expect(ascii(w.lastMessage())).toContain('|58=a?b ? \u00fc|');
    expect(validateFix44(w.lastMessage())).toEqual([]);
  });

  it('answers a FixProblem with a Reject or a BusinessMessageReject', () => {
    const r = new FixReader();
    const sessionBad = frame(`${clientHeader('D', 12)}11=C|55=EURUSD|60=20260302-09:30:15|38=1|40=1|`);
    r.parse(sessionBad, 0, sessionBad.length);
    const p1 = readNewOrderSingle(r);
    const w = new FixWriter();
    if (!('reject' in p1)) throw new Error('expected a problem');
    encodeProblem(w, header(2), p1);
    expect(ascii(w.lastMessage())).toContain('|35=3|');
    expect(ascii(w.lastMessage())).toContain('|45=12|371=54|372=D|373=1|58=Required tag missing: Side (54)|');
    expect(validateFix44(w.lastMessage())).toEqual([]);
    const businessBad = frame(`${clientHeader('D', 13)}11=C|55=EURUSD|54=1|60=20260302-09:30:15|38=1|40=2|`);
    r.parse(businessBad, 0, businessBad.length);
    const p2 = readNewOrderSingle(r);
    if (!('reject' in p2)) throw new Error('expected a problem');
    encodeProblem(w, header(3), p2);
    expect(ascii(w.lastMessage())).toContain('|35=j|');
    expect(ascii(w.lastMessage())).toContain('|45=13|372=D|380=5|58=Conditionally required field missing: Price (44)|');
    expect(validateFix44(w.lastMessage())).toEqual([]);
  });
});

describe('round trip of the messages clients send, written with the writer field API', () => {
  function read<T>(write: (w: FixWriter) => void, reader: (r: FixReader) => T): T {
    const w = new FixWriter();
    write(w);
    const r = new FixReader();
    r.parse(w.lastMessage(), 0, w.lastEnd - w.lastStart);
    expect(readHeader(r)).toMatchObject({ senderCompId: 'TAS_1001', targetCompId: 'TASGW' });
    return reader(r);
  }

  it('OrderCancelRequest, OrderCancelReplaceRequest, MarketDataRequest and RequestForPositions', () => {
    expect(read((w) => {
      w.begin('F', header(3, CLIENT_IDS));
      w.str(Tag.OrigClOrdID, 'C-1'); w.str(Tag.ClOrdID, 'C-2'); w.str(Tag.Symbol, 'EURUSD'); w.char(Tag.Side, '2');
      w.utcTimestamp(Tag.TransactTime, T0); w.decimal(Tag.OrderQty, { units: 25, scale: 1 });
      w.finish();
    }, readOrderCancelRequest)).toEqual({
      origClOrdId: 'C-1', clOrdId: 'C-2', orderId: null, account: null, symbol: 'EURUSD', side: '2', orderQty: { units: 25, scale: 1 },
      transactTimeMs: T0, text: null,
    });
    expect(read((w) => {
      w.begin('G', header(4, CLIENT_IDS));
      w.str(Tag.OrigClOrdID, 'C-2'); w.str(Tag.ClOrdID, 'C-3'); w.str(Tag.Symbol, 'EURUSD'); w.char(Tag.Side, '2');
      w.utcTimestamp(Tag.TransactTime, T0); w.decimal(Tag.OrderQty, { units: 30, scale: 0 }); w.char(Tag.OrdType, '4');
      w.decimal(Tag.Price, { units: 108_100, scale: 5 }); w.decimal(Tag.StopPx, { units: 108_200, scale: 5 });
      w.finish();
    }, readOrderCancelReplaceRequest)).toMatchObject({ clOrdId: 'C-3', ordType: '4', price: { units: 1081, scale: 3 }, stopPx: { units: 1082, scale: 3 } });
    expect(read((w) => {
      w.begin('V', header(5, CLIENT_IDS));
      w.str(Tag.MDReqID, 'md-9'); w.char(Tag.SubscriptionRequestType, '2'); w.int(Tag.MarketDepth, 1);
      w.int(Tag.NoMDEntryTypes, 1); w.char(Tag.MDEntryType, '1');
      w.int(Tag.NoRelatedSym, 1); w.str(Tag.Symbol, 'XAUUSD');
      w.finish();
    }, readMarketDataRequest)).toEqual({
      mdReqId: 'md-9', subscriptionRequestType: '2', marketDepth: 1, mdUpdateType: null, aggregatedBook: null, entryTypes: ['1'], symbols: ['XAUUSD'],
    });
    expect(read((w) => {
      w.begin('AN', header(6, CLIENT_IDS));
      w.str(Tag.PosReqID, 'p-7'); w.int(Tag.PosReqType, 0); w.str(Tag.Account, '1001'); w.localMktDate(Tag.ClearingBusinessDate, 20260302);
      w.finish();
    }, readRequestForPositions)).toMatchObject({ posReqId: 'p-7', posReqType: 0, account: '1001', clearingBusinessDate: 20260302 });
  });

  it('NewOrderSingle', () => {
    const w = new FixWriter();
    const bytes = newOrderSingle(w, 2);
    const r = new FixReader();
    r.parse(bytes, 0, bytes.length);
    expect(readNewOrderSingle(r)).toEqual({
      clOrdId: 'C-1', account: '1001', symbol: 'EURUSD', side: '1', orderQty: { units: 100_000, scale: 0 }, ordType: '2',
      price: { units: 1085, scale: 3 }, stopPx: null, timeInForce: '1', transactTimeMs: T0, handlInst: null, locateReqd: null,
      expireTimeMs: null, text: null,
    });
  });

  it('reads back OrderCancelReject, BusinessMessageReject, MarketDataRequestReject and RequestForPositionsAck', () => {
    const cxl = roundTrip(caseNamed('OrderCancelReject'));
    expect([cxl.str(Tag.OrderID), cxl.str(Tag.OrigClOrdID), cxl.char(Tag.CxlRejResponseTo), cxl.int(Tag.CxlRejReason)]).toEqual(['NONE', 'C-8', '1', 1]);
    const bmr = roundTrip(caseNamed('BusinessMessageReject'));
    expect([bmr.int(Tag.RefSeqNum), bmr.str(Tag.RefMsgType), bmr.int(Tag.BusinessRejectReason)]).toEqual([30, 'AE', 3]);
    const y = roundTrip(caseNamed('MarketDataRequestReject'));
    expect([y.str(Tag.MDReqID), y.char(Tag.MDReqRejReason), y.str(Tag.Text)]).toEqual(['md-2', '0', 'unknown symbol XAUEUR']);
    const ao = roundTrip(caseNamed('RequestForPositionsAck'));
    expect([ao.int(Tag.PosReqResult), ao.int(Tag.TotalNumPosReports), ao.int(Tag.AccountType)]).toEqual([2, 0, 1]);
  });
});
