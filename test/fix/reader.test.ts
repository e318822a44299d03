import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CharEnum } from '../../src/fix/codec/char-enum.js';
import { readHeader } from '../../src/fix/codec/inbound/header.js';
import { readMarketDataRequest } from '../../src/fix/codec/inbound/market-data.js';
import { readNewOrderSingle, readOrderCancelReplaceRequest, readOrderCancelRequest } from '../../src/fix/codec/inbound/orders.js';
import { readRequestForPositions } from '../../src/fix/codec/inbound/positions.js';
import {
  readHeartbeat, readLogon, readLogout, readReject, readResendRequest, readSequenceReset, readTestRequest,
} from '../../src/fix/codec/inbound/session.js';
import { FixProblem } from '../../src/fix/codec/problem.js';
import { FixReader, defineGroup } from '../../src/fix/codec/reader.js';
import { SessionRejectReason, Tag } from '../../src/fix/dictionary.js';
import { clientHeader, frame } from './support/samples.js';

function parsed(fields: string): FixReader {
  const r = new FixReader();
  const bytes = frame(fields);
  r.parse(bytes, 0, bytes.length);
  return r;
}

const NOS = 'D';
const ORDER = '11=C-1|1=1001|55=EURUSD|54=1|60=20260302-09:30:15.000|38=100000|40=2|44=1.085|59=1|';

function problemOf(fields: string): FixProblem | null {
  return parsed(fields).problem();
}

describe('FixReader tokenizing', () => {
  it('keeps fields as offsets and reads only what is asked', () => {
    const r = parsed(clientHeader(NOS, 7) + ORDER);
    expect(r.fieldCount).toBe(2 + 5 + 9 + 1);
    expect(r.msgType).toBe('D');
    expect(r.msgSeqNum).toBe(7);
    expect(r.str(Tag.ClOrdID)).toBe('C-1');
    expect(r.str(Tag.StopPx)).toBeNull();
    expect(r.problem()).toBeNull();
  });

  it.each([
    ['a non-numeric tag', '5x=abc|', SessionRejectReason.InvalidTagNumber, null],
    ['a tag with a leading zero', '055=EURUSD|', SessionRejectReason.InvalidTagNumber, null],
    ['a tag over nine digits', '1234567890=x|', SessionRejectReason.InvalidTagNumber, null],
    ['a field without =', '55|', SessionRejectReason.TagSpecifiedWithoutValue, 55],
    ['a non-numeric field without =', 'abc|', SessionRejectReason.InvalidTagNumber, null],
    ['an empty value', '58=|', SessionRejectReason.TagSpecifiedWithoutValue, 58],
    ['a header tag after the body', '43=Y|', SessionRejectReason.TagSpecifiedOutOfRequiredOrder, 43],
  ])('reports %s with its SessionRejectReason, RefSeqNum and RefMsgType', (_what, extra, reason, refTag) => {
    const p = problemOf(clientHeader(NOS, 12) + ORDER + extra);
    expect(p).toBeInstanceOf(FixProblem);
    expect(p).toMatchObject({ reject: { kind: 'session', reason }, refTagId: refTag, refSeqNum: 12, refMsgType: 'D' });
    expect(p?.text).toMatch(/\S/);
  });

  it('requires 35 as the third field, after 8 and 9', () => {
    expect(problemOf('49=TAS_1001|35=D|56=TASGW|34=2|52=20260302-09:30:15.250|' + ORDER))
      .toMatchObject({ reject: { reason: SessionRejectReason.TagSpecifiedOutOfRequiredOrder }, refTagId: Tag.MsgType });
    expect(problemOf('49=TAS_1001|56=TASGW|34=2|52=20260302-09:30:15.250|' + ORDER))
      .toMatchObject({ reject: { reason: SessionRejectReason.RequiredTagMissing }, refTagId: Tag.MsgType, refMsgType: '' });
  });

  it('reports a scalar tag present twice as 373=13 when it is read', () => {
    const r = parsed(clientHeader(NOS, 3) + ORDER + '55=GBPUSD|');
    expect(r.problem()).toBeNull();
    expect(readNewOrderSingle(r)).toMatchObject({ reject: { reason: SessionRejectReason.TagAppearsMoreThanOnce }, refTagId: Tag.Symbol });
  });

  it('reads a DATA field holding SOH by its LENGTH field', () => {
    const r = parsed(clientHeader('A', 1) + '98=0|108=30|95=5|96=a|b=c|553=key|');
    expect(r.problem()).toBeNull();
    expect(r.str(Tag.RawData)).toBe('a\x01b=c');
    expect(r.str(Tag.Username)).toBe('key');
  });

  it('reports a DATA field whose LENGTH does not match (373=6 on the LENGTH tag)', () => {
    expect(problemOf(clientHeader('A', 1) + '98=0|108=30|95=9|96=abc|553=key|'))
      .toMatchObject({ reject: { reason: SessionRejectReason.IncorrectDataFormat }, refTagId: Tag.RawDataLength });
  });

  it('lets the header read succeed while the body must be rejected', () => {
    const r = parsed(clientHeader(NOS, 4) + ORDER + '5x=1|');
    expect(readHeader(r)).toMatchObject({ msgType: 'D', msgSeqNum: 4 });
    expect(readNewOrderSingle(r)).toMatchObject({ reject: { reason: SessionRejectReason.InvalidTagNumber }, refSeqNum: 4 });
  });

  it('parses a Uint8Array that is not a Buffer', () => {
    const bytes = frame(clientHeader('0', 9));
    const r = new FixReader();
    r.parse(new Uint8Array(bytes), 0, bytes.length);
    expect(r.str(Tag.SenderCompID)).toBe('TAS_1001');
  });
});

describe('FixReader typed accessors', () => {
  const body = clientHeader('D', 5) + '1=-42|2=4x|3=Y|4=N|5=T|6=0012.3400|7=1.2.3|15=AB|60=20260302-09:30:15.123|' +
    '126=20260229-00:00:00|62=20240229-23:59:60.999999|715=20260302|716=20260230|';

  it('reads integers, booleans, characters and their format problems', () => {
    const r = parsed(body);
    expect(r.int(1)).toBe(-42);
    expect(r.bool(3)).toBe(true);
    expect(r.bool(4)).toBe(false);
    expect(r.problem()).toBeNull();
    expect(r.int(2)).toBeNull();
    expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.IncorrectDataFormat }, refTagId: 2 });
    r.beginRead();
    expect(r.bool(5)).toBeNull();
    expect(r.problem()).toMatchObject({ refTagId: 5 });
    r.beginRead();
    expect(r.char(15)).toBeNull();
    expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.IncorrectDataFormat }, refTagId: 15 });
    r.beginRead();
    expect(r.enumChar(3, new CharEnum(['N']))).toBeNull();
    expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.ValueIsIncorrect }, refTagId: 3 });
  });

  it('reads decimals exactly and timestamps and dates as numbers', () => {
    const r = parsed(body);
    expect(r.decimal(6)).toEqual({ units: 1234, scale: 2 });
    expect(r.utcTimestamp(60)).toBe(Date.UTC(2026, 2, 2, 9, 30, 15, 123));
    expect(r.utcTimestamp(62)).toBe(Date.UTC(2024, 1, 29, 23, 59, 60, 999));
    expect(r.localMktDate(715)).toBe(20260302);
    expect(r.problem()).toBeNull();
    expect(r.decimal(7)).toBeNull();
    expect(r.problem()).toMatchObject({ refTagId: 7 });
    for (const bad of [126, 716]) {
      r.beginRead();
      expect(r.has(bad)).toBe(true);
      expect(bad === 126 ? r.utcTimestamp(bad) : r.localMktDate(bad)).toBeNull();
      expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.IncorrectDataFormat }, refTagId: bad });
    }
  });

  it('records "required tag missing" for a required read of an absent tag, first problem wins', () => {
    const r = parsed(body);
    r.reqStr(Tag.ClOrdID);
    r.reqInt(2);
    expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.RequiredTagMissing }, refTagId: Tag.ClOrdID, text: 'Required tag missing: ClOrdID (11)' });
  });
});

describe('FixReader repeating groups', () => {
  const group = defineGroup(Tag.NoPartyIDs, Tag.PartyID, [Tag.PartyIDSource, Tag.PartyRole, Tag.NoPartySubIDs, Tag.PartySubID, Tag.PartySubIDType]);
  const head = clientHeader('AN', 6) + '710=R1|';

  it('scopes reads to each entry, nested groups included', () => {
    const r = parsed(head + '453=2|448=A|447=D|452=3|802=1|523=x|803=1|448=B|452=24|1=1001|');
    expect(r.group(group)).toBe(2);
    r.enterEntry(0);
    expect([r.str(Tag.PartyID), r.char(Tag.PartyIDSource), r.int(Tag.PartyRole)]).toEqual(['A', 'D', 3]);
    r.enterEntry(1);
    expect([r.str(Tag.PartyID), r.char(Tag.PartyIDSource), r.int(Tag.PartyRole), r.str(Tag.Account)]).toEqual(['B', null, 24, null]);
    r.leaveEntry();
    expect(r.str(Tag.Account)).toBe('1001');
    expect(r.problem()).toBeNull();
  });

  it('reports a count that does not match the entries (373=16)', () => {
    const r = parsed(head + '453=3|448=A|452=3|448=B|452=3|1=1001|');
    expect(r.group(group)).toBe(0);
    expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.IncorrectNumInGroupCount }, refTagId: Tag.NoPartyIDs });
  });

  it('reports an entry not starting with the delimiter (373=15)', () => {
    const r = parsed(head + '453=1|452=3|448=A|');
    expect(r.group(group)).toBe(0);
    expect(r.problem()).toMatchObject({ reject: { reason: SessionRejectReason.RepeatingGroupFieldsOutOfOrder }, refTagId: Tag.PartyID });
  });

  it('has no entries when the group is absent', () => {
    const r = parsed(head);
    expect(r.group(group)).toBe(0);
    expect(r.problem()).toBeNull();
  });
});

describe('FixReader on arbitrary bytes', () => {
  it('never throws, whatever the bytes, and every typed reader returns a message or a problem', () => {
    const readers = [
      readHeader, readLogon, readHeartbeat, readTestRequest, readResendRequest, readReject, readSequenceReset, readLogout,
      readNewOrderSingle, readOrderCancelRequest, readOrderCancelReplaceRequest, readMarketDataRequest, readRequestForPositions,
    ];
    const r = new FixReader();
    fc.assert(fc.property(fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.stringMatching(/^([0-9a-z]{0,4}=?[-.0-9A-Za-z|]{0,8}\|){0,20}$/).map((s) => frame(s)),
      fc.array(fc.constantFrom('35=V|', '35=AN|', '34=2|', '146=2|', '55=X|', '267=1|', '269=0|', '453=1|', '448=a|', '452=3|', '802=1|', '523=x|', '95=3|', '96=a|b|', '44=1.5|', '40=2|'), { maxLength: 16 })
        .map((parts) => frame(parts.join(''))),
    ), (bytes) => {
      r.parse(bytes, 0, bytes.length);
      for (const read of readers) expect(read(r)).toBeTypeOf('object');
    }), { numRuns: 3000 });
  });
});
