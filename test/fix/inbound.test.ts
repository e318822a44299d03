import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/fix/codec/inbound/header.js';
import { readMarketDataRequest } from '../../src/fix/codec/inbound/market-data.js';
import {
  readNewOrderSingle, readOrderCancelReplaceRequest, readOrderCancelRequest,
} from '../../src/fix/codec/inbound/orders.js';
import { readRequestForPositions } from '../../src/fix/codec/inbound/positions.js';
import {
  readHeartbeat, readLogon, readLogout, readReject, readResendRequest, readSequenceReset, readTestRequest,
} from '../../src/fix/codec/inbound/session.js';
import { FixReader } from '../../src/fix/codec/reader.js';
import { BusinessRejectReason, SessionRejectReason, Tag } from '../../src/fix/dictionary.js';
import { clientHeader, frame } from './support/samples.js';

function reader(msgType: string, body: string, seq = 2): FixReader {
  const r = new FixReader();
  const bytes = frame(clientHeader(msgType, seq) + body);
  r.parse(bytes, 0, bytes.length);
  return r;
}

const missing = (tag: number) => ({ reject: { kind: 'session', reason: SessionRejectReason.RequiredTagMissing }, refTagId: tag });
const badFormat = (tag: number) => ({ reject: { kind: 'session', reason: SessionRejectReason.IncorrectDataFormat }, refTagId: tag });
const outOfRange = (tag: number) => ({ reject: { kind: 'session', reason: SessionRejectReason.ValueIsIncorrect }, refTagId: tag });
const conditional = (tag: number) => ({ reject: { kind: 'business', reason: BusinessRejectReason.ConditionallyRequiredFieldMissing }, refTagId: tag });

describe('inbound header', () => {
  it('reads the StandardHeader', () => {
    const r = new FixReader();
    const bytes = frame('35=D|49=TAS_1001|56=TASGW|34=9|43=Y|97=N|52=20260302-09:30:15.250|122=20260302-09:30:14.000|11=x|');
    r.parse(bytes, 0, bytes.length);
    expect(readHeader(r)).toEqual({
      msgType: 'D', senderCompId: 'TAS_1001', targetCompId: 'TASGW', msgSeqNum: 9, sendingTimeMs: Date.UTC(2026, 2, 2, 9, 30, 15, 250),
      possDup: true, possResend: false, origSendingTimeMs: Date.UTC(2026, 2, 2, 9, 30, 14),
    });
  });

  it.each([
    ['no MsgSeqNum', '35=0|49=A|56=B|52=20260302-09:30:15|', missing(Tag.MsgSeqNum)],
    ['MsgSeqNum 0', '35=0|49=A|56=B|34=0|52=20260302-09:30:15|', outOfRange(Tag.MsgSeqNum)],
    ['no SenderCompID', '35=0|56=B|34=1|52=20260302-09:30:15|', missing(Tag.SenderCompID)],
    ['a bad SendingTime', '35=0|49=A|56=B|34=1|52=2026-03-02|', badFormat(Tag.SendingTime)],
    ['a MsgType FIX 4.4 does not define', '35=ZZ|49=A|56=B|34=1|52=20260302-09:30:15|', { reject: { reason: SessionRejectReason.InvalidMsgType }, refTagId: Tag.MsgType, refMsgType: 'ZZ' }],
  ])('reports %s', (_what, fields, expected) => {
    const r = new FixReader();
    const bytes = frame(fields);
    r.parse(bytes, 0, bytes.length);
    expect(readHeader(r)).toMatchObject(expected);
  });
});

describe('inbound session messages', () => {
  it('reads Logon', () => {
    expect(readLogon(reader('A', '98=0|108=30|141=Y|553=key-1|554=s3cret|'))).toEqual({
      encryptMethod: 0, heartBtIntSec: 30, resetSeqNumFlag: true, nextExpectedMsgSeqNum: null, username: 'key-1', password: 's3cret', cancelOrdersOnDisconnect: null,
    });
    // CancelOrdersOnDisconnect (8013), a user-defined Logon tag.
    expect(readLogon(reader('A', '98=0|108=30|8013=Y|'))).toMatchObject({ cancelOrdersOnDisconnect: true });
    expect(readLogon(reader('A', '98=0|108=30|8013=N|'))).toMatchObject({ cancelOrdersOnDisconnect: false });
    expect(readLogon(reader('A', '98=0|'))).toMatchObject(missing(Tag.HeartBtInt));
    expect(readLogon(reader('A', '98=0|108=-5|'))).toMatchObject(outOfRange(Tag.HeartBtInt));
    expect(readLogon(reader('A', '98=7|108=30|'))).toMatchObject(outOfRange(Tag.EncryptMethod));
    expect(readLogon(reader('A', '98=0|108=30|141=yes|'))).toMatchObject(badFormat(Tag.ResetSeqNumFlag));
  });

  it('reads Heartbeat, TestRequest, ResendRequest, Reject, SequenceReset and Logout', () => {
    expect(readHeartbeat(reader('0', ''))).toEqual({ testReqId: null });
    expect(readHeartbeat(reader('0', '112=t1|'))).toEqual({ testReqId: 't1' });
    expect(readTestRequest(reader('1', '112=t2|'))).toEqual({ testReqId: 't2' });
    expect(readTestRequest(reader('1', ''))).toMatchObject(missing(Tag.TestReqID));
    expect(readResendRequest(reader('2', '7=3|16=0|'))).toEqual({ beginSeqNo: 3, endSeqNo: 0 });
    expect(readResendRequest(reader('2', '7=3|'))).toMatchObject(missing(Tag.EndSeqNo));
    expect(readReject(reader('3', '45=4|371=44|372=D|373=5|58=bad price|'))).toEqual({
      refSeqNum: 4, refTagId: 44, refMsgType: 'D', sessionRejectReason: 5, text: 'bad price',
    });
    expect(readSequenceReset(reader('4', '123=Y|36=10|'))).toEqual({ gapFill: true, newSeqNo: 10 });
    expect(readSequenceReset(reader('4', '36=abc|'))).toMatchObject(badFormat(Tag.NewSeqNo));
    expect(readLogout(reader('5', '58=bye|'))).toEqual({ text: 'bye' });
  });
});

describe('inbound orders', () => {
  const nos = '11=C-1|1=1001|55=EURUSD|54=2|60=20260302-09:30:15.000|38=150000|40=2|44=1.08512|59=1|';

  it('reads NewOrderSingle with exact decimal quantity and price', () => {
    expect(readNewOrderSingle(reader('D', `${nos}21=1|114=N|126=20260303-00:00:00|58=hi|`))).toEqual({
      clOrdId: 'C-1', account: '1001', symbol: 'EURUSD', side: '2', orderQty: { units: 150_000, scale: 0 }, ordType: '2',
      price: { units: 108_512, scale: 5 }, stopPx: null, timeInForce: '1', transactTimeMs: Date.UTC(2026, 2, 2, 9, 30, 15),
      handlInst: '1', locateReqd: false, expireTimeMs: Date.UTC(2026, 2, 3), text: 'hi',
    });
  });

  it.each([
    ['ClOrdID missing', nos.replace('11=C-1|', ''), missing(Tag.ClOrdID)],
    ['Symbol missing', nos.replace('55=EURUSD|', ''), missing(Tag.Symbol)],
    ['OrderQty missing', nos.replace('38=150000|', ''), missing(Tag.OrderQty)],
    ['TransactTime missing', nos.replace('60=20260302-09:30:15.000|', ''), missing(Tag.TransactTime)],
    ['Side not a FIX 4.4 side', nos.replace('54=2', '54=Z'), outOfRange(Tag.Side)],
    ['OrdType not a FIX 4.4 type', nos.replace('40=2', '40=5'), outOfRange(Tag.OrdType)],
    ['OrderQty not a number', nos.replace('38=150000', '38=1e5'), badFormat(Tag.OrderQty)],
    ['Price not a number', nos.replace('44=1.08512', '44=1,08'), badFormat(Tag.Price)],
    ['limit without Price', nos.replace('44=1.08512|', ''), conditional(Tag.Price)],
    ['stop without StopPx', nos.replace('40=2', '40=3'), conditional(Tag.StopPx)],
  ])('reports %s', (_what, body, expected) => {
    expect(readNewOrderSingle(reader('D', body, 17))).toMatchObject({ ...expected, refSeqNum: 17, refMsgType: 'D' });
  });

  it('prefers a session problem to a conditionally required one', () => {
    expect(readNewOrderSingle(reader('D', nos.replace('44=1.08512|', '').replace('11=C-1|', '')))).toMatchObject(missing(Tag.ClOrdID));
  });

  it('reads a valid but unsupported side or order type for the gateway to refuse', () => {
    expect(readNewOrderSingle(reader('D', nos.replace('54=2', '54=5').replace('40=2', '40=1').replace('44=1.08512|', ''))))
      .toMatchObject({ side: '5', ordType: '1', price: null });
  });

  it('reads OrderCancelRequest', () => {
    expect(readOrderCancelRequest(reader('F', '41=C-1|37=O-7|11=C-2|1=1001|55=EURUSD|54=1|60=20260302-09:30:15|'))).toEqual({
      origClOrdId: 'C-1', clOrdId: 'C-2', orderId: 'O-7', account: '1001', symbol: 'EURUSD', side: '1', orderQty: null,
      transactTimeMs: Date.UTC(2026, 2, 2, 9, 30, 15), text: null,
    });
    expect(readOrderCancelRequest(reader('F', '11=C-2|55=EURUSD|54=1|60=20260302-09:30:15|'))).toMatchObject(missing(Tag.OrigClOrdID));
  });

  it('reads OrderCancelReplaceRequest', () => {
    expect(readOrderCancelReplaceRequest(reader('G', '37=O-7|41=C-1|11=C-3|55=EURUSD|54=1|60=20260302-09:30:15|38=200000|40=3|99=1.1|'))).toEqual({
      origClOrdId: 'C-1', clOrdId: 'C-3', orderId: 'O-7', account: null, symbol: 'EURUSD', side: '1', orderQty: { units: 200_000, scale: 0 },
      ordType: '3', price: null, stopPx: { units: 11, scale: 1 }, timeInForce: null, transactTimeMs: Date.UTC(2026, 2, 2, 9, 30, 15), text: null,
    });
    expect(readOrderCancelReplaceRequest(reader('G', '41=C-1|11=C-3|55=EURUSD|54=1|60=20260302-09:30:15|40=2|44=1.1|'))).toMatchObject(missing(Tag.OrderQty));
  });
});

describe('inbound market data and positions', () => {
  it('reads MarketDataRequest with both groups', () => {
    expect(readMarketDataRequest(reader('V', '262=md-1|263=1|264=1|265=0|267=2|269=0|269=1|146=2|55=EURUSD|48=EU|22=8|55=GBPUSD|'))).toEqual({
      mdReqId: 'md-1', subscriptionRequestType: '1', marketDepth: 1, mdUpdateType: 0, aggregatedBook: null,
      entryTypes: ['0', '1'], symbols: ['EURUSD', 'GBPUSD'],
    });
  });

  it.each([
    ['no entry types', '262=m|263=0|264=0|146=1|55=EURUSD|', missing(Tag.NoMDEntryTypes)],
    ['no symbols', '262=m|263=0|264=0|267=1|269=0|', missing(Tag.NoRelatedSym)],
    ['a wrong NoRelatedSym count', '262=m|263=0|264=0|267=1|269=0|146=2|55=EURUSD|', { reject: { reason: SessionRejectReason.IncorrectNumInGroupCount }, refTagId: Tag.NoRelatedSym }],
    ['an unknown MDEntryType', '262=m|263=0|264=0|267=1|269=X|146=1|55=EURUSD|', outOfRange(Tag.MDEntryType)],
    ['updates without MDUpdateType', '262=m|263=1|264=0|267=1|269=0|146=1|55=EURUSD|', conditional(Tag.MDUpdateType)],
  ])('reports %s', (_what, body, expected) => {
    expect(readMarketDataRequest(reader('V', body))).toMatchObject(expected);
  });

  it('reads RequestForPositions, the cTrader minimum and the QuickFIX full set', () => {
    expect(readRequestForPositions(reader('AN', '710=p-1|'))).toEqual({
      posReqId: 'p-1', posReqType: null, subscriptionRequestType: null, parties: [], account: null, accountType: null,
      clearingBusinessDate: null, transactTimeMs: null,
    });
    expect(readRequestForPositions(reader('AN', '710=p-2|724=0|263=0|453=1|448=1001|447=D|452=3|1=1001|581=1|715=20260302|60=20260302-09:30:15|'))).toEqual({
      posReqId: 'p-2', posReqType: 0, subscriptionRequestType: '0', parties: [{ id: '1001', source: 'D', role: 3 }], account: '1001',
      accountType: 1, clearingBusinessDate: 20260302, transactTimeMs: Date.UTC(2026, 2, 2, 9, 30, 15),
    });
    expect(readRequestForPositions(reader('AN', '724=0|'))).toMatchObject(missing(Tag.PosReqID));
    expect(readRequestForPositions(reader('AN', '710=p|724=7|'))).toMatchObject(outOfRange(Tag.PosReqType));
  });
});
