// Outbound BusinessMessageReject (j): an application message the gateway cannot take
// (unsupported MsgType 380=3, conditionally required field missing 380=5, ...).
import { type BusinessRejectReasonValue, MsgType, Tag } from '../../dictionary.js';
import type { FixWriter, OutboundHeader } from '../writer.js';

export interface BusinessMessageRejectFields {
  /** MsgSeqNum of the rejected message; 0 when unknown (then 45 is left out). */
  readonly refSeqNum: number;
  readonly refMsgType: string;
  /** The business ID of the rejected message (its ClOrdID, MDReqID, ...), when it has one. */
  readonly businessRejectRefId: string | null;
  readonly reason: BusinessRejectReasonValue;
  readonly text: string | null;
}

export function encodeBusinessMessageReject(w: FixWriter, h: OutboundHeader, m: BusinessMessageRejectFields): void {
  w.begin(MsgType.BusinessMessageReject, h);
  if (m.refSeqNum > 0) w.int(Tag.RefSeqNum, m.refSeqNum);
  w.str(Tag.RefMsgType, m.refMsgType);
  if (m.businessRejectRefId !== null && m.businessRejectRefId !== '') w.str(Tag.BusinessRejectRefID, m.businessRejectRefId);
  w.int(Tag.BusinessRejectReason, m.reason);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}
