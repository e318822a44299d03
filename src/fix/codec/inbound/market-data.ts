// Inbound MarketDataRequest (V): MDReqGrp (267/269) and InstrmtMDReqGrp (146/Instrument).
import {
  INSTRUMENT_TAGS, MDEntryType, type MDEntryTypeValue, MDUpdateType, type MDUpdateTypeValue, SessionRejectReason,
  SubscriptionRequestType, type SubscriptionRequestTypeValue, Tag, valueSet,
} from '../../dictionary.js';
import { CONDITIONALLY_REQUIRED, type FixProblem, sessionReject } from '../problem.js';
import { charEnum } from '../char-enum.js';
import { type FixReader, defineGroup } from '../reader.js';

const SUBSCRIPTION_TYPES = charEnum(SubscriptionRequestType);
const UPDATE_TYPES = valueSet(MDUpdateType);
const ENTRY_TYPES = charEnum(MDEntryType);
const MD_ENTRY_TYPES_GROUP = defineGroup(Tag.NoMDEntryTypes, Tag.MDEntryType, []);
const RELATED_SYM_GROUP = defineGroup(Tag.NoRelatedSym, Tag.Symbol, INSTRUMENT_TAGS);

export interface MarketDataRequest {
  readonly mdReqId: string;
  readonly subscriptionRequestType: SubscriptionRequestTypeValue;
  readonly marketDepth: number;
  /** FIX44: required when subscribing to updates (263=1). */
  readonly mdUpdateType: MDUpdateTypeValue | null;
  readonly aggregatedBook: boolean | null;
  readonly entryTypes: readonly MDEntryTypeValue[];
  readonly symbols: readonly string[];
}

export function readMarketDataRequest(r: FixReader): MarketDataRequest | FixProblem {
  r.beginRead();
  const mdReqId = r.reqStr(Tag.MDReqID);
  const subscriptionRequestType = r.reqEnumChar(Tag.SubscriptionRequestType, SUBSCRIPTION_TYPES);
  const marketDepth = r.reqIntAtLeast(Tag.MarketDepth, 0);
  const mdUpdateType = r.enumInt(Tag.MDUpdateType, UPDATE_TYPES);
  const aggregatedBook = r.bool(Tag.AggregatedBook);
  const entryTypes: MDEntryTypeValue[] = [];
  const typeCount = r.group(MD_ENTRY_TYPES_GROUP);
  for (let k = 0; k < typeCount; k++) {
    r.enterEntry(k);
    entryTypes.push(r.reqEnumChar(Tag.MDEntryType, ENTRY_TYPES));
  }
  const symbols: string[] = [];
  const symbolCount = r.group(RELATED_SYM_GROUP);
  for (let k = 0; k < symbolCount; k++) {
    r.enterEntry(k);
    symbols.push(r.reqStr(Tag.Symbol));
  }
  r.leaveEntry();
  // Both groups are required with at least one entry (MDReqGrp*, InstrmtMDReqGrp* in FIX44).
  if (entryTypes.length === 0) r.fail(sessionReject(SessionRejectReason.RequiredTagMissing), Tag.NoMDEntryTypes);
  if (symbols.length === 0) r.fail(sessionReject(SessionRejectReason.RequiredTagMissing), Tag.NoRelatedSym);
  if (mdUpdateType === null && subscriptionRequestType === SubscriptionRequestType.SnapshotPlusUpdates) {
    r.fail(CONDITIONALLY_REQUIRED, Tag.MDUpdateType);
  }
  return r.problem() ?? { mdReqId, subscriptionRequestType, marketDepth, mdUpdateType, aggregatedBook, entryTypes, symbols };
}
