// Inbound RequestForPositions (AN). Only PosReqID is required here: cTrader-style clients send
// 710 alone, QuickFIX-style clients the whole FIX44 set (724, Parties, 1, 581, 715, 60); both
// are read, and whatever is present is checked.
import {
  AccountType, type AccountTypeValue, PartyIDSource, type PartyIDSourceValue, PartyRole, type PartyRoleValue,
  PosReqType, type PosReqTypeValue, SubscriptionRequestType, type SubscriptionRequestTypeValue, Tag, valueSet,
} from '../../dictionary.js';
import type { FixProblem } from '../problem.js';
import { charEnum } from '../char-enum.js';
import { type FixReader, defineGroup } from '../reader.js';

const POS_REQ_TYPES = valueSet(PosReqType);
const SUBSCRIPTION_TYPES = charEnum(SubscriptionRequestType);
const ACCOUNT_TYPES = valueSet(AccountType);
const PARTY_ID_SOURCES = charEnum(PartyIDSource);
const PARTY_ROLES = valueSet(PartyRole);
const PARTIES_GROUP = defineGroup(Tag.NoPartyIDs, Tag.PartyID, [
  Tag.PartyIDSource, Tag.PartyRole, Tag.NoPartySubIDs, Tag.PartySubID, Tag.PartySubIDType,
]);

export interface Party {
  readonly id: string;
  readonly source: PartyIDSourceValue | null;
  readonly role: PartyRoleValue | null;
}

export interface RequestForPositions {
  readonly posReqId: string;
  readonly posReqType: PosReqTypeValue | null;
  readonly subscriptionRequestType: SubscriptionRequestTypeValue | null;
  readonly parties: readonly Party[];
  readonly account: string | null;
  readonly accountType: AccountTypeValue | null;
  /** LocalMktDate as yyyymmdd. */
  readonly clearingBusinessDate: number | null;
  readonly transactTimeMs: number | null;
}

export function readRequestForPositions(r: FixReader): RequestForPositions | FixProblem {
  r.beginRead();
  const posReqId = r.reqStr(Tag.PosReqID);
  const posReqType = r.enumInt(Tag.PosReqType, POS_REQ_TYPES);
  const subscriptionRequestType = r.enumChar(Tag.SubscriptionRequestType, SUBSCRIPTION_TYPES);
  const parties: Party[] = [];
  const partyCount = r.group(PARTIES_GROUP);
  for (let k = 0; k < partyCount; k++) {
    r.enterEntry(k);
    parties.push({
      id: r.reqStr(Tag.PartyID),
      source: r.enumChar(Tag.PartyIDSource, PARTY_ID_SOURCES),
      role: r.enumInt(Tag.PartyRole, PARTY_ROLES),
    });
  }
  r.leaveEntry();
  const m: RequestForPositions = {
    posReqId, posReqType, subscriptionRequestType, parties,
    account: r.str(Tag.Account),
    accountType: r.enumInt(Tag.AccountType, ACCOUNT_TYPES),
    clearingBusinessDate: r.localMktDate(Tag.ClearingBusinessDate),
    transactTimeMs: r.utcTimestamp(Tag.TransactTime),
  };
  return r.problem() ?? m;
}
