import { describe, expect, it } from 'vitest';
import * as dictionary from '../../src/fix/dictionary.js';
import { DATA_LENGTH_TAG, FIX44_MSG_TYPES, HEADER_TAGS, INSTRUMENT_TAGS, MsgType, Tag } from '../../src/fix/dictionary.js';
import { stockFix44 } from './support/qf-dictionary.js';

const fix44 = stockFix44();

/** Enumerations of src/fix/dictionary.ts and the FIX44 field each one names. */
const ENUMS: Record<string, Record<string, string | number>> = {
  EncryptMethod: dictionary.EncryptMethod, Side: dictionary.Side, OrdType: dictionary.OrdType,
  TimeInForce: dictionary.TimeInForce, HandlInst: dictionary.HandlInst, ExecType: dictionary.ExecType,
  OrdStatus: dictionary.OrdStatus, OrdRejReason: dictionary.OrdRejReason, CxlRejReason: dictionary.CxlRejReason,
  CxlRejResponseTo: dictionary.CxlRejResponseTo, SessionRejectReason: dictionary.SessionRejectReason,
  BusinessRejectReason: dictionary.BusinessRejectReason, MDReqRejReason: dictionary.MDReqRejReason,
  SubscriptionRequestType: dictionary.SubscriptionRequestType, MDUpdateType: dictionary.MDUpdateType,
  MDEntryType: dictionary.MDEntryType, PosReqType: dictionary.PosReqType, AccountType: dictionary.AccountType,
  PosReqResult: dictionary.PosReqResult, PosReqStatus: dictionary.PosReqStatus, SettlPriceType: dictionary.SettlPriceType,
  PosType: dictionary.PosType, PosAmtType: dictionary.PosAmtType, PartyIDSource: dictionary.PartyIDSource,
  PartyRole: dictionary.PartyRole, MassCancelRequestType: dictionary.MassCancelRequestType,
  MassCancelResponse: dictionary.MassCancelResponse, MassCancelRejectReason: dictionary.MassCancelRejectReason,
};

describe('src/fix/dictionary.ts against the stock QuickFIX FIX44.xml', () => {
  it('names every tag with its FIX44 number', () => {
    for (const [name, tag] of Object.entries(Tag)) expect(fix44.fieldsByName.get(name)?.number, name).toBe(tag);
  });

  it('holds exactly the FIX44 values of each enumeration it names (plus the documented 380=99)', () => {
    for (const [name, values] of Object.entries(ENUMS)) {
      const field = fix44.fieldsByName.get(name);
      expect(field?.values, name).not.toBeNull();
      const expected = new Set(field?.values);
      if (name === 'BusinessRejectReason') expected.add(String(dictionary.BusinessRejectReason.ThrottleLimitExceeded));
      expect(new Set(Object.values(values).map(String)), name).toEqual(expected);
    }
    expect(fix44.fieldsByName.get('BusinessRejectReason')?.values?.has('99')).toBe(false);
  });

  it('knows the FIX44 message types', () => {
    expect(new Set(FIX44_MSG_TYPES)).toEqual(fix44.fieldsByName.get('MsgType')?.values);
    for (const [name, type] of Object.entries(MsgType)) expect(fix44.messages.get(type)?.name, name).toBe(name);
  });

  it('knows the header tags, the DATA fields and the Instrument component', () => {
    expect(new Set(HEADER_TAGS)).toEqual(fix44.header.allTags);
    const dataFields = [...fix44.fieldsByNumber.values()].filter((f) => f.type === 'DATA');
    expect(new Set(DATA_LENGTH_TAG.keys())).toEqual(new Set(dataFields.map((f) => f.number)));
    for (const [data, length] of DATA_LENGTH_TAG) {
      const lengthName = fix44.fieldsByNumber.get(length)?.name ?? '';
      expect(fix44.fieldsByNumber.get(length)?.type, lengthName).toBe('LENGTH');
      expect(fix44.fieldsByNumber.get(data)?.name, lengthName).toBe(lengthName.replace(/Len(gth)?$/, ''));
    }
    const instrumentTags = fix44.messages.get(MsgType.NewOrderSingle)?.body.requiredComponents.find((c) => c.name === 'Instrument')?.tags;
    expect(new Set(INSTRUMENT_TAGS)).toEqual(instrumentTags);
  });

  it('describes a tag by name and number for texts', () => {
    expect(dictionary.describeTag(Tag.Price)).toBe('Price (44)');
    expect(dictionary.describeTag(9999)).toBe('tag 9999');
  });
});
